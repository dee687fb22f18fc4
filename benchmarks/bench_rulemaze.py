"""RuleMaze core throughput and rule-bank statistics, measured in one run (no thresholds).

* ``pool``      -- mazes/s of ``generate_pool`` (Alg. 1-4, 3x3) per scenario, 1 and N workers;
* ``matching``  -- rule-maze pairs checked per second (validator on every solution path,
                   the restrictiveness / existence / uniqueness tests), and accepted pairs;
* ``pruned``    -- pairs/s of the pruned search (``compliant_paths_pruned``) for comparison;
* ``bank``      -- rules per difficulty and per semantic type, beside the paper's Table 5.

Usage: ``python benchmarks/bench_rulemaze.py [--count 5000] [--workers 2] [--seed 0]``
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter

from svot.rulemaze import symbols as S
from svot.rulemaze.matching import compliant_paths_pruned, evaluate_paths
from svot.rulemaze.pool import generate_pool
from svot.rulemaze.rules import SEMANTIC_TYPES, builtin_rules

PAPER_TABLE5 = {"direction-dependent": 64.9, "history-dependent": 31.3, "requirement": 61.3,
                "prohibition": 51.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=5000, help="mazes per scenario")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    print(f"pool generation, 3x3, {args.count} mazes per run")
    pools = {}
    for scenario in S.SCENARIOS:
        for workers in sorted({1, args.workers}):
            t0 = time.perf_counter()
            pool = generate_pool(scenario, 3, args.count, seed=args.seed, workers=workers)
            dt = time.perf_counter() - t0
            print(f"  {scenario:12s} workers={workers}: {len(pool) / dt:9.0f} mazes/s  ({dt:.2f} s)")
            pools[scenario] = pool

    print("\nmatching (30 bank rules x pool, unique compliant path required)")
    for scenario in S.SCENARIOS:
        rules, pool = builtin_rules(scenario), pools[scenario]
        t0 = time.perf_counter()
        accepted = checked = 0
        for rule in rules:
            for maze in pool:
                checked += 1
                accepted += evaluate_paths(rule, maze).accepted()
        dt = time.perf_counter() - t0
        print(f"  {scenario:12s} filter: {checked / dt:9.0f} pairs/s  "
              f"({checked} pairs, {accepted} accepted = {100 * accepted / checked:.1f}%)")
        sub = pool[: max(1, len(pool) // 5)]
        t0 = time.perf_counter()
        for rule in rules:
            for maze in sub:
                compliant_paths_pruned(rule, maze)
        dt = time.perf_counter() - t0
        print(f"  {scenario:12s} pruned: {len(rules) * len(sub) / dt:9.0f} pairs/s")

    print("\nrule bank: difficulty x split")
    for scenario in S.SCENARIOS:
        rules = builtin_rules(scenario)
        cells = Counter((r.difficulty, r.split) for r in rules)
        row = "  ".join(f"{d}: {cells[(d, 'seen')]}+{cells[(d, 'unseen')]}"
                        for d in ("easy", "medium", "hard"))
        print(f"  {scenario:12s} {row}  (seen+unseen)")

    print("\nrule bank: semantic types (% of rules; not exclusive)")
    header = "".join(f"{t:>22s}" for t in SEMANTIC_TYPES)
    print(f"  {'':14s}{header}")
    everything = builtin_rules()
    for label, rules in ((S.REGULAR, builtin_rules(S.REGULAR)), (S.QUEST, builtin_rules(S.QUEST)),
                         ("both", everything)):
        counts = Counter(t for r in rules for t in r.semantic_type)
        print(f"  {label:14s}" + "".join(f"{100 * counts[t] / len(rules):21.1f}%" for t in SEMANTIC_TYPES))
    print(f"  {'paper Table 5':14s}" + "".join(f"{PAPER_TABLE5[t]:21.1f}%" for t in SEMANTIC_TYPES))


if __name__ == "__main__":
    main()
