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

Prints instances/s and images/s of the export beside the ceiling (images/s of
one process × workers, and the instances/s that implies at the export's images
per instance), and the ratios, then the target's ratio on one line. Wall-clock numbers depend on what else runs on
the machine (other processes share its cores); the per-CPU-second line compares
CPU time with CPU time and is the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import math
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
