"""Maze pool generation (RuleMaze paper, appendix E.2.3, Alg. 1-4).

Alg. 3 ``CreateMaze``: all walls closed; a depth-first search from the start
opens a perfect maze (each step moves to a uniformly chosen unvisited
neighbour, popping when there is none); then loops are added by removing
extra walls, ``loopPercent`` = 10.

Reading of Alg. 3, phase 2 (the paper's text is terse here):

* *on-path walls* are the closed inner walls with at least one side on a
  solution path of the perfect maze, *off-path walls* the other closed inner
  walls (the border is never opened);
* the number removed from each group is ``ceil(n / 3 * loopPercent / 100)``,
  i.e. the paper's ``n/3 * 0.1`` read as the bound of a "remove while
  removed < bound" loop. The literal floor would remove nothing in a 3x3
  maze (at most 4 closed walls), which would make the "exactly two solution
  paths" filter of Alg. 2 reject every maze;
* the ``isCyclic`` check ("avoids trivial squares") skips a wall whose removal
  would open a whole 2x2 block; the next random candidate is tried instead.
  For N = 2 the only possible loop is such a square, so the check is off there.

Alg. 2 keeps a maze only with exactly two solution paths (see
:mod:`.paths`; in a QuestMaze counted over both targets, a path ending at the
first target it enters). Alg. 4 then paints cells:

* RegularMaze: with probability 0.2 nothing is painted; otherwise one colour
  ``c*`` is drawn from :data:`~.symbols.COLOURS` and a type from {1, 2}.
  Type 1 picks ``k ~ U{1..|X|}`` of the cells shared by both paths, type 2
  ``k ~ U{1..max(1, floor(|X|/3))}`` of the cells on any solution path. The
  start and goal are never repainted; an empty ``X`` leaves the maze plain.
* RegularMaze with ``coloring="authors"`` (:func:`paint_path_interiors`):
  what the authors' pool generator does instead of Alg. 4 (their
  ``add_rules_path``, read for the facts, not copied). A variant 1-4 is drawn
  uniformly; a colour ``c1`` paints the whole interior (start and goal
  excluded) of one solution path; variant 2 paints another path's interior in
  a second colour; variant 4 paints the other paths in ``c1`` too; variants 3
  and 4 then paint ``min(n, max(1, n // 3))`` of another path's ``n`` interior
  cells in a colour other than ``c1``. Later paint overwrites earlier paint.
  Only a maze whose paths have no interior stays plain.
* QuestMaze (the paper gives no separate algorithm): with probability 0.2 no
  items; otherwise ``k ~ U{1..|X|}`` of the path cells (start and targets
  excluded) each get an item drawn uniformly from key, heart, food. The
  prince is the start, princess and treasure the two targets, the rest grass.

Randomness comes only from ``numpy.random.Generator`` objects. Maze number
``i`` of a pool is drawn from its own generator seeded by
``SeedSequence(seed, spawn_key=(i,))`` (the ``i``-th child of
``SeedSequence(seed).spawn``), so the result does not depend on the number of
worker processes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from svot.dataset.writers import atomic_write_bytes
# Alg. 3 (CreateMaze) lives with the walled grids of the domain layer, where domains sampling such layouts find it
from svot.domains.passages import LOOP_PERCENT, create_maze, dfs_perfect_maze, loop_removals, opens_square  # noqa: F401
from svot.jsonl import iter_lines, loads
from svot.parallel import process_pool
from svot.rulemaze.errors import PoolError
from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.paths import path_cells, remember_paths, shared_cells, solution_paths
from svot.rulemaze.open_grid import open_grid_maze
from svot.rulemaze.scenario import Scenario, get_scenario, layout_for, normalize_scenario, scenarios

#: RegularMaze colourings: Alg. 4 as printed (default) or the authors' whole-path painting.
COLORINGS = ("paper", "authors")
#: QuestMaze layouts: ``open`` (the default: the paper's open cell grid with monsters, 5x5 from a
#: 3x3 maze; :mod:`.open_grid`) or ``walls`` (the walled 3x3 maze, RuleMaze/QuestMaze-3x3-v0).
LAYOUTS = ("walls", "open")
UNCOLOURED_PROBABILITY = 0.2
DEFAULT_MAX_TRIES = 10_000


# --------------------------------------------------------------------- Alg. 4
def add_coloured_cells(maze: Maze, paths, rng: np.random.Generator) -> Maze:
    """Alg. 4: zones of one colour of the scenario's ``paint_symbols`` (see the module docstring)."""
    if rng.random() < UNCOLOURED_PROBABILITY:
        return maze
    palette = get_scenario(maze.scenario).paint_symbols
    colour = palette[int(rng.integers(len(palette)))]
    kind = int(rng.integers(1, 3))
    fixed = {maze.start, *maze.goals}
    if kind == 1:
        pool = [c for c in shared_cells(paths) if c not in fixed]
        k_max = len(pool)
    else:
        pool = [c for c in path_cells(paths) if c not in fixed]
        k_max = max(1, len(pool) // 3)
    if not pool:
        return maze
    k = int(rng.integers(1, k_max + 1))
    chosen = rng.choice(len(pool), size=k, replace=False)
    return maze.replace_cells({pool[int(i)]: colour for i in sorted(chosen)})


def paint_path_interiors(maze: Maze, paths, rng: np.random.Generator) -> Maze:
    """The authors' zone colouring (``coloring="authors"``, see the module docstring)."""
    paths = [tuple(p) for p in paths]
    if not paths:
        return maze
    variant = int(rng.integers(1, 5))
    colours = list(get_scenario(maze.scenario).paint_symbols)
    first = colours.pop(int(rng.integers(len(colours))))
    others = list(range(len(paths)))
    chosen = others.pop(int(rng.integers(len(others))))
    paint: dict[Cell, str] = {c: first for c in paths[chosen][1:-1]}
    if variant == 2 and others:
        second = colours[int(rng.integers(len(colours)))]
        other = others[int(rng.integers(len(others)))]
        paint.update({c: second for c in paths[other][1:-1]})
    if variant == 4:
        for i in others:
            paint.update({c: first for c in paths[i][1:-1]})
    if variant in (3, 4) and others:
        third = colours[int(rng.integers(len(colours)))]
        interior = paths[others[int(rng.integers(len(others)))]][1:-1]
        k = min(len(interior), max(1, len(interior) // 3))
        if k:
            picks = sorted(int(i) for i in rng.choice(len(interior), size=k, replace=False))
            paint.update({interior[i]: third for i in picks})
    fixed = {maze.start, *maze.goals}
    paint = {c: col for c, col in paint.items() if c not in fixed}
    return maze.replace_cells(paint) if paint else maze


def add_items(maze: Maze, paths, rng: np.random.Generator) -> Maze:
    """The counterpart of Alg. 4 for a scenario that paints items (its ``paint_symbols``) on
    solution-path cells."""
    if rng.random() < UNCOLOURED_PROBABILITY:
        return maze
    fixed = {maze.start, *maze.goals}
    pool = [c for c in path_cells(paths) if c not in fixed]
    if not pool:
        return maze
    k = int(rng.integers(1, len(pool) + 1))
    chosen = sorted(int(i) for i in rng.choice(len(pool), size=k, replace=False))
    items = get_scenario(maze.scenario).paint_symbols
    return maze.replace_cells({pool[i]: items[int(rng.integers(len(items)))] for i in chosen})


def _paint_zones(maze: Maze, paths, rng: np.random.Generator, coloring: str) -> Maze:
    return paint_path_interiors(maze, paths, rng) if coloring == "authors" else add_coloured_cells(maze, paths, rng)


def _paint_items(maze: Maze, paths, rng: np.random.Generator, coloring: str) -> Maze:
    return add_items(maze, paths, rng)  # (the colouring choice is the zones')


#: A scenario's ``pool_painting`` -> how its pool mazes are painted (Alg. 4 and its counterpart).
PAINTINGS: dict[str, Callable[[Maze, tuple, np.random.Generator, str], Maze]] = {
    "zones": _paint_zones, "items": _paint_items}


# --------------------------------------------------------------------- Alg. 2
def _plain_maze(scenario: Scenario, size: int, start: Cell, goals: dict[Cell, str], passages) -> Maze:
    grid = [[scenario.plain_symbol] * size for _ in range(size)]
    grid[start[0]][start[1]] = scenario.start_symbol
    for g, sym in goals.items():
        grid[g[0]][g[1]] = sym
    return Maze(scenario.name, size, start, tuple(goals), passages, tuple(tuple(r) for r in grid))


def _check_coloring(coloring: str) -> None:
    if coloring not in COLORINGS:
        raise PoolError(f"coloring: expected one of {list(COLORINGS)}, got {coloring!r}")


def open_layout_names() -> str:
    """The scenarios that have an open-grid layout, for messages (``"QuestMaze"``)."""
    return " / ".join(s.name for s in scenarios() if "open" in s.domains)


def default_layout(scenario: str) -> str:
    """A scenario's layout when none is asked for: the paper's open grid (Fig. 3) where the
    scenario has one (QuestMaze), else the walled maze."""
    return layout_for(scenario, "open")


#: The largest logical maze side built. Larger mazes can be drawn, but slowly (enumerating their
#: solution paths, Alg. 2): on one core 3 mazes of side 8 take 0.2-0.7 s, 2 of side 10 up to 1.8 s,
#: of side 16 up to 100 s, so a pool of the default 50,000 would run for days; such a size is
#: refused at once rather than left to run.
MAX_SIZE = 8


def check_size(scenario: str, size, layout: str) -> None:
    """Refuse a ``size`` (the logical maze side) that cannot be built, with :class:`PoolError`."""
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= MAX_SIZE:
        raise PoolError(f"size is the logical maze side, an integer from 2 to {MAX_SIZE} (3 for the paper's "
                        f"mazes; the open grid's side is 2 size - 1), got {size!r} for a {scenario}")


def _check_layout(scenario: Scenario, size, layout: str) -> None:
    if layout not in LAYOUTS:
        raise PoolError(f"layout: expected one of {list(LAYOUTS)}, got {layout!r}")
    if layout == "open" and "open" not in scenario.domains:
        raise PoolError(f"layout 'open' is a {open_layout_names()} grid, not a {scenario.name} "
                        f"(size {size!r} is the logical maze side: 3 gives the paper's 5x5 grid)")
    check_size(scenario.name, size, layout)


def _logical_maze(scenario: Scenario, n: int, rng: np.random.Generator, loop_percent: float,
                  max_tries: int) -> Maze:
    """A plain walled maze with one goal (the scenario's first goal symbol) and exactly two solution
    paths (Alg. 2-3): what the open grid is laid out from."""
    for _ in range(max_tries):
        picks = rng.choice(n * n, size=2, replace=False)
        start, goal = [(int(p) // n, int(p) % n) for p in picks]
        # the depth-first tree grows from the goal, as in the authors' generator (issue 45): rooted
        # at the start, a 3x3 pool holds 176 distinct (layout, start) pairs; at the goal, about 330
        passages = create_maze(n, goal, [start], rng, loop_percent)
        maze = _plain_maze(scenario, n, start, {goal: scenario.goal_symbols[0]}, passages)
        if len(solution_paths(maze)) == 2:
            return maze
    raise PoolError(f"no {n}x{n} maze with exactly two solution paths after {max_tries} attempts")


def generate_maze(scenario: str, size: int, rng: np.random.Generator, *,
                  loop_percent: float = LOOP_PERCENT, max_tries: int = DEFAULT_MAX_TRIES,
                  coloring: str = "paper", layout: str | None = None) -> Maze:
    """One pool maze (Alg. 2 steps 1-5): sample endpoints, build, keep it when it has
    exactly two solution paths, then paint it (RegularMaze: Alg. 4 with
    ``coloring="paper"``, the authors' path painting with ``"authors"``).

    ``size`` is the logical maze side in every layout. ``layout`` defaults to the
    scenario's (:func:`default_layout`): a QuestMaze is the paper's open grid of side
    ``2 size - 1`` (5x5 for ``size=3``, :mod:`.open_grid`), ``layout="walls"`` the
    walled ``size x size`` maze. Raises :class:`PoolError` for a size or layout that
    cannot be built, and after ``max_tries`` rejected attempts."""
    kind = get_scenario(scenario)
    layout = default_layout(kind.name) if layout is None else layout
    _check_coloring(coloring)
    _check_layout(kind, size, layout)
    if layout == "open":
        return open_grid_maze(kind, _logical_maze(kind, size, rng, loop_percent, max_tries), rng)
    paint = PAINTINGS[kind.pool_painting]
    for _ in range(max_tries):
        # the start, then one cell per goal symbol (its goals are placed in that order)
        picks = rng.choice(size * size, size=1 + len(kind.goal_symbols), replace=False)
        cells = [(int(p) // size, int(p) % size) for p in picks]
        start = cells[0]
        goals = dict(zip(cells[1:], kind.goal_symbols))
        passages = create_maze(size, start, list(goals), rng, loop_percent)
        maze = _plain_maze(kind, size, start, goals, passages)
        paths = solution_paths(maze)
        if len(paths) != 2:
            continue
        painted = paint(maze, paths, rng, coloring)
        remember_paths(painted, paths)
        return painted
    raise PoolError(f"no {kind.name} of size {size} with exactly two solution paths "
                    f"after {max_tries} attempts")


def maze_rng(seed: int, index: int) -> np.random.Generator:
    """The generator of pool maze number ``index`` (independent of worker count)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))


def _generate_range(args) -> list[Maze]:
    scenario, size, seed, start, stop, loop_percent, max_tries, coloring, layout = args
    return [generate_maze(scenario, size, maze_rng(seed, i), loop_percent=loop_percent,
                          max_tries=max_tries, coloring=coloring, layout=layout)
            for i in range(start, stop)]


# --------------------------------------------------------------------- Alg. 1
def generate_pool(scenario: str, size: int = 3, count: int = 100, seed: int = 0, workers: int = 1,
                  *, loop_percent: float = LOOP_PERCENT, max_tries: int = DEFAULT_MAX_TRIES,
                  progress: Callable[[int, int], None] | None = None,
                  coloring: str = "paper", layout: str | None = None) -> list[Maze]:
    """A pool of ``count`` distinct mazes (Alg. 1), deterministic in ``seed``.

    ``size`` is the logical maze side and ``layout`` defaults to the scenario's, as in
    :func:`generate_maze`: ``generate_pool("QuestMaze", 3)`` is a pool of the paper's 5x5
    open grids, ``layout="walls"`` gives walled 3x3 QuestMazes.

    Candidates are generated by index (``maze_rng(seed, i)``) and kept in index
    order, dropping any maze equal to an earlier one, until ``count`` are
    found. ``workers > 1`` spreads the indices over processes; the result is
    identical whatever ``workers`` is. ``progress(done, count)`` is called as
    mazes are accepted. Raises :class:`PoolError` when the space of distinct
    mazes seems exhausted (many consecutive duplicates).
    """
    scenario = normalize_scenario(scenario)
    layout = default_layout(scenario) if layout is None else layout
    _check_coloring(coloring)
    _check_layout(get_scenario(scenario), size, layout)
    if not isinstance(count, int) or count < 0:
        raise PoolError(f"count: expected a non-negative integer, got {count!r}")
    if not isinstance(workers, int) or workers < 1:
        raise PoolError(f"workers: expected a positive integer, got {workers!r}")
    seed = int(seed)
    mazes: list[Maze] = []
    seen: set[Maze] = set()
    next_index = 0
    since_new = 0
    patience = max(2000, 2 * count)
    executor = process_pool(workers) if workers > 1 else None
    try:
        while len(mazes) < count:
            # Generating exactly the missing number of candidates wastes nothing when they
            # are distinct; the result (first `count` distinct mazes by index) does not
            # depend on how the indices are batched.
            need = count - len(mazes)
            if executor is None:
                batch = min(need, 256)
                lo, hi = next_index, next_index + batch
                results: Iterable[list[Maze]] = (
                    _generate_range((scenario, size, seed, lo, hi, loop_percent, max_tries, coloring, layout)),)
            else:
                batch = max(need, 32 * workers)
                lo, hi = next_index, next_index + batch
                step = max(1, min(256, -(-batch // workers)))
                chunks = [(a, min(a + step, hi)) for a in range(lo, hi, step)]
                results = executor.map(_generate_range, [
                    (scenario, size, seed, a, b, loop_percent, max_tries, coloring, layout) for a, b in chunks])
            next_index = hi
            for chunk in results:
                for maze in chunk:
                    if len(mazes) >= count:
                        break
                    if maze in seen:
                        since_new += 1
                        continue
                    seen.add(maze)
                    mazes.append(maze)
                    since_new = 0
                if progress is not None:
                    progress(len(mazes), count)
            if len(mazes) < count and since_new >= patience:
                raise PoolError(f"only {len(mazes)} distinct {scenario} mazes of size {size} "
                                f"found after {next_index} candidates; asked for {count}")
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    return mazes


# --------------------------------------------------------------------- files
def write_pool(path: str | os.PathLike, mazes: Iterable[Maze]) -> None:
    """Write mazes as JSON lines (one :meth:`Maze.to_dict` per line), atomically (fsynced, then renamed)."""
    text = "".join(json.dumps(m.to_dict(), sort_keys=True, separators=(",", ":")) + "\n" for m in mazes)
    atomic_write_bytes(Path(path), text.encode("utf-8"))


def read_pool(path: str | os.PathLike) -> list[Maze]:
    """Read a file written by :func:`write_pool`; errors name the line."""
    out = []
    for no, line in iter_lines(path):
        if not line.strip():
            continue
        try:
            out.append(Maze.from_dict(loads(line)))
        except (ValueError, TypeError) as exc:
            raise PoolError(f"{os.fspath(path)}:{no}: {exc}") from None
    return out
