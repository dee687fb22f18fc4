"""Files on disk: atomic writes, deterministic Parquet, the ImageFolder (JSONL + PNG) layout, sha256.

Every file is written by :func:`svot.atomic.atomic_write_bytes`: a fresh
``<name>.tmp`` (whatever had that name, a link included, is removed first;
``O_EXCL | O_NOFOLLOW``), fsynced, and ``os.replace``d into place, so an
interrupted export or a crash never leaves a half-written file under its final
name.
Parquet files are written by pyarrow with a fixed row-group size, compression
and format version; nothing time- or host-dependent goes into them (pyarrow's
``created_by`` string names its version only), so the same rows give the same
bytes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

# the one atomic writer (fresh O_EXCL|O_NOFOLLOW temp file, fsync, rename), re-exported for the exporters
from svot.atomic import TMP_SUFFIX, atomic_write_bytes, atomic_write_json, tmp_path  # noqa: F401
from svot.dataset.records import png_name
from svot.safe_paths import open_regular

ROW_GROUP_SIZE = 64
PARQUET_OPTIONS = dict(
    row_group_size=ROW_GROUP_SIZE,
    compression="zstd",
    compression_level=3,
    version="2.6",
    data_page_version="1.0",
    use_dictionary=True,
    write_statistics=True,
)


def write_parquet(table: pa.Table, path: Path) -> None:
    # built in memory, then one write: pyarrow's file sink issues a write call per page (hundreds a file)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **PARQUET_OPTIONS)
    atomic_write_bytes(path, sink.getvalue())


def write_arrow(table: pa.Table, path: Path) -> None:
    """An uncompressed Arrow IPC file (the export's intermediate parts), written at once as above."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    atomic_write_bytes(path, sink.getvalue())


def read_arrow(path: Path) -> pa.Table:
    with pa.memory_map(str(path), "r") as source:
        return pa.ipc.open_file(source).read_all()


def _image_file(images_dir: Path, value: dict | None, rel: str) -> str | None:
    if value is None:
        return None
    name = png_name(value["bytes"])
    path = images_dir / name
    if not path.exists():
        atomic_write_bytes(path, value["bytes"])
    return f"{rel}/{name}"


def write_imagefolder(table: pa.Table, split_dir: Path, view: str) -> list[Path]:
    """``<split_dir>/metadata.jsonl`` plus ``<split_dir>/images/<sha256>.png``; returns the files written.

    Image columns become ImageFolder file-name columns, which ``datasets``
    loads back as image columns of the same names as in Parquet: instances
    have ``file_name`` (→ ``image``, v0) and ``step_images_file_names`` (→
    ``step_images``, v1..vn, as in Parquet);
    predictions have ``file_names`` (→ ``images``, the prompt's images in
    placeholder order) and ``target_image_file_name`` (→ ``target_image``, or
    null). Images are content-addressed, so equal images are one file.
    """
    images_dir = split_dir / "images"
    images_dir.mkdir(parents=True, exist_ok=True)
    lines = []
    for row in table.to_pylist():
        if view == "instances":
            row["file_name"] = _image_file(images_dir, row.pop("image"), "images")
            row["step_images_file_names"] = [_image_file(images_dir, v, "images") for v in row.pop("step_images")]
        else:
            if "images" in row:  # method views without images (wo-v) have no such column
                row["file_names"] = [_image_file(images_dir, v, "images") for v in row.pop("images")]
            if "target_image" in row:
                row["target_image_file_name"] = _image_file(images_dir, row.pop("target_image"), "images")
        lines.append(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
    meta = split_dir / "metadata.jsonl"
    atomic_write_bytes(meta, ("\n".join(lines) + "\n").encode())
    if view == "predictions":  # LLaMA-Factory's alpaca layout: <image> placeholders in prompt, file_names in order
        atomic_write_json(split_dir / LLAMA_FACTORY_INFO, llama_factory_info(split_dir))
    return [meta] + sorted(images_dir.iterdir())


LLAMA_FACTORY_INFO = "dataset_info.json"


def llama_factory_info(split_dir: Path) -> dict:
    """A LLaMA-Factory ``dataset_info.json`` entry for a predictions-view split: ``--dataset_dir`` and
    ``--media_dir`` are the split directory; ``prompt`` holds one ``<image>`` per entry of ``file_names``."""
    name = "svot_" + "_".join(split_dir.parts[-2:]).replace("-", "_")
    return {name: {"file_name": "metadata.jsonl", "formatting": "alpaca",
                   "columns": {"prompt": "prompt", "response": "target", "images": "file_names"}}}


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open_regular(path) as f:  # a FIFO where a recorded file was is refused, not waited on
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
