"""Files on disk: atomic writes, deterministic Parquet, the ImageFolder (JSONL + PNG) layout, sha256.

Every file is written to a fresh ``<name>.tmp`` (whatever had that name,
a link included, is removed first), fsynced, and ``os.replace``d into place,
so an interrupted export or a crash never leaves a half-written file under
its final name.
Parquet files are written by pyarrow with a fixed row-group size, compression
and format version; nothing time- or host-dependent goes into them (pyarrow's
``created_by`` string names its version only), so the same rows give the same
bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from svot.dataset.records import png_name

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
TMP_SUFFIX = ".tmp"


def tmp_path(path: Path) -> Path:
    return path.with_name(path.name + TMP_SUFFIX)


def _drop(tmp: Path) -> None:
    """Remove a half-written ``.tmp`` file after a failed write (disk full...), if it is there."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _fresh_tmp(path: Path) -> Path:
    """The ``.tmp`` name of ``path``, with anything already there (a link, a stale file) removed first,
    so that the write creates a new file rather than following a link or truncating a stranger's file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_path(path)
    if os.path.lexists(tmp):
        os.unlink(tmp)
    return tmp


def _open_new(tmp: Path):
    """A new binary file at ``tmp`` (never a link followed nor an existing file truncated)."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o644)
    return os.fdopen(fd, "wb")


def atomic_write_bytes(path: Path, data) -> None:
    """Write ``data`` (bytes or any buffer) to ``path`` atomically: a fresh ``.tmp``, fsync, rename."""
    tmp = _fresh_tmp(path)
    try:
        with _open_new(tmp) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _drop(tmp)
        raise
    os.replace(tmp, path)


def atomic_write_json(path: Path, obj) -> None:
    atomic_write_bytes(path, (json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode())


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
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
