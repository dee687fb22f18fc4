"""FrozenLake maps (Table 5: sizes 4/5/6, hole density 0.2 → 0.4).

Maps are drawn as Gymnasium's ``generate_random_map`` draws them
(gymnasium/envs/toy_text/frozen_lake.py), reimplemented on the caller's
Generator: start at (0, 0), goal at (N-1, N-1), ``rng.choice(["F", "H"], (N, N),
p=[1 - density, density])`` with the start and goal tiles then overwritten, and
the whole board redrawn until a hole-free path joins start and goal. With
``rng = numpy.random.default_rng(s)`` the map is Gymnasium's
``generate_random_map(N, p=1 - density, seed=s)`` (a test checks this). The
number of holes is therefore binomial, not fixed.

The plan is a shortest plan found by breadth-first search on the grounded
engine. Holes are absorbing in the PDDL (no move leaves one), so no plan goes
through a hole, and the search needs no failure test of its own.
"""

from __future__ import annotations

import functools

import numpy as np

from svot.domains.frozenlake.spec import SPEC
from svot.domains.frozenlake.table5 import TABLE5
from svot.errors import ProblemError
from svot.problem_gen.common import MAX_ATTEMPTS, Generated, finish, problem_name
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
    """:func:`sample_board`'s loop as a boolean hole grid (no strings): the same draws, the same boards.

    ``rng.choice(["F", "H"], shape, p=[p, 1 - p])`` is ``rng.random(shape)`` read against the
    cumulative ``p`` (numpy's Generator.choice: ``cdf = p.cumsum(); cdf /= cdf[-1]``, then
    ``searchsorted(side="right")``), so a tile is a hole exactly when its draw is ``>= cdf[0]``
    (a test compares the boards and the generator states with ``rng.choice``'s).
    """
    p = min(1, 1 - density)  # Gymnasium's p is the probability of a frozen tile
    if not 0 <= p <= 1:  # numpy refuses such probabilities: let it say so
        rng.choice(["F", "H"], (size, size), p=[p, 1 - p])
    frozen_below = _frozen_below(p)
    masks = _path_masks(size)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        holes = rng.random((size, size)) >= frozen_below
        holes[0, 0] = holes[-1, -1] = False  # the start and goal tiles are overwritten
        if _path_on(masks, holes):
            return holes, attempt
    raise ProblemError(
        f"no frozenlake {size}x{size} board with hole density {density} had a path in {MAX_ATTEMPTS} draws"
    )


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


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    params = sampling_params(size, split)
    holes, attempts = sample_holes(size, params["hole_density"], rng)
    return _package(size, split, params, holes, attempts, plan)


class Drawn:
    """A board drawn as :func:`generate` draws it, as the bits of its initial state over the size's shared
    grounding (:func:`draw_bits`); :meth:`generated` is what ``generate(size, split, rng, plan=False)`` returns
    for the same draws, built when first asked for. ``hole_cells``: the holes as the bits of an int (bit ``i``
    the cell ``i`` in row-major order); ``holes``, the same as a boolean grid, is built when read."""

    __slots__ = ("size", "split", "params", "hole_cells", "attempts", "init", "goal_pos", "shared", "_generated")

    def __init__(self, size, split, params, hole_cells, attempts, init, goal_pos, shared):
        self.size, self.split, self.params, self.hole_cells, self.attempts = size, split, params, hole_cells, attempts
        self.init, self.goal_pos, self.shared = init, goal_pos, shared
        self._generated = None

    @property
    def holes(self) -> np.ndarray:
        return _holes_grid(self.size, self.hole_cells)

    def generated(self) -> Generated:
        if self._generated is None:
            self._generated = _package(self.size, self.split, self.params, self.holes, self.attempts, False)
        return self._generated

    def problem(self):
        return self.generated().problem


def _holes_grid(size: int, hole_cells: int) -> np.ndarray:
    """The (size, size) boolean grid of the cells whose bits are set in ``hole_cells``."""
    n2 = size * size
    raw = np.frombuffer(hole_cells.to_bytes((n2 + 7) // 8, "little"), np.uint8)
    return np.unpackbits(raw, count=n2, bitorder="little").astype(bool).reshape(size, size)


def _cells_int(holes: np.ndarray) -> int:
    """A boolean grid's set cells as the bits of an int (row-major): :func:`_holes_grid`'s inverse."""
    return int.from_bytes(np.packbits(holes.reshape(-1), bitorder="little").tobytes(), "little")


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


def draw_bits(size: int, split: str, rng: np.random.Generator) -> Drawn:
    """:func:`generate`'s draws (the same ``rng`` calls), kept as bits: the env's reset builds its engine from
    them (:meth:`svot.engine.grounded.SharedGroundedEngine.from_bits`) and the Problem only when it is read.
    A test checks the bits against ``bind`` of ``generate``'s problem."""
    params = sampling_params(size, split)
    holes, attempts = sample_holes(size, params["hole_density"], rng)
    t = _init_bits(size)
    hole_cells = _cells_int(holes)
    return Drawn(size, split, params, hole_cells, attempts, t.init_of(hole_cells), t.goal_pos, t.grounding.shared)


_WORD_CELLS = 64  # boards of up to this many cells are path-checked as numpy uint64 words, a batch at once


class BitStream:
    """:func:`draw_bits` over and over on one ``rng``, its boards drawn ``rng.random((K, N, N))`` at a time.

    ``rng.random((K, N, N))`` draws the very doubles of ``K`` successive ``rng.random((N, N))`` calls, and
    the boards are read in draw order, each problem's attempts counted as :func:`sample_holes` counts
    them: calling the stream gives the problems (and ``attempts``) successive :func:`draw_bits` calls
    give, as long as nothing else draws from ``rng`` in between (it runs ahead of them by up to a batch).
    A batch's boards are path-checked together (:func:`_paths_exist`) where a board fits a 64-bit word.
    """

    def __init__(self, size: int, split: str, rng: np.random.Generator, largest: int = 256):
        self.size, self.split, self.rng = size, split, rng
        self.params = sampling_params(size, split)
        p = min(1, 1 - self.params["hole_density"])
        if not 0 <= p <= 1:  # numpy refuses such probabilities: let it say so
            rng.choice(["F", "H"], (size, size), p=[p, 1 - p])
        self.frozen_below = _frozen_below(p)
        self.masks = _path_masks(size)
        self.bits = _init_bits(size)
        self.batch, self.largest = 8, largest
        self.drawn = 0  # boards in the current batch
        self.kept: list[int] = []  # the current batch's boards with a path: their indices in it, ascending
        self.kept_free: list[int] = []  # ... and their free cells as bit ints
        self.next_kept = 0  # the first of `kept` not yet handed out
        self.next_board = 0  # the first board of the batch not yet read

    def _refill(self) -> None:
        n = self.size
        holes = self.rng.random((self.batch, n, n)) >= self.frozen_below
        holes[:, 0, 0] = holes[:, -1, -1] = False  # the start and goal tiles are overwritten
        free_rows = np.packbits(~holes.reshape(self.batch, n * n), axis=1, bitorder="little")
        if n * n <= _WORD_CELLS:
            words = np.zeros((self.batch, 8), np.uint8)
            words[:, : free_rows.shape[1]] = free_rows
            free = words.view("<u8").reshape(self.batch) & np.uint64(self.masks[1])
            ok = _paths_exist(self.masks, free)
            self.kept = np.flatnonzero(ok).tolist()
            self.kept_free = free[ok].tolist()
        else:
            full, masks = self.masks[1], self.masks
            frees = [int.from_bytes(row, "little") & full for row in map(bytes, free_rows)]
            self.kept = [i for i, f in enumerate(frees) if _free_path(masks, f)]
            self.kept_free = [frees[i] for i in self.kept]
        self.drawn, self.next_kept, self.next_board = self.batch, 0, 0
        self.batch = min(2 * self.batch, self.largest)

    def __call__(self) -> Drawn:
        attempt = 0  # boards read for this problem
        while self.next_kept == len(self.kept):  # no board with a path left in this batch: all are read
            attempt += self.drawn - self.next_board
            if attempt >= MAX_ATTEMPTS:
                self._give_up()
            self._refill()
        i = self.kept[self.next_kept]
        attempt += i + 1 - self.next_board
        if attempt > MAX_ATTEMPTS:
            self._give_up()
        free = self.kept_free[self.next_kept]
        self.next_kept, self.next_board = self.next_kept + 1, i + 1
        hole_cells = ~free & self.masks[1]
        t = self.bits
        return Drawn(self.size, self.split, self.params, hole_cells, attempt, t.init_of(hole_cells), t.goal_pos, t.grounding.shared)

    def _give_up(self):
        raise ProblemError(
            f"no frozenlake {self.size}x{self.size} board with hole density {self.params['hole_density']} "
            f"had a path in {MAX_ATTEMPTS} draws"
        )


def _paths_exist(masks: tuple, free: np.ndarray) -> np.ndarray:
    """:func:`_free_path` of every board of ``free`` (uint64 words, a board's free cells as its bits), at once:
    the same flood fill on all of them, until no board's reach grows."""
    size, _full, not_first, not_last, goal = masks
    not_first, not_last = np.uint64(not_first), np.uint64(not_last)
    one, row = np.uint64(1), np.uint64(size)
    reach = free & one
    grown, moved = np.empty_like(reach), np.empty_like(reach)
    while True:
        np.left_shift(reach, one, out=grown)
        grown &= not_first
        np.right_shift(reach, one, out=moved)
        moved &= not_last
        grown |= moved
        np.left_shift(reach, row, out=moved)  # bits past the board are not in `free`
        grown |= moved
        np.right_shift(reach, row, out=moved)
        grown |= moved
        grown |= reach
        grown &= free
        if np.array_equal(grown, reach):
            return (reach & np.uint64(goal)) != 0
        reach, grown = grown, reach


def bit_stream(size: int, split: str, rng: np.random.Generator) -> BitStream:
    """A :class:`BitStream`: what the env's resets draw from while its ``np_random`` stays the same object."""
    return BitStream(size, split, rng)


def _package(size: int, split: str, params: dict, holes: np.ndarray, attempts: int, plan: bool) -> Generated:
    spec = SPEC
    layout = layout_from_holes(holes)
    problem = spec.problem_from_state(layout, problem_name(DOMAIN, size, split, layout))
    if not plan:
        params = {**params, "holes": len(layout["holes"]), "attempts": attempts}
        return finish(spec, size, split, layout, None, params, problem)
    plan = bfs_plan(problem, size)
    if plan is None:  # the board's path check and the engine disagree: a bug, not bad luck
        raise ProblemError(f"{problem.name}: Gymnasium-style path check passed but the engine finds no plan")
    params = {**params, "holes": len(layout["holes"]), "attempts": attempts}
    return finish(spec, size, split, layout, plan, params, problem)


def bfs_plan(problem, size: int, max_states: int = 1_000_000) -> list[int] | None:
    """A shortest plan, by BFS on the PDDL's dynamics.

    No failure test is needed: a hole is absorbing in frozenlake.pddl (no move
    leaves one), so the search never expands past it, and a plan never
    crosses one (the env would end the episode there).
    """
    grounding = shared_grounding(SPEC, size)
    bound = grounding.bind(problem)
    return grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg, max_states=max_states).plan
