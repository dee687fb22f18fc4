"""Solve time per size: optimal vs greedy plans for Pacman and Gather (printed, never asserted).

For each domain, Table 5 size and split, ``--problems`` problems (seeds 0..n-1) are drawn; the
greedy plan and the optimal plan (``svot.problem_gen.optimal``: Held-Karp for Pacman, A* for
Gather, on a move table read off the engine) are timed. Columns:

* ``table ms``  — grounding the size and building its move table (once per process and size);
* ``greedy ms`` / ``optimal ms`` — mean solve time per problem;
* ``greedy`` / ``optimal`` — mean plan length in agent actions;
* ``longer``    — problems whose greedy plan is longer than the optimal one.

Usage: ``python benchmarks/bench_solve.py [--problems N] [--domains pacman,gather]``
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from svot.pddl import load_domain
from svot.domains import PARAMS, generate, solve, get_spec
from svot.problem_gen.optimal import move_table


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--problems", type=int, default=10, help="problems per (domain, size, split) (default 10)")
    ap.add_argument("--domains", default="pacman,gather")
    args = ap.parse_args(argv)
    head = (f"{'domain':<8}{'size':>5}{'split':>6}{'table ms':>10}{'greedy ms':>11}{'optimal ms':>12}"
            f"{'greedy':>8}{'optimal':>9}{'longer':>8}")
    print(f"svot plan solving, {args.problems} problems per row (seeds 0..{args.problems - 1})")
    print(head)
    print("-" * len(head))
    for domain in args.domains.split(","):
        load_domain(domain)  # parse the PDDL outside the timings
        for size in PARAMS[domain]["sizes"]:
            t = time.perf_counter()
            move_table(get_spec(domain), size)
            table_ms = (time.perf_counter() - t) * 1e3
            for split in ("id", "ood"):
                problems = [generate(domain, size, split, np.random.default_rng(s)).problem for s in range(args.problems)]
                times = {"greedy": 0.0, "optimal": 0.0}
                lengths = {"greedy": 0, "optimal": 0}
                longer = 0
                for p in problems:
                    plans = {}
                    for kind in times:
                        t = time.perf_counter()
                        plans[kind] = solve(domain, p, greedy=kind == "greedy")
                        times[kind] += time.perf_counter() - t
                        lengths[kind] += len(plans[kind])
                    longer += len(plans["greedy"]) > len(plans["optimal"])
                n = len(problems)
                print(f"{domain:<8}{size:>5}{split:>6}{table_ms:>10.0f}{times['greedy'] / n * 1e3:>11.2f}"
                      f"{times['optimal'] / n * 1e3:>12.1f}{lengths['greedy'] / n:>8.1f}{lengths['optimal'] / n:>9.1f}"
                      f"{longer:>5}/{n:<2}")
                table_ms = 0.0
    return 0


if __name__ == "__main__":
    sys.exit(main())
