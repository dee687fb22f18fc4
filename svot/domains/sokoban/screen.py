"""Claims 1–3 of :mod:`svot.domains.sokoban.generator` on a batch of initial layouts, in numpy.

The sampler draws many layouts per kept problem (hundreds for 3 blocks on
5×5 and 6×6); most fail the static claims. This module applies them to a
whole batch of draws at once, on ``uint64`` bitboards (bit ``r * N + c`` is
cell (r, c), so grids up to 8×8):

* Claim 1: a block on a cell from which no goal square is relaxed-reachable;
* Claim 2: no bijection of blocks to goal squares along relaxed pushes;
* Claim 3 at the start: a 2×2 window filled with walls and blocks, one of
  those blocks off a goal square.

A layout these refuse cannot reach the goal (the claims' proofs are in the
generator's comments), so breadth-first search would refuse it as well:
the first layout kept is the same. Tests compare every row with the
cell-by-cell claims (:func:`~svot.domains.sokoban.generator.quick_reject`
and the search's dead-state check at the start) on thousands of draws.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

MAX_SIZE = 8  # N * N bits must fit a uint64

_ONE = np.uint64(1)


class BatchBoard:
    """Bitboard shifts for an N×N grid on uint64 arrays (the numpy twin of the generator's ``Board``)."""

    def __init__(self, size: int):
        self.size = size
        n = size * size
        self.full = np.uint64((1 << n) - 1)
        self.not_col0 = np.uint64(((1 << n) - 1) & ~sum(1 << (r * size) for r in range(size)))
        self.not_col_last = np.uint64(((1 << n) - 1) & ~sum(1 << (r * size + size - 1) for r in range(size)))
        self.row = np.uint64(size)
        self.top_left = np.uint64(
            sum(1 << (r * size + c) for r in range(size - 1) for c in range(size - 1))
        )  # the cells that are a 2×2 window's top-left
        full = (1 << n) - 1
        self.top_or_bottom = np.uint64(sum(1 << c for c in range(size)) | sum(1 << (n - 1 - c) for c in range(size)))
        self.left_or_right = np.uint64(full & ~(int(self.not_col0) & int(self.not_col_last)))

    # cells x whose neighbour x+d (inside the grid) is in b
    def from_down(self, b):  # d = down: x + N in b
        return b >> self.row

    def from_up(self, b):  # d = up: x - N in b
        return (b << self.row) & self.full

    def from_right(self, b):  # d = right: x + 1 in b
        return (b >> _ONE) & self.not_col_last

    def from_left(self, b):  # d = left: x - 1 in b
        return (b << _ONE) & self.not_col0

    def frozen_window(self, occupied: np.ndarray, off_goal: np.ndarray) -> np.ndarray:
        """Row by row: whether some 2×2 window is all ``occupied`` and holds an ``off_goal`` cell. A window
        is named by its top-left cell t (not on the last row or column): t, t + 1, t + N, t + N + 1."""
        n = self.row
        whole = occupied & (occupied >> _ONE) & (occupied >> n) & (occupied >> (n + _ONE)) & self.top_left
        # the windows that hold a cell y: top-left y, y - 1, y - N, y - N - 1 (wraps land off top_left)
        touched = off_goal | (off_goal >> _ONE) | (off_goal >> n) | (off_goal >> (n + _ONE))
        return (whole & touched) != 0

    def cornered(self, wall: np.ndarray) -> np.ndarray:
        """Row by row: the cells with a wall or the grid's edge above or below them, and one left or right
        of them. A lone block there cannot be pushed at all (a push needs both cells of a line free), so
        off the goals it is dead (Claim 1's simplest case: such a cell is live only if a goal square)."""
        vertical = self.top_or_bottom | self.from_up(wall) | self.from_down(wall)
        horizontal = self.left_or_right | self.from_left(wall) | self.from_right(wall)
        return vertical & horizontal

    def live(self, free: np.ndarray, goals: np.ndarray) -> np.ndarray:
        """Claim 1, row by row: free cells from which a lone block can be pushed onto some goal."""
        # push in direction d from x: x - d free (player) and x + d live. ``beside_*``: the cells x that
        # are free with the player's cell free, for x + d on that side of x (the column mask folded in)
        n = self.row
        beside_above = free & self.from_down(free)  # x - N live, x + N free
        beside_below = free & self.from_up(free)  # x + N live, x - N free
        beside_left = free & self.from_right(free) & self.not_col0  # x - 1 live, x + 1 free
        beside_right = free & self.from_left(free) & self.not_col_last  # x + 1 live, x - 1 free
        live = goals
        while True:
            new = (
                live
                | beside_above & (live << n)
                | beside_below & (live >> n)
                | beside_left & (live << _ONE)
                | beside_right & (live >> _ONE)
            )
            if not (new ^ live).any():
                return live
            live = new

    def reach(self, free: np.ndarray, start: np.ndarray) -> np.ndarray:
        """Row by row: the cells a lone block on ``start`` can be pushed to."""
        # x in reach, x - d free, x + d free  →  x + d in reach; ``toward(y, -d)`` holds the cells y + d
        towards = (self.from_up, self.from_down, self.from_left, self.from_right)
        steps = [(onward, onward(free)) for onward in towards]
        reach = start
        while True:
            new = reach
            for onward, behind_free in steps:
                new = new | (onward(reach & behind_free) & free)
            if not (new ^ reach).any():
                return reach
            reach = new


@functools.lru_cache(maxsize=None)
def batch_board(size: int) -> BatchBoard:
    return BatchBoard(size)


def surviving_rows(size: int, walls: int, blocks: int, rows: np.ndarray) -> np.ndarray:
    """Indices (ascending) of the draws in ``rows`` that Claims 1–3 do not refuse.

    ``rows[:, :walls + 1 + 2 * blocks]`` are cell indices as the sampler reads
    them: walls, the player, the blocks, the goals.
    """
    b = batch_board(size)
    # one array per drawn cell, over the rows (each numpy call then runs over contiguous rows), made
    # column by column: one (cells x rows) array of hundreds of kB, made and freed at every batch, had
    # glibc's allocator hand its memory back and fault it in again each time (a third of a sampler's
    # batch; with MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ fixed high, the cost went away)
    bits = [_ONE << rows[:, j].astype(np.uint64) for j in range(walls + 1 + 2 * blocks)]
    wall = _union(bits[:walls], len(rows))
    block_each = bits[walls + 1 : walls + 1 + blocks]
    goal_each = bits[walls + 1 + blocks :]
    block = _union(block_each, len(rows))
    goal = _union(goal_each, len(rows))
    free = b.full & ~wall

    # Claim 1's simplest case, on every row (a few numpy calls, no loop): a block off the goals on a
    # cell it cannot be pushed from. It refuses most rows, so the fixpoint below runs on the others
    left = np.flatnonzero((block & ~goal & b.cornered(wall)) == 0)
    wall, block, goal = wall[left], block[left], goal[left]
    # Claim 1
    ok = (block & ~b.live(free[left], goal)) == 0
    # Claim 3 at the start: a window all walls and blocks, with a block off the goals
    ok &= ~b.frozen_window(wall | block, block & ~goal)
    keep = left[ok]
    if blocks < 2 or not len(keep):
        return keep
    # Claim 2 on the rows still in: a bijection blocks → goals along relaxed pushes
    starts = np.concatenate([x[keep] for x in block_each])
    reach = b.reach(np.tile(free[keep], blocks), starts).reshape(blocks, len(keep))
    goals_k = [x[keep] for x in goal_each]
    matched = np.zeros(len(keep), dtype=bool)
    for perm in itertools.permutations(range(blocks)):
        m = np.ones(len(keep), dtype=bool)
        for i, g in enumerate(perm):
            m &= (reach[i] & goals_k[g]) != 0
        matched |= m
    return keep[matched]


def _union(bits: np.ndarray, rows: int) -> np.ndarray:
    """The union of ``bits``' arrays (one per drawn cell), row by row."""
    out = np.zeros(rows, dtype=np.uint64)
    for x in bits:
        out |= x
    return out
