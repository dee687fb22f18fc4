"""Cells as samplers handle them: cell ↔ row-major index, JSON cell lists, and walks over free cells.

Grid geometry for drawing layouts and for solvers' move planning, never for the
solvability search (that runs on the engine: :mod:`svot.problem_gen.grounding`).
"""

from __future__ import annotations

import functools
from collections import deque
from typing import Iterable

from svot.kernel.grid import DELTAS, DIRECTIONS, Cell, inside


def index_cell(index: int, size: int) -> Cell:
    return (int(index) // size, int(index) % size)


def cells_list(cells: Iterable[Cell]) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in sorted(cells)]


def index_cells_list(indices: Iterable[int], size: int) -> list[list[int]]:
    """``cells_list`` of the cells at row-major ``indices`` (non-negative ints below ``size * size``):
    row-major order is the cells' sorted order, so the indices are sorted instead."""
    return [[i // size, i % size] for i in sorted(indices)]


def cell_bfs(size: int, start: Cell, blocked: frozenset | set = frozenset()) -> dict[Cell, tuple[int, Cell | None, int | None]]:
    """Distances over free cells with single-cell moves: cell → (dist, parent, action).

    Neighbours are tried in action order (up, down, left, right), so parents and
    paths are deterministic.
    """
    neighbours = _cell_neighbours(size)
    out: dict[Cell, tuple[int, Cell | None, int | None]] = {start: (0, None, None)}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        d = out[cur][0] + 1
        for a, nxt in neighbours[cur]:
            if nxt not in out and nxt not in blocked:
                out[nxt] = (d, cur, a)
                queue.append(nxt)
    return out


@functools.lru_cache(maxsize=None)
def _cell_neighbours(size: int) -> dict[Cell, tuple[tuple[int, Cell], ...]]:
    """cell → ((action, neighbour) inside the grid, in action order): the geometry once per size."""
    out = {}
    for r in range(size):
        for c in range(size):
            nbrs = []
            for a, name in enumerate(DIRECTIONS):
                dr, dc = DELTAS[name]
                nxt = (r + dr, c + dc)
                if inside(nxt, size):
                    nbrs.append((a, nxt))
            out[(r, c)] = tuple(nbrs)
    return out


def path_actions(tree: dict, target: Cell) -> list[int]:
    actions = []
    cur = target
    while tree[cur][1] is not None:
        actions.append(tree[cur][2])
        cur = tree[cur][1]
    return actions[::-1]
