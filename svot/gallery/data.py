"""Reading an export for the gallery: which splits it holds, and the instances of each.

An export directory (``svot export --out``) holds ``<domain>-<N>x<N>/<split>.parquet``
(``--format parquet``) or ``<domain>-<N>x<N>/<split>/metadata.jsonl`` plus
``images/`` (``--format jsonl``). Both are read into the same plain sample
dicts: the instance record of :mod:`svot.dataset.records` with ``image`` and
each step's ``image`` as PNG bytes (or ``None``). :func:`read_cards` reads
every instance of a split, one row group at a time; :func:`read_samples` only
the sampled rows (Parquet: only the row groups that hold them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from svot.dataset.spec import SPLIT_NAMES, SPLITS, TABLE5_SIZES
from svot.errors import DatasetError
from svot.jsonl import split_lines
from svot.safe_paths import MAX_IMAGE_BYTES, contained, read_regular

_DATASET_DIR = re.compile(r"^(?P<domain>[a-z][a-z0-9_]*)-(?P<size>\d+)x(?P=size)$")

# The fields a gallery card shows (everything else in a record is left out of the pages).
CARD_FIELDS = (
    "id", "domain", "size", "split", "distribution", "map_index", "seq_index", "sequence_kind",
    "initial_state_text", "actions", "action_texts", "n_steps", "ended_early", "answer", "choices",
    "correct_choice", "goal", "task", "prompt",
)
STEP_FIELDS = ("step", "action", "action_text", "applicable", "state", "state_text", "reasoning", "reasoning_visual",
               "keywords")


@dataclass(frozen=True)
class SplitSource:
    """One split of one dataset in an export: where it is and how it is stored."""

    domain: str
    size: int
    split: str
    path: Path  # the .parquet file, or the split's metadata.jsonl
    format: str  # "parquet" | "jsonl"

    @property
    def dataset(self) -> str:
        return f"{self.domain}-{self.size}x{self.size}"

    @property
    def distribution(self) -> str:
        return SPLITS[self.split].distribution if self.split in SPLITS else ""


def _domain_order(domain: str) -> tuple:
    order = list(TABLE5_SIZES)
    return (order.index(domain), "") if domain in order else (len(order), domain)


def find_splits(data_dir: str | Path) -> list[SplitSource]:
    """Every split in an export directory, ordered by domain (paper order), size, split."""
    root = Path(data_dir)
    if not root.is_dir():
        raise DatasetError(f"data directory {str(root)!r} does not exist or is not a directory")
    found: list[SplitSource] = []
    for sub in root.iterdir():
        m = _DATASET_DIR.match(sub.name)
        if not m or not sub.is_dir():
            continue
        domain, size = m["domain"], int(m["size"])
        for split in SPLIT_NAMES:
            pq_path = sub / f"{split}.parquet"
            jsonl_path = sub / split / "metadata.jsonl"
            if pq_path.is_file():
                found.append(SplitSource(domain, size, split, pq_path, "parquet"))
            elif jsonl_path.is_file():
                found.append(SplitSource(domain, size, split, jsonl_path, "jsonl"))
    if not found:
        raise DatasetError(
            f"{str(root)!r} holds no exported splits (expected <domain>-<N>x<N>/<split>.parquet or "
            "<domain>-<N>x<N>/<split>/metadata.jsonl, as written by `svot export --out`)"
        )
    found.sort(key=lambda s: (_domain_order(s.domain), s.size, SPLIT_NAMES.index(s.split)))
    return found


def read_export_info(data_dir: str | Path) -> dict:
    """A few facts from the export's manifest.json (seed, image size, version), or {} without one."""
    path = Path(data_dir) / "manifest.json"
    if not path.is_file():
        return {}
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{path}: cannot read the manifest: {exc}") from None
    args = manifest.get("arguments") or {}
    return {
        k: v
        for k, v in (
            ("version", manifest.get("version")),
            ("seed", manifest.get("seed")),
            ("image_size", args.get("image_size")),
            ("format", manifest.get("format")),
        )
        if v is not None
    }


def sample_indices(n: int, k: int) -> list[int]:
    """``k`` row indices spread evenly over ``n`` rows (all rows when ``n <= k``)."""
    if n <= k:
        return list(range(n))
    return [i * n // k for i in range(k)]


def _check_instances_view(columns, where: Path) -> None:
    if "steps" not in columns:
        hint = " (a --view predictions export)" if "instance_id" in columns else ""
        raise DatasetError(
            f"{where}: not an instances-view export{hint}; the gallery shows instances: "
            "export with `svot export --view instances` (the default)"
        )


def _card(row: dict, image, step_images) -> dict:
    card = {k: row.get(k) for k in CARD_FIELDS}
    card["image"] = image
    card["steps"] = []
    for s, img in zip(row.get("steps") or [], step_images):
        step = {k: s.get(k) for k in STEP_FIELDS}
        step["image"] = img
        card["steps"].append(step)
    return card


def _png(value) -> bytes | None:
    if value is None:
        return None
    return value.get("bytes") if isinstance(value, dict) else value


def _read_parquet(src: SplitSource, per_page: int | None) -> tuple[int, list[dict]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        f = pq.ParquetFile(src.path)
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"{src.path}: cannot read Parquet: {exc}") from None
    _check_instances_view(f.schema_arrow.names, src.path)
    n = f.metadata.num_rows
    wanted = list(range(n)) if per_page is None else sample_indices(n, per_page)
    # Row group of every wanted row; read only those groups.
    starts, total = [], 0
    for g in range(f.metadata.num_row_groups):
        starts.append(total)
        total += f.metadata.row_group(g).num_rows
    cards: list[dict] = []
    cache: dict[int, list[dict]] = {}
    g = 0
    for idx in wanted:
        while g + 1 < len(starts) and starts[g + 1] <= idx:
            g += 1
        if g not in cache:
            cache.clear()
            cache[g] = f.read_row_group(g).to_pylist()
        row = cache[g][idx - starts[g]]
        cards.append(_card(row, _png(row.get("image")), [_png(v) for v in row.get("step_images") or []]))
    return n, cards


def _read_jsonl(src: SplitSource, per_page: int | None) -> tuple[int, list[dict]]:
    split_dir = src.path.parent
    try:
        lines = [ln for ln in split_lines(src.path.read_text(encoding="utf-8")) if ln.strip()]
    except OSError as exc:
        raise DatasetError(f"{src.path}: cannot read: {exc}") from None

    def image(name):
        if not name:
            return None
        # a name from the file: read only a regular file under the split's folder, of bounded size
        p = contained(split_dir, name, what=f"{src.path}: image")
        return read_regular(p, max_bytes=MAX_IMAGE_BYTES, what=f"{src.path}: image")

    cards = []
    for i in range(len(lines)) if per_page is None else sample_indices(len(lines), per_page):
        try:
            row = json.loads(lines[i])
        except ValueError as exc:
            raise DatasetError(f"{src.path}:{i + 1}: not JSON: {exc}") from None
        _check_instances_view(row, src.path)
        names = row.get("step_images_file_names") or [None] * len(row.get("steps") or [])
        cards.append(_card(row, image(row.get("file_name")), [image(x) for x in names]))
    return len(lines), cards


def read_samples(src: SplitSource, per_page: int) -> tuple[int, list[dict]]:
    """(number of instances in the split, up to ``per_page`` sample cards spread over it)."""
    if src.format == "parquet":
        return _read_parquet(src, per_page)
    return _read_jsonl(src, per_page)


def read_cards(src: SplitSource) -> list[dict]:
    """Every instance of the split as a card, in the export's order."""
    return (_read_parquet if src.format == "parquet" else _read_jsonl)(src, None)[1]
