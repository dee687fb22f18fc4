"""Renderer throughput, all measured in one run (no thresholds).

For each domain at 5x5 on 256x256 images:

* ``atlas ms``      — building the tile atlas from scratch (drawing every tile), once;
* ``render_state``  — frames/s of ``render_state(spec, state)`` on a pool of random states;
* ``render_labels`` — frames/s of ``render_labels(spec, ids)`` on precomputed ``(5, 5)`` label ids;
* ``batch``         — frames/s of ``render_labels(spec, ids)`` with ``(B, 5, 5)`` ids (B = 256);
* ``read_labels``   — images/s classified back to labels (``read_labels``);
* ``describe+parse``— state texts written and strictly parsed back per second.

Usage: ``python benchmarks/bench_render.py [--quick] [--size 5] [--image-size 256]``
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from svot.domains import get_spec
from svot.render.atlas import _ATLASES, get_atlas
from svot.render.image import render_labels, render_state
from svot.render.labels import label_ids
from svot.render.perceive import read_labels
from svot.render.samples import random_state
from svot.render.sprites import draw_tile
from svot.render.text import describe, parse

DOMAINS = ("maze", "frozenlake", "sokoban", "pacman", "gather")


def rate(fn, items, budget: float) -> float:
    """Calls per second of ``fn(item)`` cycling over ``items`` for about ``budget`` seconds."""
    fn(items[0])  # warm
    done, start = 0, time.perf_counter()
    deadline = start + budget
    while True:
        for it in items:
            fn(it)
        done += len(items)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="short measurements (a few seconds in all)")
    ap.add_argument("--size", type=int, default=5)
    ap.add_argument("--image-size", type=int, default=256)
    ap.add_argument("--batch", type=int, default=256)
    args = ap.parse_args(argv)
    budget = 0.25 if args.quick else 1.5
    n, px, b = args.size, args.image_size, args.batch
    rng = np.random.default_rng(0)

    head = f"{'domain':<11}{'atlas ms':>9}{'render_state/s':>16}{'render_labels/s':>17}{f'batch{b}/s':>12}{'read_labels/s':>15}{'describe+parse/s':>18}"
    print(f"svot renderer, {n}x{n} grid, {px}x{px} px, {'quick' if args.quick else 'full'} run")
    print(head)
    print("-" * len(head))
    totals = []
    for name in DOMAINS:
        spec = get_spec(name)
        states = [random_state(spec, n, rng) for _ in range(64)]
        _ATLASES.clear()
        draw_tile.cache_clear()
        t = time.perf_counter()
        get_atlas(spec, n, px)
        atlas_ms = 1000 * (time.perf_counter() - t)
        ids = [label_ids(spec, s) for s in states]
        batch = np.stack([ids[i % len(ids)] for i in range(b)])
        imgs = [render_state(spec, s, px) for s in states[:16]]
        r_state = rate(lambda s: render_state(spec, s, px), states, budget)
        r_labels = rate(lambda i: render_labels(spec, i, px), ids, budget)
        r_batch = rate(lambda x: render_labels(spec, x, px), [batch], budget) * b
        r_read = rate(lambda im: read_labels(spec, im, n), imgs, budget / 2)
        r_text = rate(lambda s: parse(spec, describe(spec, s)), states, budget / 2)
        totals.append((r_state, r_labels, r_batch))
        print(f"{name:<11}{atlas_ms:>9.1f}{r_state:>16,.0f}{r_labels:>17,.0f}{r_batch:>12,.0f}{r_read:>15,.0f}{r_text:>18,.0f}")
    worst = np.min(np.array(totals), axis=0)
    print("-" * len(head))
    print(f"slowest domain: render_state {worst[0]:,.0f}/s, render_labels {worst[1]:,.0f}/s, batch {worst[2]:,.0f}/s "
          f"(issue 5 target: 10,000 frames/s at 5x5, 256 px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
