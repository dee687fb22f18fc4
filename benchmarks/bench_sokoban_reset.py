"""Where a Sokoban reset's time goes: the sampler's parts, per kept problem (no thresholds).

A Sokoban env's reset draws one solvable problem with
``svot.domains.sokoban.generator.draw_bits`` (``generate(..., plan=False)``'s very draws and
verdicts). Sokoban OOD is where issue 19's 2,000 problems/s target is not met, and this script
prints the table ``docs/speed.md`` ("Sokoban OOD: where a reset goes") gives, for each size and
split asked:

* ``draws``: layouts drawn per kept problem (numpy's shuffle of the grid's cells);
* ``after 1-3``: of those, the draws the screen lets through (Claims 1-3 in numpy; Claims 1-2 where
  the sampler screens draw by draw), each then asked Claim 4 where the sampler asks it, and searched
  if Claim 4 does not refuse it;
* ``draws ms`` and ``screen ms``: the shuffles (a rewind's replayed rows included) and the numpy
  screen, per kept problem (where the sampler screens draw by draw instead, as on ID's few draws,
  that screening counts in ``loop ms``);
* ``claim 4 ms``: the one-block games;
* ``unsolv.`` / ``states``: verdict searches that found no goal state, and the states each saw;
  ``solv. states``: states seen by the search that found one (one per kept problem);
* ``search ms``: the verdict searches, their setup included;
* ``loop ms``: the rest of the reset (rewinds, the draw's bits, the kept draw's state);
* ``timed ms``: the reset, all told, with the parts' timers (the times before it add up to it);
* ``reset ms`` and ``resets/s``: as many resets again without the timers.

Each part is timed by wrapping the generator's own functions for the run (module attributes,
read at call time, put back after it): each wrapped call adds two ``perf_counter`` reads and a call,
well under a microsecond, which the ``timed ms`` - ``reset ms`` difference shows. The resets run on
``numpy.random.default_rng([seed, size, ood])`` after ``--warm`` untimed ones; times are wall clock
(``perf_counter``: ``process_time`` costs half a microsecond a read here), so run it on an idle machine.

Usage: ``python benchmarks/bench_sokoban_reset.py [--sizes 5,6] [--splits ood] [--resets N] [--seed S]``
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from svot.domains.sokoban import generator
from svot.engine import region_kernel
from svot.problem_gen import draws


class _Parts:
    """Timers and counters around the sampler's parts (installed by :meth:`wrap`, removed by :meth:`unwrap`)."""

    def __init__(self):
        self.seconds = dict.fromkeys(("draws", "screen", "claim4", "search"), 0.0)
        self.calls = dict.fromkeys(("examined", "unsolvable", "solvable", "attempts"), 0)
        self.states = {"unsolvable": 0, "solvable": 0}
        self._saved: list[tuple[object, str, object]] = []

    def wrap(self) -> None:
        clock = time.perf_counter
        seconds, calls, states = self.seconds, self.calls, self.states
        in_batch = [False]  # the carried path's batches run the screen inside their own timer

        def timed(name, f):
            def run(*args, **kwargs):
                start = clock()
                try:
                    return f(*args, **kwargs)
                finally:
                    seconds[name] += clock() - start

            return run

        def batch(*args, **kwargs):
            start, in_batch[0] = clock(), True
            try:
                return draw_batch(*args, **kwargs)
            finally:
                in_batch[0] = False
                seconds["draws"] += clock() - start

        def screen(*args, **kwargs):
            start = clock()
            try:
                return surviving_rows(*args, **kwargs)
            finally:
                took = clock() - start
                seconds["screen"] += took
                if in_batch[0]:
                    seconds["draws"] -= took

        search = generator._search_bits

        def counted_search(*args, **kwargs):
            result = search(*args, **kwargs)
            kind = "solvable" if result.solved else "unsolvable"
            calls[kind] += 1
            states[kind] += result.states
            return result

        initial_bits = generator.initial_bits

        def counted_initial_bits(*args, **kwargs):  # read once for each draw the screen lets through
            calls["examined"] += 1
            return initial_bits(*args, **kwargs)

        kept_draw = generator._kept_draw

        def counted_kept_draw(*args, **kwargs):
            out = kept_draw(*args, **kwargs)
            calls["attempts"] += out[2]
            return out

        draw_batch, surviving_rows = draws._draw_batch, generator.surviving_rows
        self._install(draws, "_draw_batch", batch)
        # the rows drawn without carrying (ID's block count is drawn anew per problem) and rewinds' replays
        self._install(draws, "permutation_rows", timed("draws", draws.permutation_rows))
        self._install(generator, "surviving_rows", screen)
        self._install(generator, "_refuses", timed("claim4", generator._refuses))
        self._install(generator, "initial_bits", counted_initial_bits)
        self._install(generator, "_search_bits", timed("search", counted_search))
        self._install(generator, "_kept_draw", counted_kept_draw)

    def _install(self, module, name: str, f) -> None:
        self._saved.append((module, name, getattr(module, name)))
        setattr(module, name, f)

    def unwrap(self) -> None:
        for module, name, f in reversed(self._saved):
            setattr(module, name, f)
        self._saved.clear()


def measure(size: int, split: str, resets: int, warm: int, seed: int) -> dict:
    """One row of the table: the parts of ``resets`` resets of ``draw_bits``, per kept problem, then the
    reset's time without the timers (as many resets again, continuing the same generator)."""
    rng = np.random.default_rng([seed, size, split == "ood"])
    for _ in range(warm):
        generator.draw_bits(size, split, rng)
    parts = _Parts()
    parts.wrap()
    try:
        start = time.perf_counter()
        for _ in range(resets):
            generator.draw_bits(size, split, rng)
        total = time.perf_counter() - start
    finally:
        parts.unwrap()
    start = time.perf_counter()
    for _ in range(resets):
        generator.draw_bits(size, split, rng)
    plain = time.perf_counter() - start
    sec, calls = parts.seconds, parts.calls
    ms = {k: 1000 * v / resets for k, v in sec.items()}
    return {
        "draws": calls["attempts"] / resets,
        "after 1-3": calls["examined"] / resets,
        "draws ms": ms["draws"],
        "screen ms": ms["screen"],
        "claim 4 ms": ms["claim4"],
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
    ("claim 4 ms", "{:>11.3f}"), ("unsolv.", "{:>8.2f}"), ("states", "{:>7.0f}"), ("solv. states", "{:>13.0f}"),
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
    print(f"Sokoban reset (draw_bits), per kept problem, {args.resets} resets a row (wall clock), seed {args.seed}")
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
