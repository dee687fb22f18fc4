"""The open-grid layout the RuleMaze paper draws for QuestMaze (Fig. 3; §5 "cell-based layouts
without complex wall structures"): a ``(2n-1) x (2n-1)`` cell grid, 5 x 5 for the paper's 3 x 3 maze.
It is built for any scenario that declares an ``"open"`` layout (:mod:`.scenario`), with that
scenario's symbols: its obstacle (the monster), its two goal symbols (princess and treasure) as the
targets and its paint symbols (key, heart, food) as the items.

Construction (own code; the layout and the proportions follow the authors' generator, read for
the facts and measured offline, issue 45; nothing of it is copied):

1. A logical ``n x n`` maze as for RegularMaze (Alg. 3 with loops, a start and one goal,
   kept with exactly two solution paths, Alg. 2), its depth-first tree rooted at the
   **goal**, as the authors root it.
2. Logical cell ``(r, c)`` becomes grid cell ``(2r, 2c)``; an open passage becomes the free
   cell between its two ends; every other cell (all ``(odd, odd)`` cells, and the cells of
   closed walls) holds a **monster**, which blocks. Free neighbours are connected.
3. Targets: the goal holds the princess or the treasure (even odds); with probability
   :data:`TWO_TARGET_PROBABILITY` (0.7) the other one is put on a logical cell that lies on
   only one of the two paths (the path drawn with weight = its number of such cells, the
   cell with weight = its distance from the start), which gives a third solution path
   whenever the two paths meet again before the goal. That path now ends at the second
   target; its logical cells past it are kept aside. Without such a cell the maze keeps
   one target.
4. Items: the three kinds are shuffled; a *drop* of one kind on a list of cells puts
   ``U{1..min(3, cells)}`` items there, trying at most 10 random cells, skipping occupied
   ones. Per path, its *own* cells are its logical cells on no other path (start and goal
   excluded). One target: path 1 gets kind 1, path 2 kind 2, or both (0.3 / 0.3 / 0.4),
   then with probability 0.4 a drop of kind 3 over both paths' own cells. Two targets:
   either each path gets its own kind unless it ends on the princess (0.5), or one path
   gets its kind (0.25 each), then with probability 0.4 a drop of any kind on the cells past
   the second target (so items may lie on no solution path), then one more drop: kind 2 on
   path 1 (0.3), kind 1 on path 2 (0.3), or kind 3 on both (0.4).

Solution paths (:mod:`.paths`) are then the simple paths from the prince to a target that
enter no other target on the way; reaching a target ends the quest.
"""

from __future__ import annotations

import numpy as np

from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.scenario import Scenario

TWO_TARGET_PROBABILITY = 0.7
#: A drop puts ``U{1..min(MAX_PER_DROP, cells)}`` items of one kind on a list of cells, trying
#: at most ``DROP_TRIES`` random cells (a cell already holding something is skipped, not retried).
MAX_PER_DROP = 3
DROP_TRIES = 10
#: Two targets: which paths get items (both, the first, the second).
TWO_TARGET_PATTERNS = (0.5, 0.25, 0.25)
#: Two targets, one path served first: chance of a drop on the cells past the second target.
BEYOND_PROBABILITY = 0.4
#: One target: which paths get their own kind (the first, the second, both).
ONE_TARGET_PATTERNS = (0.3, 0.3, 0.4)
#: One target: chance of a drop of the third kind over both paths' own cells.
SHARED_KIND_PROBABILITY = 0.4


def grid_size(logical: int) -> int:
    """The open grid's side for a logical ``n x n`` maze: ``2n - 1``."""
    return 2 * logical - 1


def maze_side(logical: int, layout: str) -> int:
    """The side of a maze of ``layout`` made from a logical ``n x n`` maze: ``n`` with walls,
    :func:`grid_size` on the open grid."""
    return grid_size(logical) if layout == "open" else logical


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
    first, second = (scenario.goal_symbols[i] for i in rng.permutation(2))
    symbols = {goal: first}
    beyond: list[Cell] = []  # logical cells past the second target on the path it cuts short
    own = _own_centres(paths, (start, goal))
    two = rng.random() < TWO_TARGET_PROBABILITY and any(own)
    if two:
        weights = np.array([len(o) for o in own], float)
        k = int(rng.choice(len(own), p=weights / weights.sum()))
        dist = np.array([max(np.hypot(c[0] - start[0], c[1] - start[1]), 1e-6) for c in own[k]])
        second_cell = own[k][int(rng.choice(len(own[k]), p=dist / dist.sum()))]
        symbols[second_cell] = second
        cut = paths[k].index(second_cell)
        beyond = [c for c in _centres(paths[k][cut + 1:]) if c not in (start, goal)]
        paths[k] = paths[k][:cut + 1]
        own = _own_centres(paths, (start, goal))
    symbols.update(_place_items(scenario, own, beyond, symbols, two, rng))
    maze = _build(scenario, n, free, start, symbols)
    return maze


def _centres(path) -> list[Cell]:
    """The logical cells (even, even) of a grid path, in order."""
    return [c for c in path if c[0] % 2 == 0 and c[1] % 2 == 0]


def _own_centres(paths, fixed) -> list[list[Cell]]:
    """Per path, its logical cells on no other path (``fixed`` cells left out), in path order."""
    centres = [[c for c in _centres(p) if c not in fixed] for p in paths]
    return [[c for c in cs if all(c not in o for j, o in enumerate(centres) if j != i)]
            for i, cs in enumerate(centres)]


def _place_items(scenario: Scenario, own: list[list[Cell]], beyond: list[Cell], taken: dict[Cell, str],
                 two: bool, rng: np.random.Generator) -> dict[Cell, str]:
    """Step 4: items on the paths' own cells (and, now and then, past a second target), the way
    the authors' generator spreads them (facts in the module docstring)."""
    kinds = [scenario.paint_symbols[i] for i in rng.permutation(len(scenario.paint_symbols))]
    items: dict[Cell, str] = {}

    def scatter(cells: list[Cell], kind: str) -> None:
        if not cells:
            return
        want = int(rng.integers(1, min(MAX_PER_DROP, len(cells)) + 1))
        placed = 0
        for _ in range(DROP_TRIES):
            if placed == want:
                break
            cell = cells[int(rng.integers(len(cells)))]
            if cell not in taken and cell not in items:
                items[cell] = kind
                placed += 1

    a, b = (own + [[], []])[:2]
    if two:
        pattern = int(rng.choice(3, p=TWO_TARGET_PATTERNS))
        if pattern == 0:  # each path its own kind, unless the path ends on the princess
            for cells, kind in ((a, kinds[0]), (b, kinds[1])):
                if not cells or taken.get(cells[-1]) != scenario.goal_symbols[0]:
                    scatter(cells, kind)
        else:  # one path's kind, then a second kind on one path or the third kind on both
            scatter(a, kinds[0]) if pattern == 1 else scatter(b, kinds[1])
            if beyond and rng.random() < BEYOND_PROBABILITY:
                scatter(beyond, kinds[int(rng.integers(len(kinds)))])
            u = rng.random()
            if u < 0.3:
                scatter(a, kinds[1])
            elif u < 0.6:
                scatter(b, kinds[0])
            else:
                scatter(a, kinds[2])
                scatter(b, kinds[2])
    else:
        pattern = int(rng.choice(3, p=ONE_TARGET_PATTERNS))
        if pattern in (0, 2):
            scatter(a, kinds[0])
        if pattern in (1, 2):
            scatter(b, kinds[1])
        if rng.random() < SHARED_KIND_PROBABILITY:
            scatter(a + b, kinds[2])
    return items
