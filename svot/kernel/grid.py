"""Grid conventions shared by every domain: (row, col) from the top left.

Cells are PDDL objects ``c_<row>_<col>``; ``(adj ?from ?dir ?to)`` holds for
neighbouring cells inside the grid only, so the grid's edge needs no rule.
"""

from __future__ import annotations

import functools

from svot.errors import ProblemError
from svot.numbers import small_int

DIRECTIONS = ("up", "down", "left", "right")
DELTAS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    return f"c_{cell[0]}_{cell[1]}"


@functools.lru_cache(maxsize=65_536)  # a few hundred cell names; read on every state
def parse_cell(name: str) -> Cell:
    parts = name.split("_")
    row, col = (small_int(parts[1]), small_int(parts[2])) if len(parts) == 3 and parts[0] == "c" else (None, None)
    if row is None or col is None:  # ASCII digits only (svot.numbers)
        raise ProblemError(f"{name!r} is not a cell object name (expected c_<row>_<col>)")
    return row, col


def cells(size: int) -> list[Cell]:
    return [(r, c) for r in range(size) for c in range(size)]


def inside(cell: Cell, size: int) -> bool:
    return 0 <= cell[0] < size and 0 <= cell[1] < size


def shift(cell: Cell, direction: str, k: int = 1) -> Cell:
    dr, dc = DELTAS[direction]
    return cell[0] + dr * k, cell[1] + dc * k


def grid_objects(size: int) -> list[tuple[str, str]]:
    return [(cell_name(c), "cell") for c in cells(size)] + [(d, "direction") for d in DIRECTIONS]


def adjacency_atoms(size: int) -> list[tuple]:
    out = []
    for c in cells(size):
        for d in DIRECTIONS:
            n = shift(c, d)
            if inside(n, size):
                out.append(("adj", cell_name(c), d, cell_name(n)))
    return out


def sorted_cells(cs) -> list[list[int]]:
    """Cells as JSON lists, row-major."""
    return [[r, c] for r, c in sorted(cs)]

