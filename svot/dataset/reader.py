"""Reading an export back: the one reader of what :mod:`~svot.dataset.export` writes.

An export directory (``svot export --out``) holds, per dataset
``<domain>-<N>x<N>/``, one file per split: ``<split>.parquet`` (``--format
parquet``) or ``<split>/metadata.jsonl`` beside the PNG files it names
(``--format jsonl``, ImageFolder). Each row is one record of
:mod:`~svot.dataset.records`: an instance (``--view instances``) or one
prediction (``--view predictions``: a ``state`` and a ``visualization`` record
per step and one ``goal`` record, grouped by ``instance_id``).

Who reads what:

* the gallery (:mod:`svot.gallery`): :func:`find_splits` (the datasets and
  splits of one export, in paper order), :func:`read_export_info` (a few facts
  of its manifest) and :func:`read_instance_rows` (instance rows with their
  images as PNG bytes, optionally only a sample of them);
* every export's split files as plain rows, whatever product wrote them
  (``svot rulemaze evaluate`` and the RuleMaze Inspect tasks among them):
  :func:`find_split_files` (a file, or the split files under a directory by the
  first of a product's glob patterns that matches) and :func:`read_table_rows`
  (one Parquet table, or one JSON list of objects as the ShareGPT layout writes);
* scoring (:mod:`svot.metrics.evaluation`, ``svot evaluate``) and the Inspect
  tasks: :func:`data_files` (every split file under a directory, at any
  depth), :func:`read_rows` (the rows of one file, of either view, optionally
  only those of some ids) and :func:`load_truth` (the ground truth as
  :class:`TruthInstance` records, the same whatever the layout and view).

The files are data, not a licence (:mod:`svot.safe_paths`): an image a
``metadata.jsonl`` names is read only under the split's folder, only as a
regular file of at most :data:`~svot.safe_paths.MAX_IMAGE_BYTES`. A file that
cannot be read as an export is a :class:`~svot.errors.DatasetError` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from svot.dataset.spec import SPLIT_NAMES, SPLITS, TABLE5_SIZES
from svot.domains import get_spec
from svot.errors import DatasetError
from svot.jsonl import iter_lines, loads, read_json_file
from svot.render.labels import label_grid
from svot.safe_paths import MAX_IMAGE_BYTES, contained, read_regular

__all__ = [
    "InstanceRow",
    "SplitSource",
    "TruthInstance",
    "TruthSet",
    "TruthStep",
    "data_files",
    "find_split_files",
    "read_table_rows",
    "find_splits",
    "image_ref",
    "json_value",
    "load_truth",
    "png_bytes",
    "read_export_info",
    "read_image_bytes",
    "read_instance_rows",
    "read_rows",
]

_DATASET_DIR = re.compile(r"^(?P<domain>[a-z][a-z0-9_]*)-(?P<size>\d+)x(?P=size)$")


# --------------------------------------------------------------------------- where the splits are


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
    """Every split of one export directory (``<domain>-<N>x<N>/`` right under it), ordered by domain
    (paper order), size, split."""
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


def data_files(data) -> list[Path]:
    """The split files under ``data``: itself when it is a ``.parquet`` or ``*.jsonl`` file, else every
    ``*.parquet`` and ``metadata.jsonl`` under the directory at any depth (hidden folders skipped), sorted."""
    p = Path(data)
    if not p.exists():
        raise DatasetError(f"no data at {str(p)!r}: pass the directory an export wrote (svot export --out ...)")
    if p.is_file():
        if p.suffix == ".parquet" or p.name.endswith(".jsonl"):
            return [p]
        raise DatasetError(f"{str(p)!r} is neither a .parquet file nor a metadata.jsonl file")
    files = [
        f
        for f in sorted(p.rglob("*"))
        if f.is_file()
        and (f.suffix == ".parquet" or f.name == "metadata.jsonl")
        and not any(part.startswith(".") for part in f.relative_to(p).parts)
    ]
    if not files:
        raise DatasetError(f"no exported split (*.parquet or metadata.jsonl) under {str(p)!r}")
    return files


def find_split_files(data, patterns: Sequence[str], what: str = "split") -> list[Path]:
    """The split files of ``data``: the file itself, or under a directory every match of the first of
    ``patterns`` (globs, in the order a product prefers its formats) that matches anything."""
    data = Path(data)
    if data.is_file():
        return [data]
    if not data.is_dir():
        raise DatasetError(f"data {str(data)!r} does not exist")
    for pattern in patterns:
        found = sorted(data.glob(pattern))
        if found:
            return found
    raise DatasetError(f"no {what} under {str(data)!r} (looked for {' and '.join(patterns)})")


def read_table_rows(path: Path, columns: Sequence[str] | None = None) -> list[dict]:
    """The rows of one split file: a Parquet table (``columns`` only, if given) or a JSON list of objects
    (the ShareGPT layout). Raises :class:`~svot.errors.DatasetError` naming the file."""
    path = Path(path)
    if path.suffix == ".parquet":
        try:
            return pq.read_table(path, columns=None if columns is None else list(columns)).to_pylist()
        except (OSError, KeyError, ValueError) as exc:
            what = f"the columns {list(columns)}" if columns is not None else "a Parquet table"
            raise DatasetError(f"{path}: cannot read {what}: {exc}") from None
    data = read_json_file(path, what="a ShareGPT JSON list", max_bytes=MAX_JSON_LIST_BYTES)  # regular, bounded, UTF-8
    if not isinstance(data, list) or any(not isinstance(r, dict) for r in data):
        raise DatasetError(f"{path}: expected a JSON list of items")
    return data


#: Largest JSON-list split file read whole.
MAX_JSON_LIST_BYTES = 4 * 1024**3


def read_export_info(data_dir: str | Path) -> dict:
    """A few facts from the export's manifest.json (seed, image size, version), or {} without one."""
    path = Path(data_dir) / "manifest.json"
    if not path.is_file():
        return {}
    manifest = read_json_file(path, what="the manifest")  # regular, bounded, any nesting an error
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


# --------------------------------------------------------------------------- values of a row


def json_value(value):
    """A JSON-encoded column (``state``, ``goal``) decoded; a value already decoded as is."""
    return loads(value) if isinstance(value, str) else value


def png_bytes(value) -> bytes | None:
    """The bytes of a Parquet image column (an Image struct ``{bytes, path}``, or bytes)."""
    if value is None:
        return None
    return value.get("bytes") if isinstance(value, dict) else value


def image_ref(value, base: Path | None):
    """An image column value as bytes or a path (read later); a path must stay under ``base``,
    the data file's folder (the current directory when ``None``)."""
    if value is None:
        return None
    if isinstance(value, dict):
        if value.get("bytes") is not None:
            return value["bytes"]
        value = value.get("path")
        if not value:
            return None
    if isinstance(value, str):
        return contained(base if base is not None else Path.cwd(), value, what="data image path")
    return value


def read_image_bytes(name: str | None, base: Path, what: str) -> bytes | None:
    """The bytes of an image file a row names: only a regular file under ``base``, of bounded size."""
    if not name:
        return None
    path = contained(base, name, what=what)
    return read_regular(path, max_bytes=MAX_IMAGE_BYTES, what=what)


# --------------------------------------------------------------------------- rows


def _pred_view(columns) -> bool:
    return "instance_id" in columns and "kind" in columns


def read_rows(path: Path, ids: set | None = None) -> tuple[list[dict], bool]:
    """Rows of one split file that hold a wanted id (all with ``ids=None``), and whether the file is in
    the predictions view. A Parquet file without a wanted id is read no further than its id column."""
    if path.suffix == ".parquet":
        names = pq.read_schema(path).names
        pred_view = _pred_view(names)
        id_col = "instance_id" if pred_view else "id"
        if id_col not in names:
            return [], False
        if ids is not None:
            have = set(pq.read_table(path, columns=[id_col]).column(0).to_pylist())
            if not have & ids:
                return [], pred_view
        table = pq.read_table(path)
        if ids is not None:
            table = table.filter(pc.is_in(table[id_col], value_set=pa.array(sorted(ids), pa.string())))
        return table.to_pylist(), pred_view
    rows = []
    pred_view = None
    for _number, line in iter_lines(path):
        if line.strip():
            row = loads(line)
            if pred_view is None:
                pred_view = _pred_view(row)
            rid = row.get("instance_id" if pred_view else "id")
            if ids is None or rid in ids:
                rows.append(row)
    return rows, bool(pred_view)


@dataclass(frozen=True)
class InstanceRow:
    """One instances-view row as written, with its images read as PNG bytes (``None`` where absent)."""

    row: dict
    image: bytes | None
    step_images: list  # one entry per ``step_images`` (Parquet) / ``step_images_file_names`` (JSONL) entry


def _require_instances_view(columns, where: Path, purpose: str) -> None:
    if "steps" not in columns:
        hint = " (a --view predictions export)" if "instance_id" in columns else ""
        raise DatasetError(
            f"{where}: not an instances-view export{hint}; {purpose}: "
            "export with `svot export --view instances` (the default)"
        )


def _parquet_instance_rows(src: SplitSource, pick, purpose: str) -> tuple[int, list[InstanceRow]]:
    try:
        f = pq.ParquetFile(src.path)
    except (OSError, pa.ArrowException) as exc:
        raise DatasetError(f"{src.path}: cannot read Parquet: {exc}") from None
    _require_instances_view(f.schema_arrow.names, src.path, purpose)
    n = f.metadata.num_rows
    wanted = list(range(n)) if pick is None else pick(n)
    # Row group of every wanted row; read only those groups, one at a time.
    starts, total = [], 0
    for g in range(f.metadata.num_row_groups):
        starts.append(total)
        total += f.metadata.row_group(g).num_rows
    out: list[InstanceRow] = []
    cache: dict[int, list[dict]] = {}
    g = 0
    for idx in wanted:
        while g + 1 < len(starts) and starts[g + 1] <= idx:
            g += 1
        if g not in cache:
            cache.clear()
            cache[g] = f.read_row_group(g).to_pylist()
        row = cache[g][idx - starts[g]]
        out.append(InstanceRow(row, png_bytes(row.get("image")), [png_bytes(v) for v in row.get("step_images") or []]))
    return n, out


def _jsonl_instance_rows(src: SplitSource, pick, purpose: str) -> tuple[int, list[InstanceRow]]:
    split_dir = src.path.parent
    lines = [ln for _, ln in iter_lines(src.path) if ln.strip()]  # a regular file only (rule 1)
    what = f"{src.path}: image"
    out = []
    for i in range(len(lines)) if pick is None else pick(len(lines)):
        try:
            row = loads(lines[i])
        except ValueError as exc:
            raise DatasetError(f"{src.path}:{i + 1}: not JSON: {exc}") from None
        _require_instances_view(row, src.path, purpose)
        names = row.get("step_images_file_names") or [None] * len(row.get("steps") or [])
        out.append(InstanceRow(row, read_image_bytes(row.get("file_name"), split_dir, what),
                               [read_image_bytes(x, split_dir, what) for x in names]))
    return len(lines), out


def read_instance_rows(src: SplitSource, pick: Callable[[int], list[int]] | None = None, *,
                       purpose: str = "this reader wants instances") -> tuple[int, list[InstanceRow]]:
    """(number of rows in the split, the rows ``pick(number)`` chooses, in that order; every row when
    ``pick`` is None). Parquet: only the row groups that hold a chosen row are read.

    ``purpose`` ends the message when the file is not in the instances view (why instances are needed).
    """
    read = _parquet_instance_rows if src.format == "parquet" else _jsonl_instance_rows
    return read(src, pick, purpose)


# --------------------------------------------------------------------------- ground truth


@dataclass
class TruthStep:
    index: int  # 1-based
    action: str | None
    state: dict
    keywords: list
    labels: list
    image: object = None  # PNG bytes, a path, a PIL image or None
    visual_chain: str | None = None  # c_i^v


@dataclass
class TruthInstance:
    id: str
    domain: str
    size: int
    split: str
    distribution: str
    steps: list
    answer: str
    goal: dict
    choices: list
    correct: str

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.domain, self.size, self.split)


class TruthSet:
    """Ground-truth instances by id (see :func:`load_truth`)."""

    def __init__(self, instances: dict[str, TruthInstance], sources: list[str]):
        self.instances = instances
        self.sources = sources

    def __contains__(self, key) -> bool:
        return key in self.instances

    def __getitem__(self, key) -> TruthInstance:
        return self.instances[key]

    def __len__(self) -> int:
        return len(self.instances)

    def __iter__(self) -> Iterator[TruthInstance]:
        return iter(self.instances.values())


def _truth_instance(head: dict, instance_id: str, steps: list, goal_row: dict, correct) -> TruthInstance:
    """A :class:`TruthInstance` from a row's identifying columns (``head``) and its goal columns (``goal_row``)."""
    return TruthInstance(
        id=instance_id,
        domain=head["domain"],
        size=int(head["size"]),
        split=head["split"],
        distribution=head.get("distribution", ""),
        steps=steps,
        answer=goal_row["answer"],
        goal=json_value(goal_row["goal"]),
        choices=list(goal_row["choices"]),
        correct=correct,
    )


def truth_from_instance_row(row: dict, base: Path | None) -> TruthInstance:
    """One instances-view row as a :class:`TruthInstance` (image paths checked under ``base``)."""
    steps = []
    # Parquet: ``step_images`` (Image structs); ImageFolder JSONL: ``step_images_file_names``
    names = row.get("step_images") or row.get("step_images_file_names") or []
    for i, s in enumerate(row["steps"]):
        image = s.get("image")  # exports before the step images moved out of the structs
        if image is None and i < len(names):
            image = names[i]
        steps.append(
            TruthStep(
                index=int(s["step"]),
                action=s.get("action_text"),
                state=json_value(s["state"]),
                keywords=list(s.get("keywords") or []),
                labels=s.get("labels"),
                image=image_ref(image, base),
                visual_chain=s.get("reasoning_visual"),
            )
        )
    return _truth_instance(row, row["id"], steps, row, row["correct_choice"])


def truth_from_prediction_rows(rows: list[dict], base: Path | None) -> TruthInstance:
    """The predictions-view rows of one instance as a :class:`TruthInstance` (labels drawn from the states)."""
    first = rows[0]
    spec = get_spec(first["domain"])
    by_step: dict[int, dict] = {}
    goal_row = None
    for r in rows:
        if r["kind"] == "goal":
            goal_row = r
        else:
            by_step.setdefault(int(r["step"]), {})[r["kind"]] = r
    if goal_row is None:
        raise DatasetError(f"instance {first['instance_id']}: the predictions view has no goal record")
    steps = []
    for i in sorted(by_step):
        st = by_step[i].get("state")
        vis = by_step[i].get("visualization")
        src = st or vis
        state = json_value(src["state"])
        keywords = list((st or {}).get("keywords") or [])
        action = next((k["value"] for k in keywords if k.get("field") == "action"), None)
        image = None
        if vis is not None:
            image = vis.get("target_image")
            if image is None and vis.get("target_image_file_name"):
                image = vis["target_image_file_name"]
        chain_v = vis.get("reasoning") if vis is not None else None
        steps.append(TruthStep(i, action, state, keywords, label_grid(spec, state), image_ref(image, base), chain_v or None))
    return _truth_instance(first, first["instance_id"], steps, goal_row, goal_row["target_classification"])


def load_truth(data, ids: Iterable[str] | None = None) -> TruthSet:
    """The ground-truth instances under ``data`` (a directory, a ``.parquet`` or a ``metadata.jsonl``).

    ``ids``: load only these instances (files without any of them are not
    read beyond their id column). An id present in two files is taken from
    the first (paths in sorted order). Raises :class:`~svot.errors.DatasetError`
    when there is no exported split or a file is not an SVoT export.
    """
    want = None if ids is None else {i for i in ids if isinstance(i, str)}
    out: dict[str, TruthInstance] = {}
    sources = []
    for path in data_files(data):
        try:
            rows, pred_view = read_rows(path, want)
            base = path.parent
            if pred_view:
                groups: dict[str, list] = {}
                for r in rows:
                    groups.setdefault(r["instance_id"], []).append(r)
                insts = [truth_from_prediction_rows(g, base) for g in groups.values()]
            else:
                insts = [truth_from_instance_row(r, base) for r in rows]
        except DatasetError:
            raise
        except Exception as exc:  # noqa: BLE001 - a file that is not an SVoT export
            raise DatasetError(f"{path}: cannot read it as an SVoT export ({type(exc).__name__}: {exc})") from None
        if insts:
            sources.append(str(path))
        for inst in insts:
            out.setdefault(inst.id, inst)
    return TruthSet(out, sources)
