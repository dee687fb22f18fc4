"""Exporting splits to disk: workers, shards, resume, manifest, summary.

Layout under ``out/``::

    <domain>-<N>x<N>/<split>.parquet               --format parquet (default)
    <domain>-<N>x<N>/<split>/metadata.jsonl         --format jsonl (ImageFolder)
    <domain>-<N>x<N>/<split>/images/<sha256>.png
    manifest.json                                   version, command, seeds, parameters, counts, sha256 of every file
    .parts/                                         work in progress (removed when the export completes)

**Work units.** A split's maps are cut into chunks of ``chunk_maps`` maps; a
chunk is built by one worker process into ``.parts/<dataset>/<split>/chunk-<k>.arrow``
(written to a ``.tmp`` name, then renamed). When every chunk of a split is
there, the main process concatenates them in order into the split's final
file (again via a ``.tmp`` name) and deletes them. Chunks are pure functions
of (arguments, chunk index): the bytes of every final file are the same for
any number of workers, and an export interrupted at any point and rerun with
``resume=True`` reuses the finished chunks and splits and ends with the same
bytes as an uninterrupted run.

**Seeds.** Each (seed, domain, size, split) gets 128 bits of entropy from
sha256 (:func:`svot.dataset.spec.split_entropy`); maps, sequences and choice
letters draw from ``numpy.random.SeedSequence`` children of it (see
:mod:`svot.dataset.instance`).
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy
import PIL
import pyarrow
import pyarrow as pa

from svot._version import EXPORT_FORMAT, __version__
from svot.dataset.instance import MapPlan, map_instances, plan_maps, split_lengths, split_letters
from svot.dataset.card import CARD, write_card
from svot.dataset.chat import VIEWS, view_records as records_for, view_schema as schema_for
from svot.dataset.records import PngCache
from svot.dataset.spec import (
    P_APPLICABLE,
    SPLIT_NAMES,
    SPLITS,
    TABLE5_PREDICTIONS,
    TABLE5_SIZES,
    lengths_for,
    maps_for,
    predictions,
    split_entropy,
)
from svot.dataset.orchestrator import SplitWork, Task, part_path, run_export, write_part
from svot.dataset.writers import LLAMA_FACTORY_INFO, write_imagefolder, write_parquet
from svot.domains import get_spec, sampling_params
from svot.errors import ConfigError
from svot.problem_gen.grounding import shared_grounding
from svot.render.atlas import get_atlas

FORMATS = ("parquet", "jsonl")
DEFAULT_CHUNK_MAPS = 10
MAX_IMAGE_SIZE = 4096  # pixels a side: 16.7 M pixels, the most svot.safe_paths lets a reader decode
STATS_KEYS = ("maps", "instances", "steps", "records", "inapplicable_steps", "plan_sequences", "ended_early", "images_encoded")


def dataset_name(domain: str, size: int) -> str:
    return f"{domain}-{size}x{size}"


@dataclass(frozen=True)
class ExportConfig:
    """What to export. Everything here (but nothing else) determines the bytes written."""

    out: str
    targets: tuple  # ((domain, size), ...)
    splits: tuple = SPLIT_NAMES
    seed: int = 0
    format: str = "parquet"
    view: str = "instances"
    image_size: int = 256
    maps_per_split: tuple = ()  # ((split, maps), ...): override A.6's map counts (tests, quick runs)
    allow_any_size: bool = False
    chunk_maps: int = DEFAULT_CHUNK_MAPS

    @property
    def maps_override(self) -> dict[str, int]:
        return dict(self.maps_per_split)

    def fingerprint(self) -> dict:
        return {
            "version": __version__,
            "targets": [[d, n] for d, n in self.targets],
            "splits": list(self.splits),
            "seed": self.seed,
            "format": self.format,
            "view": self.view,
            "image_size": self.image_size,
            "maps_per_split": {s: m for s, m in self.maps_per_split},
            "allow_any_size": self.allow_any_size,
            "chunk_maps": self.chunk_maps,
        }


def make_config(
    out: str | os.PathLike,
    domains=None,
    sizes=None,
    splits=None,
    *,
    paper: bool = False,
    seed: int = 0,
    format: str = "parquet",
    view: str = "instances",
    image_size: int = 256,
    maps_per_split: dict[str, int] | int | None = None,
    allow_any_size: bool = False,
    chunk_maps: int = DEFAULT_CHUNK_MAPS,
) -> ExportConfig:
    """Check the arguments and resolve them into an :class:`ExportConfig`.

    ``paper=True``: every domain × Table 5 size × split. Otherwise ``domains``
    is required; ``sizes`` defaults to each domain's Table 5 sizes and must be
    Table 5 sizes of every domain given unless ``allow_any_size``.
    """
    if paper:
        if domains or sizes or splits:
            raise ConfigError("--paper exports every domain, size and split of Table 5; do not combine it with --domains, --sizes or --splits")
        domains = list(TABLE5_SIZES)
        splits = list(SPLIT_NAMES)
    if not domains:
        raise ConfigError("no domains given: pass --domains (a comma-separated list, or all) or --paper")
    names = []
    for d in domains:
        name = get_spec(d).name
        if name not in names:
            names.append(name)
    targets = []
    for d in names:
        spec = get_spec(d)
        table = TABLE5_SIZES.get(d, spec.sizes)
        for n in (table if not sizes else sizes):
            if isinstance(n, bool) or not isinstance(n, int):
                raise ConfigError(f"sizes must be integers, got {n!r}")
            if n < 2 or (n not in table and not allow_any_size):
                raise ConfigError(
                    f"{d} has no size {n} in Table 5 (sizes: {', '.join(map(str, table))}); "
                    "pass --allow-any-size to export it anyway"
                )
            if (d, n) not in targets:
                targets.append((d, int(n)))
    splits = list(splits or SPLIT_NAMES)
    for s in splits:
        if s not in SPLITS:
            raise ConfigError(f"unknown split {s!r}; choose from {', '.join(SPLIT_NAMES)}")
    splits = [s for s in SPLIT_NAMES if s in splits]
    if format not in FORMATS:
        raise ConfigError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    if view not in VIEWS:
        raise ConfigError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(image_size, bool) or not isinstance(image_size, int) or not 16 <= image_size <= MAX_IMAGE_SIZE:
        raise ConfigError(f"image size must be an integer from 16 to {MAX_IMAGE_SIZE} pixels, got {image_size!r}")
    if not isinstance(chunk_maps, int) or chunk_maps < 1:
        raise ConfigError(f"chunk size must be a positive number of maps, got {chunk_maps!r}")
    mps: dict[str, int] = {}
    if isinstance(maps_per_split, int) and not isinstance(maps_per_split, bool):
        mps = {s: maps_per_split for s in SPLIT_NAMES}
    elif maps_per_split:
        mps = dict(maps_per_split)
    for s, m in mps.items():
        if s not in SPLITS:
            raise ConfigError(f"maps per split: unknown split {s!r}; choose from {', '.join(SPLIT_NAMES)}")
        if isinstance(m, bool) or not isinstance(m, int) or m < 1:
            raise ConfigError(f"maps per split: {s} needs a positive integer, got {m!r}")
    return ExportConfig(
        out=str(out),
        targets=tuple(targets),
        splits=tuple(splits),
        seed=int(seed),
        format=format,
        view=view,
        image_size=int(image_size),
        maps_per_split=tuple(sorted(mps.items(), key=lambda kv: SPLIT_NAMES.index(kv[0]))),
        allow_any_size=bool(allow_any_size),
        chunk_maps=int(chunk_maps),
    )


# --------------------------------------------------------------------------- jobs


@dataclass
class SplitJob:
    """What a (domain, size, split) is: the product's data of its :class:`~svot.dataset.orchestrator.SplitWork`."""

    domain: str
    size: int
    split: str
    maps: int
    chunks: int

    @property
    def name(self) -> str:
        return dataset_name(self.domain, self.size)

    @property
    def instances(self) -> int:
        return self.maps * SPLITS[self.split].sequences


def final_path(out: Path, cfg: ExportConfig, job: SplitJob) -> Path:
    base = out / job.name
    return base / f"{job.split}.parquet" if cfg.format == "parquet" else base / job.split / "metadata.jsonl"


def _chunk_task(args: tuple) -> tuple:
    """Build one chunk of a split and write it as an Arrow part; returns (job key, chunk index, stats)."""
    key, k, plans, schedule, seed, view, image_size, path = args
    pngs = PngCache(image_size)
    rows: list[dict] = []
    stats: Counter = Counter()
    plan: MapPlan
    for plan, (lt, ln) in zip(plans, schedule):
        stats["maps"] += 1
        for inst in map_instances(plan, seed, lt, ln):
            recs = records_for(inst, pngs, view)
            rows.extend(recs)
            stats["instances"] += 1
            stats["steps"] += inst.n_steps
            stats["records"] += len(recs)
            stats["inapplicable_steps"] += sum(1 for s in inst.steps if not s.applicable)
            stats["plan_sequences"] += inst.sequence_kind == "plan"
            stats["ended_early"] += inst.ended_early
    stats["images_encoded"] = pngs.encoded
    table = pa.Table.from_pylist(rows, schema=schema_for(view))
    write_part(table, {k2: int(stats[k2]) for k2 in STATS_KEYS}, Path(path))
    return key, k, {k2: int(stats[k2]) for k2 in STATS_KEYS}


# --------------------------------------------------------------------------- export


@dataclass
class SummaryRow:
    dataset: str
    split: str
    stats: dict
    table5: int | None

    @property
    def predictions(self) -> int:
        return predictions(self.stats["instances"], self.stats["steps"])


@dataclass
class ExportResult:
    out: Path
    rows: list[SummaryRow]
    manifest: dict

    def summary(self) -> str:
        return format_summary(self.rows)


def export(
    cfg: ExportConfig,
    *,
    workers: int = 1,
    resume: bool = False,
    overwrite: bool = False,
    quiet: bool = False,
    command: list[str] | None = None,
    engine: str = "local",
    address: str | None = None,
) -> ExportResult:
    """Run an export (see the module docstring). Returns the summary rows and the manifest.

    The output directory, lock, resume, workers and manifest are
    :func:`svot.dataset.orchestrator.run_export`'s, as for every svot export.
    ``engine="local"`` builds the work units in this process (``workers=1``) or in
    ``workers`` processes; ``engine="ray"`` runs them as Ray tasks, on a local
    instance (``workers`` CPUs, default all) or on the cluster at ``address``
    (see :mod:`svot.dataset.ray_engine`). Every engine writes the same bytes.

    A file that cannot be written (a path under a file, no permission, a full
    disk) raises :class:`~svot.errors.DatasetError` naming it; finished parts and
    splits are kept, so ``resume=True`` continues once the cause is fixed.
    """
    return run_export(SvotExport(cfg), workers=workers, resume=resume, overwrite=overwrite, quiet=quiet,
                      command=command, engine=engine, address=address)


class SvotExport:
    """The SVoT splits as an orchestrator product (:class:`svot.dataset.orchestrator.Product`)."""

    def __init__(self, cfg: ExportConfig):
        self.cfg = cfg
        self.out = Path(cfg.out)

    def fingerprint(self) -> dict:
        return self.cfg.fingerprint()

    def folders(self) -> list[str]:
        return [dataset_name(d, n) for d, n in self.cfg.targets]

    def top_files(self) -> list[str]:
        """The dataset card: a user's own README.md in ``out`` is replaced only with ``--overwrite``."""
        return [CARD]

    def saved_stats(self, manifest: dict):
        for name, ds in manifest.get("datasets", {}).items():
            for split, st in ds.get("splits", {}).items():
                yield name, split, {k: int(st[k]) for k in STATS_KEYS}

    def splits(self) -> list[SplitWork]:
        cfg, works = self.cfg, []
        for d, n in cfg.targets:
            for s in cfg.splits:
                m = maps_for(s, cfg.maps_override)
                job = SplitJob(d, n, s, m, -(-m // cfg.chunk_maps))
                units = [(min(m, (k + 1) * cfg.chunk_maps) - k * cfg.chunk_maps) * SPLITS[s].sequences
                         for k in range(job.chunks)]
                works.append(SplitWork(job.name, s, units, job))
        return works

    def final_files(self, work: SplitWork) -> list[Path]:
        return [final_path(self.out, self.cfg, work.data)]

    def split_files(self, work: SplitWork) -> list[Path]:
        return _files(self.out, self.cfg, [work.data], card=False)  # the card is written last, with the manifest

    def before_workers(self, pending: list[SplitWork]) -> None:
        _warm_for_workers(self.cfg, [w.data for w in pending])

    def tasks(self, pending: list[SplitWork], note):
        cfg, mps = self.cfg, self.cfg.maps_override
        # the last split whose maps each (domain, size) still needs (maps are drawn in split order)
        need: dict[tuple, str] = {}
        for w in pending:
            key = (w.data.domain, w.data.size)
            if key not in need or SPLIT_NAMES.index(w.split) > SPLIT_NAMES.index(need[key]):
                need[key] = w.split
        # Maps are drawn in this process, one (domain, size) at a time; its chunks go to the
        # workers at once, so drawing the next maps overlaps with building these.
        for (d, n), upto in need.items():
            note(f"drawing {dataset_name(d, n)} maps")
            plans = plan_maps(d, n, cfg.seed, mps, upto=upto, allow_any_size=cfg.allow_any_size)
            note("")
            for w in pending:
                job = w.data
                if (job.domain, job.size) != (d, n):
                    continue
                maps = plans[job.split]
                letters = split_letters(cfg.seed, d, n, job.split, len(maps))
                schedule = list(zip(letters, split_lengths(cfg.seed, maps)))
                for k in sorted(w.remaining):
                    lo, hi = k * cfg.chunk_maps, min(job.maps, (k + 1) * cfg.chunk_maps)
                    yield Task(w, k, _chunk_task, ((d, n, job.split), k, maps[lo:hi], schedule[lo:hi], cfg.seed,
                                                   cfg.view, cfg.image_size, str(part_path(self.out, w, k))))

    def part_schema(self, work: SplitWork) -> pa.Schema:
        return schema_for(self.cfg.view)

    def write_split(self, work: SplitWork, table: pa.Table) -> None:
        if self.cfg.format == "parquet":
            write_parquet(table, final_path(self.out, self.cfg, work.data))
        else:
            write_imagefolder(table, self.out / work.folder / work.split, self.cfg.view)

    def split_stats(self, stats: Counter) -> dict:
        return {k: int(stats[k]) for k in STATS_KEYS}

    def finish(self, works: list[SplitWork], stats: list[dict], files, command):
        cfg, out = self.cfg, self.out
        jobs = [w.data for w in works]
        rows = [SummaryRow(j.name, j.split, st, TABLE5_PREDICTIONS.get((j.domain, j.size), {}).get(j.split))
                for j, st in zip(jobs, stats)]
        write_card(out, [dataset_name(d, n) for d, n in cfg.targets], list(cfg.splits), cfg.format, cfg.view,
                   cfg.fingerprint()["version"])
        manifest = _manifest(cfg, jobs, rows, command, files(_files(out, cfg, jobs)))
        return manifest, ExportResult(out, rows, manifest)


def _warm_for_workers(cfg: ExportConfig, pending: list[SplitJob]) -> None:
    """Build here, before the workers fork, what each of them would otherwise build for itself: every
    pending (domain, size)'s shared grounding (this process draws the maps on it anyway) and tile
    atlas. Forked workers inherit them; with 2 workers the export's CPU time drops by 0.3-0.6 s of
    8.6 at ``bench_export.py``'s default (docs/speed.md). Nothing drawn, nothing written."""
    for d, n in dict.fromkeys((j.domain, j.size) for j in pending):
        shared_grounding(get_spec(d), n)
        get_atlas(get_spec(d), n, cfg.image_size)


def _files(out: Path, cfg: ExportConfig, jobs: list[SplitJob], card: bool = True) -> list[Path]:
    """The files the export leaves for ``jobs``, and the dataset card unless ``card=False``."""
    files = []
    for j in jobs:
        if cfg.format == "parquet":
            files.append(final_path(out, cfg, j))
        else:
            split_dir = out / j.name / j.split
            files.append(split_dir / "metadata.jsonl")
            if (split_dir / LLAMA_FACTORY_INFO).exists():
                files.append(split_dir / LLAMA_FACTORY_INFO)
            files.extend(sorted((split_dir / "images").iterdir()))
    return files + [out / CARD] if card else files


def _manifest(cfg: ExportConfig, jobs: list[SplitJob], rows: list[SummaryRow], command, files: dict) -> dict:
    datasets: dict = {}
    for (d, n) in cfg.targets:
        name = dataset_name(d, n)
        gen = {dist: sampling_params(d, n, dist, allow_any_size=True) for dist in ("id", "ood")}
        datasets[name] = {
            "domain": d,
            "size": n,
            "generator": gen,
            "sequence_lengths": {dist: list(lengths_for(n, dist)) for dist in ("id", "ood")},
            "random_sequences": {"p_applicable": P_APPLICABLE},
            "splits": {},
        }
    for j, r in zip(jobs, rows):
        datasets[j.name]["splits"][j.split] = {
            "distribution": SPLITS[j.split].distribution,
            "sequences_per_map": SPLITS[j.split].sequences,
            "entropy": hex(split_entropy(cfg.seed, j.domain, j.size, j.split)),
            **r.stats,
            "predictions": r.predictions,
            "table5_predictions": r.table5,
        }
    return {
        "package": "svot",
        "version": __version__,
        "format_version": EXPORT_FORMAT,
        "command": list(command) if command is not None else None,
        "arguments": cfg.fingerprint(),
        "seed": cfg.seed,
        "format": cfg.format,
        "view": cfg.view,
        "libraries": {"pyarrow": pyarrow.__version__, "pillow": PIL.__version__, "numpy": numpy.__version__},
        "datasets": datasets,
        "files": files,
    }


def format_summary(rows: list[SummaryRow]) -> str:
    """The end-of-export table: counts per dataset × split beside Table 5's prediction counts."""
    head = ("dataset", "split", "maps", "instances", "steps", "predictions", "Table 5", "ratio", "inapplicable", "plans", "ended early")
    lines = []
    for r in rows:
        s = r.stats
        ratio = f"{r.predictions / r.table5:.3f}" if r.table5 else "-"
        inap = f"{100 * s['inapplicable_steps'] / s['steps']:.1f}%" if s["steps"] else "-"
        lines.append(
            (r.dataset, r.split, str(s["maps"]), str(s["instances"]), str(s["steps"]), str(r.predictions),
             str(r.table5) if r.table5 else "-", ratio, inap, str(s["plan_sequences"]), str(s["ended_early"]))
        )
    widths = [max(len(h), *(len(x[i]) for x in lines)) if lines else len(h) for i, h in enumerate(head)]

    def fmt(cols):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cols, widths)))

    out = [fmt(head), fmt(["-" * w for w in widths])]
    out += [fmt(x) for x in lines]
    if rows:
        tot_p = sum(r.predictions for r in rows)
        tot_t = sum(r.table5 for r in rows if r.table5)
        out.append(f"total: {sum(r.stats['instances'] for r in rows)} instances, {tot_p} predictions"
                   + (f" (Table 5: {tot_t} for the rows it lists)" if tot_t else ""))
    return "\n".join(out)
