"""Benchmark: export throughput against the PNG-encoding ceiling, measured in one run.

Times a fraction of ``svot export --paper``: every domain × Table 5 size × split
(15 dataset/size pairs × 4 splits), with ``--fraction`` of the paper's maps per
split (default 0.1: train 10 maps, val 3, test_id 6, test_ood 6, i.e. 80 of the
paper's 800 instances per pair, 1,200 in all; ``--fraction 1`` is the whole
paper export). Then, in the same process, encodes the images alone, on states
taken from the exported data, with two encoders:

* **the PNG ceiling**: PIL's PNG encoder at level 6, which chooses a filter per
  row adaptively. It was the export's encoder when issue 19 measured the export
  at 0.49 of it, and it stays the fixed reference: how fast a plain PNG
  encoder turns these frames into files.
* **the encoder alone**: :func:`svot.render.png.encode_png`, the export's own
  encoder (filter None, zlib level 3, chosen for flat-colour tiles: about four
  times PIL's speed at no larger files, both measured here). The export's
  ratio to it is the share of its time spent encoding; the rest is drawing
  maps, building instances, rendering and writing.

    python benchmarks/bench_export.py                 # 10 % of --paper, 2 workers
    python benchmarks/bench_export.py --fraction 1    # all of --paper
    python benchmarks/bench_export.py --breakdown     # then where an export's CPU time goes, by phase

Prints instances/s and images/s of the export beside both (images/s of one
process × workers, and the instances/s that implies at the export's images per
instance), and the ratios, then the target's ratio on one line. Wall-clock numbers depend on what else runs on
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
    from svot.render.png import PNG_COMPRESS_LEVEL, encode_png
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

    # The ceilings: encode images alone, on states of the exported data (one per dataset/size, all its steps).
    import pyarrow.parquet as pq

    states = []
    for name in res.manifest["datasets"]:
        rows = pq.read_table(out / name / "train.parquet", columns=["domain", "initial_state", "steps"]).to_pylist()
        for row in rows[:20]:
            states.append((row["domain"], json.loads(row["initial_state"])))
            states += [(row["domain"], json.loads(s["state"])) for s in row["steps"]]
    arrays = [render_state(get_spec(d), s, cfg.image_size) for d, s in states]
    if tmp is not None:
        tmp.cleanup()
    reference = encode_rates(arrays, pil_png)
    own = encode_rates(arrays, encode_png)

    per_inst = images / inst
    print()
    print(f"exported {inst} instances ({preds} predictions, {images} distinct images encoded, {size_mb:.1f} MB) "
          f"in {wall:.1f} s wall, {cpu:.1f} s CPU")
    print()
    print(f"{'':26}{'export':>10}{'PNG ceiling':>13}{'ratio':>7}{'encoder alone':>15}{'ratio':>7}")
    for label, value, scale, key in (
        ("images/s", images / wall, args.workers, "wall"),
        ("instances/s", inst / wall, args.workers / per_inst, "wall"),
        ("instances per CPU second", inst / cpu, 1 / per_inst, "cpu"),
    ):
        ref, mine = reference[key] * scale, own[key] * scale
        print(f"{label:26}{value:10.1f}{ref:13.1f}{value / ref:7.2f}{mine:15.1f}{value / mine:7.2f}")
    print()
    print(f"PNG ceiling: PIL's PNG encoder at level 6 (adaptive row filters; the export's encoder when issue 19 "
          f"measured 0.49), {reference['wall']:.0f} images/s in one process ({reference['cpu']:.0f} per CPU second), "
          f"{reference['bytes']:.0f} bytes per image")
    print(f"encoder alone: svot.render.png.encode_png (filter None, zlib level {PNG_COMPRESS_LEVEL}), "
          f"{own['wall']:.0f} images/s in one process ({own['cpu']:.0f} per CPU second), {own['bytes']:.0f} bytes per image")
    print(f"both on {len(arrays)} exported states, {cfg.image_size}x{cfg.image_size}, x {args.workers} workers; "
          f"{per_inst:.2f} images per instance")
    print(
        f"targets, this run: export/PNG ceiling {images / wall / (reference['wall'] * args.workers):.2f} wall clock, "
        f"{inst / cpu / (reference['cpu'] / per_inst):.2f} per CPU second [>= 0.75]; "
        f"share of the export's CPU spent encoding: {inst / cpu / (own['cpu'] / per_inst):.2f}"
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


def pil_png(image) -> bytes:
    """The reference: PIL's PNG encoder at level 6 (the filter per row chosen adaptively)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(image).save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


def encode_rates(arrays, encode) -> dict:
    """Images per wall-clock second and per CPU second of ``encode`` over ``arrays`` (about 3,000 encodes),
    and the mean PNG size."""
    reps = max(1, 3000 // len(arrays))
    t, p = time.perf_counter(), time.process_time()
    for _ in range(reps):
        sizes = [len(encode(a)) for a in arrays]
    wall, cpu = time.perf_counter() - t, time.process_time() - p
    return {"wall": reps * len(arrays) / wall, "cpu": reps * len(arrays) / cpu, "bytes": sum(sizes) / len(sizes)}


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
