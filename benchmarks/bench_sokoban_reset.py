"""Where a Sokoban reset's time goes: the sampler's parts, per kept problem.

A Sokoban env's reset draws one solvable problem with ``svot.problem_gen.sample`` on a fresh child
Generator (:func:`svot.problem_gen.draw_rng`), as ``svot.domains.sokoban.generator.sample`` draws it.
This script prints the table ``docs/speed.md`` ("Sokoban OOD: where a reset goes") gives, for each
size and split asked:

* ``draws``: layouts drawn per kept problem (numpy's shuffle of the grid's cells), up to the kept one;
* ``after 1-3``: of those, the draws the screen lets through (Claims 1-3 in numpy on large batches,
  Claims 1-2 draw by draw on small ones), each then searched;
* ``draws ms`` and ``screen ms``: the shuffles (a batch at a time, rows past the kept one included)
  and the screens, per kept problem;
* ``unsolv.`` / ``states``: verdict searches that found no goal state, and the states each saw;
  ``solv. states``: states seen by the search that found one (one per kept problem);
* ``search ms``: the verdict searches, their setup included;
* ``loop ms``: the rest of the reset's sampling (the child Generator, the draw's bits, the Draw);
* ``timed ms``: all of it, with the parts' timers (the times before it add up to it);
* ``reset ms`` and ``resets/s``: as many samples again without the timers.

Each part is timed by wrapping the generator's own functions for the run (module attributes, read at
call time, put back after it). The children come from ``numpy.random.default_rng([seed, size, ood])``
after ``--warm`` untimed samples; times are wall clock, so run it on an idle machine.

Usage: ``python benchmarks/bench_sokoban_reset.py [--sizes 5,6] [--splits ood] [--resets N] [--seed S]``
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from svot.domains.sokoban import SOKOBAN, generator
from svot.engine import region_kernel
from svot.problem_gen import draw_rng, sample

PARTS = (("_draw_rows", "draws"), ("_screened", "screen"), ("_search_bits", "search"))


class _Parts:
    """Timers and counters around the sampler's parts (installed by :meth:`wrap`, removed by :meth:`unwrap`)."""

    def __init__(self):
        self.seconds = dict.fromkeys(("draws", "screen", "search"), 0.0)
        self.calls = dict.fromkeys(("examined", "unsolvable", "solvable", "attempts"), 0)
        self.states = {"unsolvable": 0, "solvable": 0}
        self._saved: list[tuple[str, object]] = []

    def wrap(self) -> None:
        clock = time.perf_counter
        seconds, calls, states = self.seconds, self.calls, self.states

        def timed(name, f):
            def run(*args, **kwargs):
                start = clock()
                try:
                    out = f(*args, **kwargs)
                    return list(out) if name == "screen" else out  # a lazy screen runs inside its timer
                finally:
                    seconds[name] += clock() - start

            return run

        def counted(f):
            def search(*args, **kwargs):
                result = f(*args, **kwargs)
                kind = "solvable" if result.solved else "unsolvable"
                calls[kind] += 1
                states[kind] += result.states
                calls["examined"] += 1
                return result

            return search

        def kept(f):
            def run(*args, **kwargs):
                out = f(*args, **kwargs)
                calls["attempts"] += out[2]
                return out

            return run

        for name, part in PARTS:
            f = getattr(generator, name)
            self._install(name, timed(part, counted(f) if part == "search" else f))
        self._install("kept_draw", kept(generator.kept_draw))

    def _install(self, name: str, f) -> None:
        self._saved.append((name, getattr(generator, name)))
        setattr(generator, name, f)

    def unwrap(self) -> None:
        for name, f in reversed(self._saved):
            setattr(generator, name, f)
        self._saved.clear()


def measure(size: int, split: str, resets: int, warm: int, seed: int) -> dict:
    """One row of the table: the parts of ``resets`` samples, per kept problem, then the sample's time
    without the timers (as many samples again, continuing the same parent Generator)."""
    parent = np.random.default_rng([seed, size, split == "ood"])
    for _ in range(warm):
        sample(SOKOBAN, size, split, draw_rng(parent))
    parts = _Parts()
    parts.wrap()
    try:
        start = time.perf_counter()
        for _ in range(resets):
            sample(SOKOBAN, size, split, draw_rng(parent))
        total = time.perf_counter() - start
    finally:
        parts.unwrap()
    start = time.perf_counter()
    for _ in range(resets):
        sample(SOKOBAN, size, split, draw_rng(parent))
    plain = time.perf_counter() - start
    sec, calls = parts.seconds, parts.calls
    ms = {k: 1000 * v / resets for k, v in sec.items()}
    return {
        "draws": calls["attempts"] / resets,
        "after 1-3": calls["examined"] / resets,
        "draws ms": ms["draws"],
        "screen ms": ms["screen"],
        "unsolv.": calls["unsolvable"] / resets,
        "states": parts.states["unsolvable"] / max(calls["unsolvable"], 1),
        "solv. states": parts.states["solvable"] / max(calls["solvable"], 1),
        "search ms": ms["search"],
        "loop ms": 1000 * total / resets - sum(ms.values()),
        "timed ms": 1000 * total / resets,
        "reset ms": 1000 * plain / resets,
        "resets/s": resets / plain,
    }


COLUMNS = (
    ("draws", "{:>8.1f}"), ("after 1-3", "{:>10.2f}"), ("draws ms", "{:>9.3f}"), ("screen ms", "{:>10.3f}"),
    ("unsolv.", "{:>8.2f}"), ("states", "{:>7.0f}"), ("solv. states", "{:>13.0f}"),
    ("search ms", "{:>10.3f}"), ("loop ms", "{:>8.3f}"), ("timed ms", "{:>9.3f}"), ("reset ms", "{:>9.3f}"),
    ("resets/s", "{:>9,.0f}"),
)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="5,6", help="comma-separated grid sizes (default 5,6)")
    ap.add_argument("--splits", default="ood", help="comma-separated splits: id, ood (default ood)")
    ap.add_argument("--resets", type=int, default=4000, help="timed resets per row (default 4,000)")
    ap.add_argument("--warm", type=int, default=100, help="untimed resets first (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    head = f"{'size':>6}{'split':>6}" + "".join(f"{name:>{len(fmt.format(0.0))}}" for name, fmt in COLUMNS)
    print(f"Sokoban reset (sample), per kept problem, {args.resets} resets a row (wall clock), seed {args.seed}")
    print(f"verdict search: {region_kernel.status()}")
    print(head)
    print("-" * len(head))
    lowest = None
    for size in (int(s) for s in args.sizes.split(",")):
        for split in args.splits.split(","):
            row = measure(size, split, args.resets, args.warm, args.seed)
            print(f"{f'{size}x{size}':>6}{split:>6}" + "".join(fmt.format(row[name]) for name, fmt in COLUMNS))
            if lowest is None or row["resets/s"] < lowest[0]:
                lowest = (row["resets/s"], f"{size}x{size} {split}")
    print("-" * len(head))
    print(f"targets, this run: resets/s lowest {lowest[0]:,.0f} ({lowest[1]}) [>= 2,000, issue 19's target 5]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
