"""Rule-maze matching (RuleMaze paper, section 3.2).

For a rule and a maze, ``S_total`` is the set of simple solution paths
(:func:`~svot.rulemaze.paths.solution_paths`: start to goal, or to either
target in a QuestMaze) and ``S_valid`` the subset the rule's validator
accepts. The pair is kept when

* restrictiveness: ``|S_valid| < |S_total|``, and
* existence: ``|S_valid| >= 1``,

and, by default, only when the compliant path is unique (``|S_valid| == 1``,
the paper's "unique rule-compliant solution"). The ground truth is that path
as an action list. When uniqueness is not required and several paths
comply, the ground truth is the shortest one (ties broken by the cell
sequence), matching EM's "shortest valid path".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Maze
from svot.rulemaze.paths import solution_paths, solution_trajectories
from svot.rulemaze.rules.analysis import scenario_of
from svot.rulemaze.rules.compiler import VIOLATED, Validator, compile_rule
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.trajectory import Trajectory, direction_between, path_to_actions

Cell = tuple[int, int]
Path = tuple[Cell, ...]


@dataclass(frozen=True)
class MatchResult:
    """The verdict of one rule on every solution path of one maze.

    Attributes:
        maze: the maze.
        rule: the :class:`Rule` when one was given, else None.
        logic: canonical rule text.
        paths: ``S_total``, sorted.
        verdicts: ``verdicts[i]`` tells whether ``paths[i]`` complies.
    """

    maze: Maze
    rule: Rule | None
    logic: str
    paths: tuple[Path, ...]
    verdicts: tuple[bool, ...]

    @property
    def valid_paths(self) -> tuple[Path, ...]:
        """``S_valid``."""
        return tuple(p for p, ok in zip(self.paths, self.verdicts) if ok)

    @property
    def restrictive(self) -> bool:
        return len(self.valid_paths) < len(self.paths)

    @property
    def exists(self) -> bool:
        return len(self.valid_paths) >= 1

    @property
    def unique(self) -> bool:
        return len(self.valid_paths) == 1

    def accepted(self, unique: bool = True) -> bool:
        """Whether the pair passes matching (with or without the uniqueness demand)."""
        return self.restrictive and self.exists and (self.unique or not unique)

    @property
    def ground_truth_path(self) -> Path | None:
        """The unique (else shortest) compliant path, or None when there is none."""
        valid = self.valid_paths
        if not valid:
            return None
        return min(valid, key=lambda p: (len(p), p))

    @property
    def ground_truth(self) -> tuple[str, ...] | None:
        """:attr:`ground_truth_path` as actions (up/down/left/right)."""
        p = self.ground_truth_path
        return None if p is None else tuple(path_to_actions(p))

    def to_dict(self) -> dict:
        """JSON-safe summary: paths with their actions and verdicts, and the ground truth."""
        return {
            "rule_id": None if self.rule is None else self.rule.id,
            "logic": self.logic,
            "maze": self.maze.to_dict(),
            "candidates": [{"path": [list(c) for c in p], "actions": path_to_actions(p),
                            "valid": ok} for p, ok in zip(self.paths, self.verdicts)],
            "ground_truth": None if self.ground_truth is None else list(self.ground_truth),
        }


def _validator(rule, maze: Maze) -> tuple[Validator, Rule | None]:
    if isinstance(rule, Rule):
        if rule.scenario != maze.scenario:
            raise ValueError(f"rule {rule.id} is a {rule.scenario} rule, the maze a {maze.scenario}")
        return compile_rule(rule.formula), rule
    v = compile_rule(rule, maze.scenario if isinstance(rule, str) else None)
    sc = scenario_of(v.formula)
    if sc is not None and sc != maze.scenario:
        raise ValueError(f"rule {v.text} uses {sc} predicates, the maze is a {maze.scenario}")
    return v, None


def evaluate_paths(rule, maze: Maze) -> MatchResult:
    """Run the rule's validator on every solution path of ``maze`` (no filtering)."""
    v, record = _validator(rule, maze)
    paths = solution_paths(maze)
    verdicts = tuple(v.check(t) for t in solution_trajectories(maze))
    return MatchResult(maze, record, v.text, paths, verdicts)


def match(rule, maze: Maze, *, unique: bool = True) -> MatchResult | None:
    """The :class:`MatchResult` when the pair passes matching, else None.

    ``rule`` may be a :class:`Rule`, rule text or a formula.
    """
    result = evaluate_paths(rule, maze)
    return result if result.accepted(unique) else None


def compliant_paths(rule, maze: Maze) -> tuple[Path, ...]:
    """``S_valid`` by filtering all solution paths."""
    return evaluate_paths(rule, maze).valid_paths


def compliant_paths_pruned(rule, maze: Maze) -> tuple[Path, ...]:
    """``S_valid`` by depth-first search that abandons a prefix as soon as the
    partial validator reports it violated; equals :func:`compliant_paths`."""
    v, _ = _validator(rule, maze)
    goals = set(maze.goals)
    out: list[Path] = []

    def dfs(path: list[Cell], traj: Trajectory, visited: set[Cell]) -> None:
        cell = path[-1]
        if cell in goals:
            if v.check(traj):
                out.append(tuple(path))
            return
        for nb in maze.neighbors(cell):
            if nb in visited:
                continue
            nxt = traj.extend(direction_between(cell, nb), S.inspect_symbol(maze.symbol(nb)))
            if v.status(nxt) == VIOLATED:
                continue
            visited.add(nb)
            path.append(nb)
            dfs(path, nxt, visited)
            path.pop()
            visited.discard(nb)

    root = Trajectory((S.inspect_symbol(maze.symbol(maze.start)),), ())
    if v.status(root) != VIOLATED:
        dfs([maze.start], root, {maze.start})
    return tuple(sorted(out))


def match_pool(rules: Iterable, mazes: Iterable[Maze], *, unique: bool = True,
               per_rule: int | None = None) -> Iterator[MatchResult]:
    """Accepted pairs, rule by rule in the given order and mazes in pool order;
    at most ``per_rule`` pairs per rule. Mazes of another scenario are skipped."""
    mazes = list(mazes)
    for rule in rules:
        found = 0
        for maze in mazes:
            if isinstance(rule, Rule) and rule.scenario != maze.scenario:
                continue
            result = match(rule, maze, unique=unique)
            if result is not None:
                yield result
                found += 1
                if per_rule is not None and found >= per_rule:
                    break
