"""The one way svot writes an export: output directory, lock, work units, resume, merge, manifest.

Every exporter (``svot export``'s SVoT splits, ``svot rulemaze export``'s RuleMaze items) is a
:class:`Product`: it says what its splits are, how one chunk of a split is built (a pure function
run in a worker), how a split's merged table becomes its final files, and what its manifest says.
:func:`run_export` does the rest, the same for both:

* holds the output lock (:func:`svot.dataset.outdir.lock_output`) and prepares the directory
  (refuse / ``--resume`` / ``--overwrite``, :func:`svot.dataset.outdir.prepare_output`);
* counts a split done only when its final files are on disk with the sha256 recorded for them
  and its stats are written; rebuilds any chunk whose Arrow part is missing or unreadable;
* runs the chunks here (``workers=1``), in ``workers`` processes, or as Ray tasks;
* merges a split's parts in order as soon as its last chunk is in (so the bytes do not depend on
  the number of workers or on interruptions), records the hashes, then the stats;
* writes the product's card (if it has one) and ``manifest.json`` with the sha256 of every file,
  and removes ``.parts/``.

A file that cannot be written raises :class:`~svot.errors.DatasetError` naming it; finished parts
and splits are kept for ``--resume``.

Layout under ``.parts/``: ``<folder>/<split>/chunk-<k>.arrow`` (a chunk's rows, its stats in the
schema metadata key ``svot_stats``), ``stats/<folder>/<split>.json`` (a finished split's stats),
``config.json`` and ``files.json`` (:mod:`svot.dataset.outdir`).
"""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import dataclass, field
from pathlib import Path
import sys
from typing import Callable, Iterable, Iterator, Protocol

import pyarrow as pa
from tqdm import tqdm

from svot.dataset.outdir import MANIFEST, PARTS, lock_output, part_ok, prepare_output, record_files, recorded, remove
from svot.dataset.ray_engine import RayPool, check_engine
from svot.dataset.writers import atomic_write_json, read_arrow, sha256_file, write_arrow
from svot.errors import ConfigError, DatasetError
from svot.parallel import process_pool

STATS_META = b"svot_stats"


@dataclass
class SplitWork:
    """One split of one dataset folder: its chunks, how many units (instances, items) each holds,
    and which chunks are still to build. ``data`` is the product's own (what its chunks need)."""

    folder: str
    split: str
    units: list[int]  # per chunk, for the progress bar
    data: object = None
    remaining: set = field(default_factory=set)
    done: bool = False

    @property
    def chunks(self) -> int:
        return len(self.units)


@dataclass(frozen=True)
class Task:
    """A chunk to build: ``run(args)`` writes the Arrow part at :func:`part_path` and returns
    anything (the orchestrator reads the part's stats from its file)."""

    work: SplitWork
    chunk: int
    run: Callable[[tuple], object]
    args: tuple


class Product(Protocol):
    """What one kind of export tells :func:`run_export` (see the module docstring)."""

    out: Path

    def fingerprint(self) -> dict: ...

    def folders(self) -> list[str]: ...

    def saved_stats(self, manifest: dict) -> Iterable[tuple[str, str, dict]]:
        """``(folder, split, stats)`` of a finished export's manifest (to resume it)."""

    def splits(self) -> list[SplitWork]: ...

    def final_files(self, work: SplitWork) -> list[Path]:
        """The files whose presence (with recorded hashes) marks the split done."""

    def split_files(self, work: SplitWork) -> list[Path]:
        """Every file a finished split leaves (hashed into ``files.json`` when it is merged)."""

    def tasks(self, pending: list[SplitWork], note: Callable[[str], None]) -> Iterator[Task]:
        """The chunks still to build, lazily: drawing what the next ones need may overlap with
        workers building the earlier ones."""

    def part_schema(self, work: SplitWork) -> pa.Schema: ...

    def write_split(self, work: SplitWork, table: pa.Table) -> None:
        """Write the split's final files from its merged rows."""

    def split_stats(self, stats: Counter) -> dict: ...

    def before_workers(self, pending: list[SplitWork]) -> None:
        """Build in this process what forked workers would otherwise each build."""

    def finish(self, works: list[SplitWork], stats: list[dict], files: Callable[[list[Path]], dict],
               command) -> tuple[dict, object]:
        """Write what comes last but the manifest (a card), and return ``(manifest, result)``;
        ``files(paths)`` gives the manifest's ``{relative path: {sha256, bytes}}``."""


def part_path(out: Path, work: SplitWork, k: int) -> Path:
    return out / PARTS / work.folder / work.split / f"chunk-{k:04d}.arrow"


def stats_path(out: Path, work: SplitWork) -> Path:
    return out / PARTS / "stats" / work.folder / f"{work.split}.json"


def write_part(table: pa.Table, stats: dict, path: Path) -> None:
    """A chunk's rows as an Arrow part, its stats in the schema metadata (what workers call)."""
    meta = dict(table.schema.metadata or {})
    meta[STATS_META] = json.dumps(stats).encode()
    write_arrow(table.replace_schema_metadata(meta), Path(path))


def part_stats(path: Path) -> dict:
    return json.loads(read_arrow(path).schema.metadata[STATS_META])


def progress(total: int, initial: int, quiet: bool, desc: str, unit: str):
    return tqdm(total=total, initial=initial, unit=unit, desc=desc, file=sys.stderr,
                disable=quiet or not sys.stderr.isatty(), dynamic_ncols=True)


def run_export(product: Product, *, workers: int = 1, resume: bool = False, overwrite: bool = False,
               quiet: bool = False, command: list[str] | None = None, engine: str = "local",
               address: str | None = None, desc: str = "instances", unit: str = "inst"):
    """Run ``product``'s export into ``product.out``; returns what its ``finish`` returns."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"workers must be a positive integer, got {workers!r}")
    check_engine(engine, address)
    out = Path(product.out)
    try:
        with lock_output(out):
            return _run(product, out, workers, resume, overwrite, quiet, command, engine, address, desc, unit)
    except OSError as exc:
        what = exc.strerror or str(exc)
        where = f" ({exc.filename})" if exc.filename else ""
        hint = "; finished parts are kept: fix the cause and rerun with --resume" if (out / PARTS).is_dir() else ""
        raise DatasetError(f"cannot write the export in {str(out)!r}: {what}{where}{hint}") from exc


def _run(product: Product, out: Path, workers: int, resume: bool, overwrite: bool, quiet: bool, command,
         engine: str, address: str | None, desc: str, unit: str):
    def restore(manifest: dict) -> None:
        for folder, split, st in product.saved_stats(manifest):
            atomic_write_json(out / PARTS / "stats" / folder / f"{split}.json", st)

    # a product's own top-level files (its card): a user's file of that name is kept unless --overwrite
    own_files = getattr(product, "top_files", tuple)()
    prepare_output(out, product.fingerprint(), [out / f for f in product.folders()], resume, overwrite, restore,
                   own_files=own_files)
    verified = recorded(out)  # finished files whose sha256 prepare_output has just checked
    works = product.splits()
    for w in works:
        w.done = stats_path(out, w).exists() and all(
            p.exists() and p.relative_to(out).as_posix() in verified for p in product.final_files(w))
        w.remaining = {k for k in range(w.chunks) if not part_ok(part_path(out, w, k))}
    pending = [w for w in works if not w.done]
    pool = None
    if engine == "ray" and pending:
        pool = RayPool(address=address, num_cpus=workers if workers > 1 else None)
    elif workers > 1 and pending:
        # pyarrow imports pandas (when installed, ~0.3 s) at its first list conversion: pay it here, once,
        # rather than in every forked worker
        pa.array([0])
        product.before_workers(pending)
        pool = process_pool(workers)
    built = sum(w.units[k] for w in pending for k in range(w.chunks) if k not in w.remaining)
    bar = progress(sum(sum(w.units) for w in pending), built, quiet, desc, unit)
    futures: dict = {}

    def finished(task: Task) -> None:
        bar.update(task.work.units[task.chunk])
        task.work.remaining.discard(task.chunk)
        if not task.work.remaining:
            _merge(product, out, task.work)

    def harvest(block: bool) -> None:
        while futures:
            done, _ = wait(futures, timeout=None if block else 0, return_when=FIRST_COMPLETED)
            if not done:
                return
            for fut in done:
                fut.result()
                finished(futures.pop(fut))

    def note(text: str) -> None:
        bar.set_postfix_str(text, refresh=False)

    try:
        for w in pending:  # every part already there (an export killed while merging)
            if not w.remaining:
                _merge(product, out, w)
        for task in product.tasks([w for w in pending if w.remaining], note):
            if pool is None:
                task.run(task.args)
                finished(task)
            else:
                futures[pool.submit(task.run, task.args)] = task
                harvest(block=False)
        harvest(block=True)
    finally:
        bar.close()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    stats = [json.loads(stats_path(out, w).read_text()) for w in works]

    def files(paths: list[Path]) -> dict:
        return {p.relative_to(out).as_posix(): {"sha256": sha256_file(p), "bytes": p.stat().st_size} for p in paths}

    manifest, result = product.finish(works, stats, files, command)
    atomic_write_json(out / MANIFEST, manifest)
    remove(out / PARTS)
    return result


def _merge(product: Product, out: Path, work: SplitWork) -> None:
    """Concatenate a split's parts, in order, into its final files; then drop the parts."""
    paths = [part_path(out, work, k) for k in range(work.chunks)]
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise DatasetError(f"{work.folder} {work.split}: part {missing[0].name} is missing")
    schema = product.part_schema(work)
    tables, stats = [], Counter()
    for p in paths:
        t = read_arrow(p)
        stats.update(json.loads(t.schema.metadata[STATS_META]))
        tables.append(t.replace_schema_metadata(schema.metadata))
    table = pa.concat_tables(tables).combine_chunks() if tables else schema.empty_table()
    product.write_split(work, table)
    # the hashes, then the stats: a split counts as done only once its files can be verified
    record_files(out, product.split_files(work))
    atomic_write_json(stats_path(out, work), product.split_stats(stats))
    for p in paths:
        p.unlink()
    work.done = True
