"""Statistics of a maze pool: colouring (RegularMaze), items and targets (QuestMaze),
solution paths, and how often rules match (printed by ``svot rulemaze pool`` / ``export``).

These are the figures the RuleMaze authors' generator was measured by, so a pool made
with either colouring (``coloring="paper" | "authors"``) can be compared with theirs.
"""

from __future__ import annotations

from typing import Sequence

from svot.rulemaze.scenario import get_scenario
from svot.rulemaze.matching import evaluate_paths
from svot.rulemaze.maze import Maze
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.rules.bank import builtin_rules


def pool_stats(mazes: Sequence[Maze]) -> dict:
    """Shares and means over ``mazes`` (one scenario): see the keys."""
    n = len(mazes)
    if n == 0:
        return {"mazes": 0}
    n_paths = [len(solution_paths(m)) for m in mazes]
    lengths = [len(p) - 1 for m in mazes for p in solution_paths(m)]
    out = {"mazes": n, "mean_paths": sum(n_paths) / n,
           "paths_3_share": sum(k == 3 for k in n_paths) / n,
           "path_moves_min": min(lengths), "path_moves_max": max(lengths)}
    # then the scenario's own figures (painted zones, items, targets)
    out.update(get_scenario(mazes[0].scenario).pool_stats(
        [[s for row in m.cells for s in row] for m in mazes], [len(m.goals) for m in mazes]))
    return out


def match_rate(rule, mazes: Sequence[Maze], *, unique: bool = True) -> float:
    """Share of ``mazes`` the rule matches (restrictive, some compliant path; unique when asked)."""
    if not mazes:
        return 0.0
    return sum(evaluate_paths(rule, m).accepted(unique=unique) for m in mazes) / len(mazes)


def bank_match_rate(rules, mazes: Sequence[Maze], *, unique: bool = True) -> float:
    """Mean over ``rules`` of :func:`match_rate`."""
    rules = list(rules)
    return sum(match_rate(r, mazes, unique=unique) for r in rules) / len(rules) if rules else 0.0


def format_stats(stats: dict, rate: float | None = None) -> str:
    """One line: the pool figures, and the bank's mean match rate when given."""
    parts = []
    for key, value in stats.items():
        if key == "mazes":
            continue
        parts.append(f"{key}={value:.3f}" if isinstance(value, float) else f"{key}={value}")
    if rate is not None:
        parts.append(f"bank_match_rate={rate:.3f}")
    return ", ".join(parts)


#: Mazes the printed bank match rate is measured on (matching all 30 rules is the slow part).
STATS_SAMPLE = 1000


def pool_report(scenario: str, mazes: Sequence[Maze], coloring: str = "paper") -> str:
    """The line ``svot rulemaze pool`` / ``export`` print for a pool: its figures and the bank
    rules' mean match rate on its first :data:`STATS_SAMPLE` mazes."""
    sample = list(mazes[:STATS_SAMPLE])
    rate = bank_match_rate(builtin_rules(scenario), sample)
    col = f"coloring={coloring}, " if get_scenario(scenario).pool_painting == "zones" else ""  # zones only
    return (f"{scenario}: {col}{format_stats(pool_stats(mazes))}; bank rules match {rate:.1%} of "
            f"the first {len(sample)} mazes (mean over rules, unique compliant path)")


def open_grid_stats(mazes: Sequence[Maze]) -> dict:
    """The figures the RuleMaze authors' QuestMaze generator was measured by (issue 45), over
    open-grid mazes of one scenario: how many distinct (layout, start) pairs, the share of
    mazes with three solution paths, with no item, the most items of one kind in a maze, the
    share of items on no solution path, items per maze, and the target counts."""
    if not mazes:
        return {"mazes": 0}
    kind = get_scenario(mazes[0].scenario)
    n = len(mazes)
    layouts, three, empty, most, off, total, one = set(), 0, 0, 0, 0, 0, 0
    for m in mazes:
        blocked = frozenset((r, c) for r in range(m.size) for c in range(m.size)
                            if m.cells[r][c] == kind.obstacle_symbol)
        layouts.add((blocked, m.start))
        paths = solution_paths(m)
        three += len(paths) == 3
        on_paths = {c for p in paths for c in p}
        counts = {sym: m.cells_with(sym) for sym in kind.paint_symbols}
        items = [c for cells in counts.values() for c in cells]
        empty += not items
        most = max(most, *(len(cells) for cells in counts.values()))
        off += sum(c not in on_paths for c in items)
        total += len(items)
        one += len(m.goals) == 1
    return {"mazes": n, "distinct_layout_start": len(layouts), "paths_3_share": three / n,
            "no_items_share": empty / n, "most_of_a_kind": most,
            "items_off_paths_share": off / total if total else 0.0, "items_mean": total / n,
            "one_target_share": one / n, "two_targets_share": 1 - one / n}
