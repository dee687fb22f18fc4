"""Benchmark: export throughput against the PNG-encoding ceiling, measured in one run.

Times a fraction of ``svot export --paper``: every domain × Table 5 size × split
(15 dataset/size pairs × 4 splits), with ``--fraction`` of the paper's maps per
split (default 0.1: train 10 maps, val 3, test_id 6, test_ood 6, i.e. 80 of the
paper's 800 instances per pair, 1,200 in all; ``--fraction 1`` is the whole
paper export). Then, in the same process, encodes images alone, the same way
the export does (:func:`svot.dataset.records.encode_png`, PIL, same level),
on states taken from the exported data: that is the ceiling an export could
reach if building instances, reasoning chains and rows cost nothing.

    python benchmarks/bench_export.py                 # 10 % of --paper, 2 workers
    python benchmarks/bench_export.py --fraction 1    # all of --paper
    python benchmarks/bench_export.py --breakdown     # then where an export's CPU time goes, by phase

Prints instances/s and images/s of the export beside the ceiling (images/s of
one process × workers, and the instances/s that implies at the export's images
per instance), and the ratios, then the target's ratio on one line. Wall-clock numbers depend on what else runs on
the machine (other processes share its cores); the per-CPU-second line compares
CPU time with CPU time and is the steadier figure.

``--breakdown`` then builds the same chunks again in this one process, timing
each phase in CPU seconds: drawing the maps (generation, done by the export's
main process), building instances (sequences, reasoning chains, choices), the
rows without their images, the images (render + PNG encode, each distinct
state once, as the export does) and the Arrow table of each chunk. What the
export spends beyond their sum goes to writing, merging and hashing files and
to its worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import resource
import sys
import tempfile
import time
from pathlib import Path


def cpu_seconds() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fraction", type=float, default=0.1, help="fraction of the paper's maps per split (default 0.1)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="output directory (default: a temporary one, removed afterwards)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--breakdown", action="store_true", help="then time the export's phases in one process")
    args = ap.parse_args(argv)

    from svot.dataset import SPLITS, export, make_config
    from svot.dataset.records import PNG_COMPRESS_LEVEL, encode_png
    from svot.domains import get_spec
    from svot.render.image import render_state

    mps = {s: max(1, math.ceil(SPLITS[s].maps * args.fraction)) for s in SPLITS}
    tmp = None
    if args.out:
        out = Path(args.out)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="svot-bench-")
        out = Path(tmp.name)
    cfg = make_config(out, paper=True, seed=args.seed, maps_per_split=None if args.fraction >= 1 else mps)
    print(f"export: every domain x Table 5 size x split, maps per split {mps if args.fraction < 1 else 'as in the paper'}, "
          f"{args.workers} worker(s)", flush=True)
    t0, c0 = time.perf_counter(), cpu_seconds()
    res = export(cfg, workers=args.workers, overwrite=True, quiet=True)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    inst = sum(r.stats["instances"] for r in res.rows)
    images = sum(r.stats["images_encoded"] for r in res.rows)
    preds = sum(r.predictions for r in res.rows)
    size_mb = sum(f["bytes"] for f in res.manifest["files"].values()) / 1e6

    # The ceiling: encode images alone, on states of the exported data (one per dataset/size, all its steps).
    import pyarrow.parquet as pq

    states = []
    for name in res.manifest["datasets"]:
        rows = pq.read_table(out / name / "train.parquet", columns=["domain", "initial_state", "steps"]).to_pylist()
        for row in rows[:20]:
            states.append((row["domain"], json.loads(row["initial_state"])))
            states += [(row["domain"], json.loads(s["state"])) for s in row["steps"]]
    arrays = [render_state(get_spec(d), s, cfg.image_size) for d, s in states]
    reps = max(1, 3000 // len(arrays))
    t1, p1 = time.perf_counter(), time.process_time()
    for _ in range(reps):
        for a in arrays:
            encode_png(a)
    png_rate = reps * len(arrays) / (time.perf_counter() - t1)
    png_cpu_rate = reps * len(arrays) / (time.process_time() - p1)
    if tmp is not None:
        tmp.cleanup()

    per_inst = images / inst
    ceiling_images = png_rate * args.workers
    ceiling_inst = ceiling_images / per_inst
    print()
    print(f"exported {inst} instances ({preds} predictions, {images} distinct images encoded, {size_mb:.1f} MB) "
          f"in {wall:.1f} s wall, {cpu:.1f} s CPU")
    print()
    print(f"{'':32}{'export':>12}{'PNG ceiling':>14}{'ratio':>8}")
    print(f"{'images/s':32}{images / wall:12.1f}{ceiling_images:14.1f}{images / wall / ceiling_images:8.2f}")
    print(f"{'instances/s':32}{inst / wall:12.1f}{ceiling_inst:14.1f}{inst / wall / ceiling_inst:8.2f}")
    print(f"{'instances per CPU second':32}{inst / cpu:12.1f}{png_cpu_rate / per_inst:14.1f}{inst / cpu / (png_cpu_rate / per_inst):8.2f}")
    print()
    print(f"PNG ceiling: {png_rate:.0f} images/s in one process, wall clock ({png_cpu_rate:.0f} per CPU second; "
          f"{len(arrays)} exported states x {reps}, {cfg.image_size}x{cfg.image_size}, PIL level "
          f"{PNG_COMPRESS_LEVEL}), x {args.workers} workers; {per_inst:.2f} images per instance")
    print(
        f"targets, this run: export/PNG ceiling {images / wall / ceiling_images:.2f} wall clock, "
        f"{inst / cpu / (png_cpu_rate / per_inst):.2f} per CPU second [>= 0.75]"
    )
    est = 12000 / (inst / wall)
    print(f"at this rate the whole --paper export (12,000 instances) takes about {est / 60:.1f} min")
    if args.breakdown:
        # in a fresh interpreter: this one's caches (groundings, tables, atlases) are warm from the run above
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            spent, images = pool.apply(phase_seconds, (cfg, mps if args.fraction < 1 else None))
        total = sum(spent.values())
        print()
        print(f"where the CPU time goes (the same chunks again, in one fresh process: {images} images; "
              f"the export above took {cpu:.1f} s CPU):")
        for name, sec in spent.items():
            print(f"  {name:30}{sec:8.1f} s{100 * sec / total:6.0f} %")
        print(f"  {'sum':30}{total:8.1f} s; the export's CPU beyond it (files, worker processes): {cpu - total:.1f} s")
    return 0


def phase_seconds(cfg, mps) -> tuple[dict, int]:
    """CPU seconds per phase of the export ``cfg``, built in this process (see the module docstring)."""
    import pyarrow as pa

    from svot.dataset.chat import view_records, view_schema
    from svot.dataset.instance import map_instances, plan_maps, split_lengths, split_letters
    from svot.dataset.records import PngCache

    class TimedPngs(PngCache):
        seconds = 0.0

        def get(self, domain, state, key=None):
            t = time.process_time()
            out = super().get(domain, state, key)
            TimedPngs.seconds += time.process_time() - t
            return out

    spent = dict.fromkeys(("maps (generation)", "instances", "rows without images", "images (render + PNG)",
                           "Arrow tables"), 0.0)
    images = 0
    for d, n in cfg.targets:
        t = time.process_time()
        plans = plan_maps(d, n, cfg.seed, mps, allow_any_size=cfg.allow_any_size)
        spent["maps (generation)"] += time.process_time() - t
        for split in cfg.splits:
            maps = plans[split]
            schedule = list(zip(split_letters(cfg.seed, d, n, split, len(maps)), split_lengths(cfg.seed, maps)))
            for lo in range(0, len(maps), cfg.chunk_maps):  # one PNG cache per chunk, as the export's workers
                pngs, rows = TimedPngs(cfg.image_size), []
                for plan, (letters, lengths) in zip(maps[lo:lo + cfg.chunk_maps], schedule[lo:lo + cfg.chunk_maps]):
                    t = time.process_time()
                    insts = map_instances(plan, cfg.seed, letters, lengths)
                    spent["instances"] += time.process_time() - t
                    t, p0 = time.process_time(), TimedPngs.seconds
                    for inst in insts:
                        rows += view_records(inst, pngs, cfg.view)
                    spent["rows without images"] += time.process_time() - t - (TimedPngs.seconds - p0)
                t = time.process_time()
                pa.Table.from_pylist(rows, schema=view_schema(cfg.view))
                spent["Arrow tables"] += time.process_time() - t
                images += pngs.encoded
    spent["images (render + PNG)"] = TimedPngs.seconds
    return spent, images


if __name__ == "__main__":
    sys.exit(main())
