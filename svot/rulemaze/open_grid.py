"""The open-grid layout the RuleMaze paper draws for QuestMaze (Fig. 3; §5 "cell-based layouts
without complex wall structures"): a ``(2n-1) x (2n-1)`` cell grid, 5 x 5 for the paper's 3 x 3 maze.
It is built for any scenario that declares an ``"open"`` layout (:mod:`.scenario`), with that
scenario's symbols: its obstacle (the monster), its two goal symbols (princess and treasure) as the
targets and its paint symbols (key, heart, food) as the items.

Construction (own code; the layout and the proportions are the facts measured on the
authors' generator, listed in /work/shared/papers/README.md):

1. A logical ``n x n`` maze as for RegularMaze (Alg. 3 with loops, a start and one goal,
   kept with exactly two solution paths, Alg. 2).
2. Logical cell ``(r, c)`` becomes grid cell ``(2r, 2c)``; an open passage becomes the free
   cell between its two ends; every other cell (all ``(odd, odd)`` cells, and the cells of
   closed walls) holds a **monster**, which blocks. Free neighbours are connected.
3. Targets: the goal holds the princess or the treasure (even odds); with probability
   :data:`TWO_TARGET_PROBABILITY` (0.7) the other one is put on a logical cell that lies on
   only one of the two paths (the path drawn with weight = its number of such cells, the
   cell with weight = its distance from the start), which gives a third solution path
   whenever the two paths meet again before the goal. Without such a cell the maze keeps
   one target.
4. Items: on free logical cells of the solution paths (start and targets excluded). The
   three kinds are shuffled; a path's own cells (on no other path) get ``k ~ U{1..min(2,
   m)}`` items of that path's kind with probability :data:`PATH_ITEM_PROBABILITY`; then,
   with probability :data:`EXTRA_ITEM_PROBABILITY`, one more item of a random kind goes on
   a random free path cell. The probabilities are svot's, calibrated so that a pool
   carries about as many items as the authors' (2.35 per maze).

Solution paths (:mod:`.paths`) are then the simple paths from the prince to a target that
enter no other target on the way; reaching a target ends the quest.
"""

from __future__ import annotations

import numpy as np

from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.paths import remember_paths, solution_paths
from svot.rulemaze.scenario import Scenario

TWO_TARGET_PROBABILITY = 0.7
PATH_ITEM_PROBABILITY = 0.95
EXTRA_ITEM_PROBABILITY = 0.5
MAX_PER_PATH = 2


def grid_size(logical: int) -> int:
    """The open grid's side for a logical ``n x n`` maze: ``2n - 1``."""
    return 2 * logical - 1


def maze_side(logical: int, layout: str) -> int:
    """The side of a maze of ``layout`` made from a logical ``n x n`` maze: ``n`` with walls,
    :func:`grid_size` on the open grid."""
    return grid_size(logical) if layout == "open" else logical


def logical_size(size: int) -> int:
    """The logical maze side of an open grid of side ``size`` (odd, >= 3)."""
    return (size + 1) // 2


def _phys(cell: Cell) -> Cell:
    return (2 * cell[0], 2 * cell[1])


def _expand(path) -> list[Cell]:
    out = [_phys(path[0])]
    for a, b in zip(path, path[1:]):
        pa, pb = _phys(a), _phys(b)
        out += [((pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2), pb]
    return out


def open_grid(logical_maze: Maze) -> tuple[int, set[Cell]]:
    """(side, free cells) of the open grid a logical maze becomes."""
    n = grid_size(logical_maze.size)
    free = {_phys((r, c)) for r in range(logical_maze.size) for c in range(logical_maze.size)}
    for a, b in logical_maze.passages:
        pa, pb = _phys(a), _phys(b)
        free.add(((pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2))
    return n, free


def _grid_passages(n: int, free: set[Cell]) -> tuple:
    """Passages between neighbouring free cells: a derived fast model of
    ``questmaze5.pddl``'s moves (``adjacent``, no ``monster``), proven against the
    grounded engine by ``test_rulemaze_pddl_agreement.py::test_passage_graph_is_the_engine_moves``."""
    out = []
    for r in range(n):
        for c in range(n):
            for nb in ((r, c + 1), (r + 1, c)):
                if (r, c) in free and nb in free:
                    out.append(((r, c), nb))
    return tuple(sorted(out))


def _build(scenario: Scenario, n: int, free: set[Cell], start: Cell, symbols: dict[Cell, str]) -> Maze:
    grid = [[scenario.plain_symbol if (r, c) in free else scenario.obstacle_symbol for c in range(n)]
            for r in range(n)]
    grid[start[0]][start[1]] = scenario.start_symbol
    for cell, sym in symbols.items():
        grid[cell[0]][cell[1]] = sym
    goals = tuple(sorted(c for c, s in symbols.items() if s in scenario.goal_symbols))
    return Maze(scenario.name, n, start, goals, _grid_passages(n, free), tuple(tuple(r) for r in grid))


def open_grid_maze(scenario: Scenario, logical_maze: Maze, rng: np.random.Generator) -> Maze:
    """Steps 2-4 of the module docstring, for a logical maze with exactly two paths: the open grid
    of ``scenario`` (its obstacle on blocked cells, its two goal symbols as the targets, its
    ``paint_symbols`` as the items)."""
    n, free = open_grid(logical_maze)
    start, goal = _phys(logical_maze.start), _phys(logical_maze.goals[0])
    paths = [_expand(p) for p in solution_paths(logical_maze)]
    centres = [[c for c in p if c[0] % 2 == 0 and c[1] % 2 == 0 and c not in (start, goal)]
               for p in paths]
    own = [[c for c in cs if all(c not in o for j, o in enumerate(centres) if j != i)]
           for i, cs in enumerate(centres)]
    first, second = (scenario.goal_symbols[i] for i in rng.permutation(2))
    symbols = {goal: first}
    if rng.random() < TWO_TARGET_PROBABILITY and any(own):
        weights = np.array([len(o) for o in own], float)
        side = own[int(rng.choice(len(own), p=weights / weights.sum()))]
        dist = np.array([max(np.hypot(c[0] - start[0], c[1] - start[1]), 1e-6) for c in side])
        symbols[side[int(rng.choice(len(side), p=dist / dist.sum()))]] = second
    maze = _build(scenario, n, free, start, symbols)
    return _add_open_items(scenario.paint_symbols, maze, rng)


def _add_open_items(palette: tuple[str, ...], maze: Maze, rng: np.random.Generator) -> Maze:
    paths = solution_paths(maze)
    fixed = {maze.start, *maze.goals}
    cells = [[c for c in p if c[0] % 2 == 0 and c[1] % 2 == 0 and c not in fixed] for p in paths]
    kinds = [palette[i] for i in rng.permutation(len(palette))]
    items: dict[Cell, str] = {}
    for i, cs in enumerate(cells):
        own = [c for c in cs if all(c not in o for j, o in enumerate(cells) if j != i) and c not in items]
        if own and rng.random() < PATH_ITEM_PROBABILITY:
            k = int(rng.integers(1, min(MAX_PER_PATH, len(own)) + 1))
            for j in sorted(int(x) for x in rng.choice(len(own), size=k, replace=False)):
                items[own[j]] = kinds[i % len(kinds)]
    spare = sorted({c for cs in cells for c in cs} - set(items))
    if spare and rng.random() < EXTRA_ITEM_PROBABILITY:
        items[spare[int(rng.integers(len(spare)))]] = palette[int(rng.integers(len(palette)))]
    out = maze.replace_cells(items) if items else maze
    remember_paths(out, paths)
    return out
