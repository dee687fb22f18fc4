"""Start-to-goal simple paths of a maze (Alg. 2, step 3: GetAllSolutionPaths).

In a RegularMaze a solution path is a simple path from the start to the red
goal. In a QuestMaze it is a simple path from the prince to either target that
does not pass through the other target on the way: reaching a target ends the
episode, so the first target entered is the one the path ends on.

Derived fast model of the move rules of ``regularmaze.pddl``, ``questmaze.pddl``
and ``questmaze5.pddl`` (passages, targets ending the quest), proven against the
grounded engine by ``tests/rulemaze/test_rulemaze_pddl_agreement.py``
(``test_passage_graph_is_the_engine_moves``, ``test_solution_paths_reach_goal_in_engine``,
``test_solution_paths_are_all_engine_simple_paths``).
"""

from __future__ import annotations

import networkx as nx
from svot.rulemaze.trajectory import Trajectory

Cell = tuple[int, int]
Path = tuple[Cell, ...]


def maze_graph(maze) -> nx.Graph:
    """The maze as an undirected graph: one node per cell, one edge per open passage.

    Derived fast model of the moves the PDDL domains allow (see the module
    docstring); ``test_passage_graph_is_the_engine_moves`` proves its edges are
    exactly the engine's applicable moves from each cell."""
    g = nx.Graph()
    g.add_nodes_from((r, c) for r in range(maze.size) for c in range(maze.size))
    g.add_edges_from(maze.passages)
    return g


def _enumerate(maze) -> tuple[Path, ...]:
    g = maze_graph(maze)
    goals = set(maze.goals)
    out = []
    for goal in maze.goals:
        others = goals - {goal}
        for p in nx.all_simple_paths(g, maze.start, goal):
            if not others.intersection(p):
                out.append(tuple(p))
    return tuple(sorted(out))


def solution_paths(maze) -> tuple[Path, ...]:
    """All simple solution paths of ``maze`` (networkx ``all_simple_paths``), sorted.

    Each path is a tuple of cells from the start to the goal it ends on. The
    result is memoised on the (immutable) maze object itself.
    """
    cached = maze.__dict__.get("_solution_paths")
    if cached is None:
        cached = _enumerate(maze)
        object.__setattr__(maze, "_solution_paths", cached)
    return cached


def remember_paths(maze, paths) -> None:
    """Memoise already known solution paths on ``maze`` (e.g. after repainting cells,
    which leaves the passages and so the paths unchanged)."""
    object.__setattr__(maze, "_solution_paths", tuple(paths))


def solution_trajectories(maze) -> tuple:
    """:class:`~svot.rulemaze.trajectory.Trajectory` of each solution path, memoised."""
    cached = maze.__dict__.get("_solution_trajectories")
    if cached is None:
        cached = tuple(Trajectory.from_path(maze, p) for p in solution_paths(maze))
        object.__setattr__(maze, "_solution_trajectories", cached)
    return cached


def path_cells(paths) -> tuple[Cell, ...]:
    """Cells on at least one of ``paths``, sorted."""
    return tuple(sorted({c for p in paths for c in p}))


def shared_cells(paths) -> tuple[Cell, ...]:
    """Cells on at least two of ``paths`` (FindCrossCells of Alg. 4), sorted."""
    counts: dict[Cell, int] = {}
    for p in paths:
        for c in set(p):
            counts[c] = counts.get(c, 0) + 1
    return tuple(sorted(c for c, k in counts.items() if k >= 2))
