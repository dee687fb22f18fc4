"""FrozenLake maps (Table 5: sizes 4/5/6, hole density 0.2 → 0.4).

Maps are drawn as Gymnasium's ``generate_random_map`` draws them
(gymnasium/envs/toy_text/frozen_lake.py), reimplemented on the caller's
Generator: start at (0, 0), goal at (N-1, N-1), ``rng.choice(["F", "H"], (N, N),
p=[1 - density, density])`` with the start and goal tiles then overwritten, and
the whole board redrawn until a hole-free path joins start and goal. With
``rng = numpy.random.default_rng(s)`` the map is Gymnasium's
``generate_random_map(N, p=1 - density, seed=s)`` (a test checks this). The
number of holes is therefore binomial, not fixed.

The plan (:func:`svot.problem_gen.solve`'s, asked for by ``generate``) is a shortest plan found by
breadth-first search on the grounded engine. Holes are absorbing in the PDDL (no move leaves one), so no plan goes
through a hole, and the search needs no failure test of its own.
"""

from __future__ import annotations

import functools

import numpy as np

from svot.domains.frozenlake.spec import SPEC
from svot.domains.frozenlake.table5 import TABLE5
from svot.errors import ProblemError
from svot.problem_gen.common import MAX_ATTEMPTS, Draw, Generated, finish
from svot.problem_gen.grounding import cell_bits, kept_per_size, shared_grounding

DOMAIN = "frozenlake"


def sampling_params(size: int, split: str) -> dict:
    return {"hole_density": TABLE5["hole_density"][split]}


def sample_board(size: int, density: float, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Gymnasium's loop: (board of 'S'/'F'/'H'/'G', number of boards drawn)."""
    holes, attempt = sample_holes(size, density, rng)
    board = np.where(holes, "H", "F")
    board[0][0] = "S"
    board[-1][-1] = "G"
    return board, attempt


def sample_holes(size: int, density: float, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """:func:`sample_board`'s loop as a boolean hole grid (no strings): the same boards.

    ``rng.choice(["F", "H"], shape, p=[p, 1 - p])`` is ``rng.random(shape)`` read against the
    cumulative ``p`` (numpy's Generator.choice: ``cdf = p.cumsum(); cdf /= cdf[-1]``, then
    ``searchsorted(side="right")``), so a tile is a hole exactly when its draw is ``>= cdf[0]``.
    """
    holes, attempts = _first_board(size, density, rng)
    return _cells_grid(size, holes), attempts


def _first_board(size: int, density: float, rng: np.random.Generator) -> tuple[int, int]:
    """``(holes, attempts)`` of :func:`sample_holes`, the holes as the bits of an int (bit ``i`` the cell ``i``).

    The boards are drawn a batch at a time (``rng.random((k, N, N))`` draws the doubles of ``k`` successive
    ``rng.random((N, N))`` calls) and read in order: the board kept is the one-by-one loop's, and the
    boards drawn past it are thrown away (a caller draws each problem from its own Generator).
    """
    p = min(1, 1 - density)  # Gymnasium's p is the probability of a frozen tile
    if not 0 <= p <= 1:  # numpy refuses such probabilities: let it say so
        rng.choice(["F", "H"], (size, size), p=[p, 1 - p])
    frozen_below = _frozen_below(p)
    masks = _path_masks(size)
    full = masks[1]
    drawn, batch = 0, _FIRST_BATCH
    while drawn < MAX_ATTEMPTS:
        batch = min(batch, MAX_ATTEMPTS - drawn)
        frozen = rng.random((batch, size * size)) < frozen_below
        rows = np.packbits(frozen, axis=1, bitorder="little").tobytes()
        width = len(rows) // batch
        for i in range(batch):
            # the start and goal tiles are overwritten (frozen): the first and last bits
            free = int.from_bytes(rows[i * width : (i + 1) * width], "little") & full | 1 | masks[4]
            if _free_path(masks, free):
                return full & ~free, drawn + i + 1
        drawn += batch
        batch *= 2
    raise ProblemError(
        f"no frozenlake {size}x{size} board with hole density {density} had a path in {MAX_ATTEMPTS} draws"
    )


_FIRST_BATCH = 4  # boards drawn at once at first (most sizes keep one of the first few), doubling after


@functools.lru_cache(maxsize=None)
def _frozen_below(p: float) -> float:
    """``cdf[0]`` as numpy's ``choice`` computes it for ``p=[p, 1 - p]``."""
    cdf = np.array([p, 1 - p], dtype=float).cumsum()
    cdf /= cdf[-1]
    return float(cdf[0])


def _corner_path(size: int, hole: np.ndarray) -> bool:
    """Whether hole-free single-cell moves join (0, 0) and (N-1, N-1): a flood fill over the cells as bits."""
    return _path_on(_path_masks(size), hole)


@functools.lru_cache(maxsize=None)
def _path_masks(size: int) -> tuple[int, int, int, int, int]:
    """(size, full, not_first, not_last, goal) cell bitmasks for :func:`_path_on`, once per size."""
    row = (1 << size) - 1
    full = (1 << size * size) - 1
    not_first = not_last = 0  # columns a left / right shift may enter
    for r in range(size):
        not_first |= (row & ~1) << (r * size)
        not_last |= (row >> 1) << (r * size)
    return size, full, not_first, not_last, 1 << (size * size - 1)


def _path_on(masks: tuple, hole: np.ndarray) -> bool:
    free = int.from_bytes(np.packbits(~hole.reshape(-1), bitorder="little").tobytes(), "little") & masks[1]
    return _free_path(masks, free)


def _free_path(masks: tuple, free: int) -> bool:
    """:func:`_path_on` of the board whose hole-free cells are the bits of ``free``."""
    size, full, not_first, not_last, goal = masks
    reach = 1 & free
    while True:
        grown = reach | ((reach << 1) & not_first) | ((reach >> 1) & not_last) | ((reach << size) & full) | (reach >> size)
        grown &= free
        if grown & goal:
            return True
        if grown == reach:
            return False
        reach = grown


def layout_from_board(board: np.ndarray) -> dict:
    return layout_from_holes(np.asarray(board) == "H")


def layout_from_holes(holes: np.ndarray) -> dict:
    size = len(holes)
    return {
        "domain": DOMAIN,
        "size": size,
        "player": [0, 0],
        "holes": [[i // size, i % size] for i in np.flatnonzero(holes).tolist()],  # row-major: sorted
        "goal": [size - 1, size - 1],
        "start": [0, 0],
    }


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """A board with a path (Gymnasium's loop), as the bits of its initial state; its Problem built when first read."""
    params = sampling_params(size, split)
    holes, attempts = _first_board(size, params["hole_density"], rng)
    t = _init_bits(size)
    kept = {**params, "holes": holes.bit_count(), "attempts": attempts}
    build = functools.partial(_package, size, split, holes, kept)
    return Draw(DOMAIN, size, split, kept, build, t.init_of(holes), t.goal_pos, 0, t.grounding.shared)


def _cells_grid(size: int, cells: int) -> np.ndarray:
    """The (size, size) boolean grid of the cells whose bits are set in ``cells`` (bit ``i`` the cell ``i``)."""
    n2 = size * size
    raw = np.frombuffer(cells.to_bytes((n2 + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=n2, bitorder="little").astype(bool).reshape(size, size)


class _InitBits:
    """The shared grounding's bits of a board's initial atoms (``problem_from_state`` of ``layout_from_holes``):
    ``(at c0)``, ``(start c0)``, ``(goal cL)`` and ``(hole c)`` per cell index; the goal ``(at cL)``.

    ``hole_tables[k][v]``: the OR of the ``(hole c)`` bits of cells ``8k + j`` for the bits ``j`` of the byte
    ``v``, so that a board's hole bits cost one lookup per byte of its hole cells (:meth:`init_of`), not one
    per hole."""

    def __init__(self, size: int):
        self.grounding = shared_grounding(SPEC, size)
        at, self.hole, start, goal = cell_bits(self.grounding, size, ("at", "hole", "start", "goal"))
        last = size * size - 1
        self.base = at[0] | start[0] | goal[last]
        self.goal_pos = at[last]
        self.hole_tables = [_byte_table(self.hole[k : k + 8]) for k in range(0, len(self.hole), 8)]

    def init_of(self, hole_cells: int) -> int:
        """The initial state's bits of the board whose holes are the bits of ``hole_cells``."""
        init = self.base
        for table in self.hole_tables:
            init |= table[hole_cells & 255]
            hole_cells >>= 8
        return init


def _byte_table(masks: list[int]) -> list[int]:
    """Per byte value ``v`` (0..255), the OR of ``masks[j]`` over the bits ``j`` of ``v`` (``masks``: up to 8)."""
    table = [0]
    for j in range(8):
        add = masks[j] if j < len(masks) else 0
        table += [t | add for t in table]  # the values with bit j set follow those without, in order
    return table


_init_bits = kept_per_size(SPEC, _InitBits)


def _package(size: int, split: str, holes: int, params: dict) -> Generated:
    layout = layout_from_holes(_cells_grid(size, holes))
    return finish(SPEC, size, split, layout, None, params)
