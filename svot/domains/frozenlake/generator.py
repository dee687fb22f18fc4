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

from svot.domains import get_spec
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
    for the same draws, built when first asked for."""

    __slots__ = ("size", "split", "params", "holes", "attempts", "init", "goal_pos", "shared", "_generated")

    def __init__(self, size, split, params, holes, attempts, init, goal_pos, shared):
        self.size, self.split, self.params, self.holes, self.attempts = size, split, params, holes, attempts
        self.init, self.goal_pos, self.shared = init, goal_pos, shared
        self._generated = None

    def generated(self) -> Generated:
        if self._generated is None:
            self._generated = _package(self.size, self.split, self.params, self.holes, self.attempts, False)
        return self._generated

    def problem(self):
        return self.generated().problem


class _InitBits:
    """The shared grounding's bits of a board's initial atoms (``problem_from_state`` of ``layout_from_holes``):
    ``(at c0)``, ``(start c0)``, ``(goal cL)`` and ``(hole c)`` per cell index; the goal ``(at cL)``."""

    def __init__(self, size: int):
        self.grounding = shared_grounding(DOMAIN, size)
        at, self.hole, start, goal = cell_bits(self.grounding, size, ("at", "hole", "start", "goal"))
        last = size * size - 1
        self.base = at[0] | start[0] | goal[last]
        self.goal_pos = at[last]


_init_bits = kept_per_size(DOMAIN, _InitBits)


def draw_bits(size: int, split: str, rng: np.random.Generator) -> Drawn:
    """:func:`generate`'s draws (the same ``rng`` calls), kept as bits: the env's reset builds its engine from
    them (:meth:`svot.engine.grounded.SharedGroundedEngine.from_bits`) and the Problem only when it is read.
    A test checks the bits against ``bind`` of ``generate``'s problem."""
    params = sampling_params(size, split)
    holes, attempts = sample_holes(size, params["hole_density"], rng)
    t = _init_bits(size)
    init = t.base
    hole = t.hole
    for i in np.flatnonzero(holes).tolist():
        init |= hole[i]
    return Drawn(size, split, params, holes, attempts, init, t.goal_pos, t.grounding.shared)


class BitStream:
    """:func:`draw_bits` over and over on one ``rng``, its boards drawn ``rng.random((K, N, N))`` at a time.

    ``rng.random((K, N, N))`` draws the very doubles of ``K`` successive ``rng.random((N, N))`` calls, and
    the boards are read in draw order, each problem's attempts counted as :func:`sample_holes` counts
    them: calling the stream gives the problems (and ``attempts``) successive :func:`draw_bits` calls
    give, as long as nothing else draws from ``rng`` in between (it runs ahead of them by up to a batch).
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
        self.free: list[int] = []  # the drawn boards' free cells as bit ints, not yet read
        self.next_board = 0

    def _refill(self) -> None:
        n = self.size
        holes = self.rng.random((self.batch, n, n)) >= self.frozen_below
        holes[:, 0, 0] = holes[:, -1, -1] = False  # the start and goal tiles are overwritten
        packed = np.packbits(~holes.reshape(self.batch, n * n), axis=1, bitorder="little")
        full = self.masks[1]
        self.free = [int.from_bytes(row, "little") & full for row in map(bytes, packed)]
        self.next_board = 0
        self.batch = min(2 * self.batch, self.largest)

    def __call__(self) -> Drawn:
        masks = self.masks
        for attempt in range(1, MAX_ATTEMPTS + 1):
            if self.next_board == len(self.free):
                self._refill()
            free = self.free[self.next_board]
            self.next_board += 1
            if _free_path(masks, free):
                break
        else:
            raise ProblemError(
                f"no frozenlake {self.size}x{self.size} board with hole density {self.params['hole_density']} "
                f"had a path in {MAX_ATTEMPTS} draws"
            )
        n2 = self.size * self.size
        holes_bits = ~free & masks[1]
        t = self.bits
        init = t.base
        hole = t.hole
        cells = []
        while holes_bits:
            low = holes_bits & -holes_bits
            i = low.bit_length() - 1
            cells.append(i)
            init |= hole[i]
            holes_bits ^= low
        holes = np.zeros(n2, bool)
        holes[cells] = True
        return Drawn(self.size, self.split, self.params, holes.reshape(self.size, self.size), attempt, init, t.goal_pos, t.grounding.shared)


def bit_stream(size: int, split: str, rng: np.random.Generator) -> BitStream:
    """A :class:`BitStream`: what the env's resets draw from while its ``np_random`` stays the same object."""
    return BitStream(size, split, rng)


def _package(size: int, split: str, params: dict, holes: np.ndarray, attempts: int, plan: bool) -> Generated:
    spec = get_spec(DOMAIN)
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
    grounding = shared_grounding(DOMAIN, size)
    bound = grounding.bind(problem)
    return grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg, max_states=max_states).plan
