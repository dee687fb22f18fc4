"""Sokoban problems (Table 5: sizes 4/5/6, wall density 0.2 → 0.3, blocks 1–2 → 2 or 3).

Table 5 gives the block numbers for sizes 4 (1–2 → 2) and 5 (1–2 → 3) and leaves
size 6 blank; we assume size 5's values for size 6 (1–2 ID, 3 OOD). The ID
number of blocks is drawn uniformly from {1, 2} once per problem, before the
layouts are drawn and rejected, so kept problems are half 1-block, half
2-block (redrawing it with each layout would favour 1 block, which is solvable
more often). Sizes outside Table 5 (only
with ``allow_any_size=True``) borrow the nearest Table size's block numbers.

Sampling: ``walls = round(density * N * N)`` (halves up: 3/5/7 walls ID and
5/8/11 OOD for N = 4/5/6), then the player, the blocks and as many goal squares
as blocks, all on distinct cells from one permutation of the grid. A goal square
never coincides with a block's start (so every block must be pushed at least
once) nor with the player's start.

Solvability is breadth-first search on the grounded engine: every successor
comes from the PDDL's ground actions. The search may skip states that provably
cannot reach the goal (see :func:`dead_masks`), which changes neither the
verdict nor the plan found; it gives up after ``max_states`` states and the
layout is then redrawn like an unsolvable one. :func:`sample` asks only for the verdict:
the engine's region search, compiled where Numba loads (:mod:`svot.engine.region_kernel`), which
meets the same states as the interpreted one (kept as the compiled one's reference and for where
Numba cannot compile).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from svot.domains.sokoban.spec import SPEC
from svot.kernel.grid import Cell, cell_name
from svot.domains.sokoban.screen import MAX_SIZE as MAX_SCREEN_SIZE, surviving_rows
from svot.domains.sokoban.table5 import TABLE5
from svot.engine.search import SearchResult
from svot.errors import ConfigError
from svot.problem_gen.cells import index_cell, index_cells_list
from svot.problem_gen.common import (
    MAX_ATTEMPTS,
    Draw,
    Generated,
    attempts_exhausted,
    count_for,
    finish,
    nearest_table_size,
)
from svot.problem_gen.grounding import Bound, cell_bits, kept_per_size, shared_grounding

DOMAIN = "sokoban"
MAX_STATES = 200_000


def sampling_params(size: int, split: str, rng: np.random.Generator | None = None) -> dict:
    density = TABLE5["wall_density"][split]
    lo, hi = TABLE5["blocks"][nearest_table_size(SPEC, size)][split]
    walls = count_for(density, size * size)
    if size * size - walls < 1 + 2 * hi:
        raise ConfigError(
            f"sokoban {size}x{size} {split}: {walls} walls leave no room for a player, {hi} blocks and {hi} goals"
        )
    out = {"wall_density": density, "walls": walls, "blocks_range": [lo, hi]}
    if rng is not None:
        out["blocks"] = int(rng.integers(lo, hi + 1))
    return out


def draw(size: int, walls: int, blocks: int, rng: np.random.Generator) -> list[int]:
    """Cell indices ``r * N + c``: walls, then the player, the blocks, the goals."""
    return [int(i) for i in rng.permutation(size * size)[: walls + 1 + 2 * blocks]]


def layout_from_draw(size: int, walls: int, blocks: int, drawn: list[int]) -> dict:
    drawn = [int(i) for i in drawn]
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(index_cell(drawn[walls], size)),
        "walls": index_cells_list(drawn[:walls], size),
        "blocks": index_cells_list(drawn[walls + 1 : walls + 1 + blocks], size),
        "goals": index_cells_list(drawn[walls + 1 + blocks :], size),
    }


def sample_layout(size: int, walls: int, blocks: int, rng: np.random.Generator) -> dict:
    return layout_from_draw(size, walls, blocks, draw(size, walls, blocks, rng))


# --- static reasoning on the grid: a search heuristic, never a transition rule ----------
#
# Relaxation. Forget the player's position and every other block. A push of a
# block from x to x+d in the real game needs the player on x-d and x+d free; so
# x-d and x+d are inside the grid and not walls. Call that a relaxed push. Every
# real push of a block is a relaxed push, hence the cells a block visits in any
# real play are relaxed-reachable from its start.
#
# Claim 1 (dead cells). The goal asks for a block on each of the n goal squares
# with n blocks, so in a goal state *every* block stands on a goal square. A
# block on a cell from which no goal square is relaxed-reachable can never get
# there, so any state with a block on such a "dead" cell cannot reach the goal.
#
# Claim 2 (matching). In a goal state the blocks sit on distinct goal squares, so
# block i ends on goal pi(i) for a bijection pi with pi(i) relaxed-reachable
# from block i's start. No such bijection: unsolvable.
#
# Claim 3 (frozen squares). If the four cells of a 2x2 window are each a wall or
# a block, none of those blocks can ever move: pushing block b in direction d
# needs b-d (player) and b+d (free) both free of walls and blocks, and for each
# direction one of b-d, b+d lies in the window. By induction on time no block of
# the window is the first to move. If one of them is not on a goal square it
# never will be, so the state is dead.
#
# These predicates only remove states that cannot reach the goal; every
# predecessor of a state that can reach the goal can too, so breadth-first
# search with them expands the same live states in the same order and returns
# the very plan plain BFS returns (tests check this against svot.engine.bfs_plan
# on generated problems, hypothesis-driven, and check the bitboards below
# against a cell-by-cell reading of the claims).
#
# The relaxed searches run on bitboards: bit r*N + c is cell (r, c).

class Board:
    """Bitboard shifts for an N×N grid."""

    def __init__(self, size: int):
        self.size = size
        self.full = (1 << size * size) - 1
        self.not_col0 = self.full & ~sum(1 << (r * size) for r in range(size))
        self.not_col_last = self.full & ~sum(1 << (r * size + size - 1) for r in range(size))
        self.top_or_bottom = (1 << size) - 1 | ((1 << size) - 1) << (size * (size - 1))
        self.left_or_right = self.full & ~(self.not_col0 & self.not_col_last)

    def cornered(self, walls: int) -> int:
        """Cells with a wall or the grid's edge above or below them, and one left or right of them: a lone
        block there cannot be pushed at all (a push needs both cells of a line free), so off the goals it
        is dead (Claim 1's simplest case, a few int operations: it refuses most draws)."""
        n = self.size
        vertical = self.top_or_bottom | (walls << n) & self.full | walls >> n
        horizontal = self.left_or_right | (walls << 1) & self.not_col0 | (walls >> 1) & self.not_col_last
        return vertical & horizontal

    def toward(self, b: int, d: str) -> int:
        """Cells x whose neighbour x+d (inside the grid) is in ``b``."""
        n = self.size
        if d == "up":
            return (b << n) & self.full
        if d == "down":
            return b >> n
        if d == "left":
            return (b << 1) & self.not_col0
        return (b >> 1) & self.not_col_last

    def bits(self, cells) -> int:
        return sum(1 << (r * self.size + c) for r, c in cells)

    def cells(self, b: int) -> list[Cell]:
        return [divmod(i, self.size) for i in range(self.size * self.size) if b >> i & 1]

    def live(self, free: int, goals: int) -> int:
        """Claim 1: free cells from which a lone block can be pushed onto some goal.

        For each direction d: x joins when x and x-d are free and x+d is live (:meth:`toward`
        inlined, its column masks folded into the free pairs)."""
        n = self.size
        up = free & (free >> n)  # toward(free, down); then toward(live, up)
        down = free & (free << n)  # toward(free, up); then toward(live, down)
        left = free & (free >> 1) & self.not_col_last & self.not_col0  # toward(free, right); toward(live, left)
        right = free & (free << 1) & self.not_col0 & self.not_col_last  # toward(free, left); toward(live, right)
        live = goals
        while True:
            new = live | up & (live << n) | down & (live >> n) | left & (live << 1) | right & (live >> 1)
            if new == live:
                break
            live = new
        return live

    def reach(self, free: int, start: int) -> int:
        """Cells a lone block on ``start`` can be pushed to: x in reach, x-d free and x+d free → x+d
        (:meth:`toward` inlined)."""
        n = self.size
        ncl, nc0 = self.not_col_last, self.not_col0
        up, down = free >> n, (free << n) & self.full  # the player's cell free, per direction
        left, right = (free >> 1) & ncl, (free << 1) & nc0
        free_ncl, free_nc0 = free & ncl, free & nc0
        reach = start
        while True:
            new = (
                reach
                | ((reach & up) >> n) & free
                | ((reach & down) << n) & free
                | ((reach & left) >> 1) & free_ncl
                | ((reach & right) << 1) & free_nc0
            )
            if new == reach:
                return reach
            reach = new


@functools.lru_cache(maxsize=None)
def board(size: int) -> Board:
    return Board(size)


def quick_reject_bits(size: int, walls: int, blocks: list[int], goals: list[int]) -> bool:
    """Claims 1–2 on bitboards (``blocks``, ``goals``: one bit each). True: certainly unsolvable."""
    b = board(size)
    goal_bits = 0
    for g in goals:
        goal_bits |= g
    dead = b.cornered(walls) & ~goal_bits
    for x in blocks:
        if x & dead:
            return True
    free = b.full & ~walls
    live = b.live(free, goal_bits)
    for x in blocks:
        if not x & live:
            return True
    if len(blocks) == 1:
        return False
    reach = [b.reach(free, x) for x in blocks]
    return not any(all(g & r for g, r in zip(perm, reach)) for perm in itertools.permutations(goals))


def quick_reject(layout: dict) -> bool:
    """Claims 1–2 on the initial layout: True when it is certainly unsolvable."""
    if len(layout["blocks"]) != len(layout["goals"]):
        return False  # the claims assume as many blocks as goal squares
    b = board(layout["size"])
    return quick_reject_bits(
        layout["size"],
        b.bits(tuple(w) for w in layout["walls"]),
        [b.bits([tuple(x)]) for x in layout["blocks"]],
        [b.bits([tuple(g)]) for g in layout["goals"]],
    )


def dead_cells(size: int, walls: list, goals: list) -> list[Cell]:
    b = board(size)
    free = b.full & ~b.bits(tuple(w) for w in walls)
    return b.cells(free & ~b.live(free, b.bits(tuple(g) for g in goals)))


def frozen_windows(size: int, walls: list, goals: list) -> list[list[Cell]]:
    """Claim 3: for each 2x2 window, its non-wall cells, if filling them all with blocks is dead."""
    wall_set = {tuple(w) for w in walls}
    goal_set = {tuple(g) for g in goals}
    out = []
    for r in range(size - 1):
        for c in range(size - 1):
            window = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            free = [x for x in window if x not in wall_set]
            if free and not all(x in goal_set for x in free):
                out.append(free)
    return out


def dead_masks(bound: Bound, layout: dict) -> tuple[int, list[int]]:
    """``(dead_any, dead_all)`` state masks for :meth:`svot.engine.search.SearchStepper.bfs` (Claims 1 and 3)."""
    size = layout["size"]
    dead_any = 0
    for x in dead_cells(size, layout["walls"], layout["goals"]):
        dead_any |= bound.bit(("block", cell_name(x)))
    dead_all = []
    for free in frozen_windows(size, layout["walls"], layout["goals"]):
        m = 0
        for x in free:
            m |= bound.bit(("block", cell_name(x)))
        dead_all.append(m)
    return dead_any, dead_all


def search(problem, layout: dict | None = None, *, prune: bool = True, max_states: int = MAX_STATES) -> SearchResult:
    """Breadth-first search on the grounded engine, with the pruning above unless ``prune=False``."""
    spec = SPEC
    size = spec.size_of(problem)
    grounding = shared_grounding(SPEC, size)
    bound = grounding.bind(problem)
    if layout is None:
        layout = spec.state_dict(problem.init, size)
    # the claims assume as many blocks as goal squares (true of every generated problem)
    prune = prune and len(layout["blocks"]) == len(layout["goals"])
    dead_any, dead_all = dead_masks(bound, layout) if prune else (0, [])
    return grounding.stepper.bfs(
        bound.init, bound.goal_pos, bound.goal_neg, max_states=max_states, dead_any=dead_any, dead_all=dead_all
    )


# --- the sampler's loop ----------------------------------------------------------------
#
# Draws are taken a batch at a time (``rng.permuted`` on rows of ``arange(N * N)``: the rows of as many
# successive ``rng.permutation(N * N)`` calls) and screened by the static claims at the start (:func:`_screened`). The survivors, in draw order, get the same pruned search as :func:`search`
# (with plan=False the engine's verdict search), on bits read straight off the shared grounding (no
# Problem is built for a refused layout). The first draw the search solves is kept, as in a one-by-one
# loop: the same problem. The rows drawn past it are thrown away (a caller draws each problem from its
# own Generator, svot.problem_gen.draw_rng).

# Rows drawn at once: a first batch screened row by row in Python, stopping at the kept one (ID keeps one of its
# first few draws: 5-15 on average), then batches screened whole in numpy (OOD draws 130-570 per problem),
# doubling up to the largest.
FIRST_BATCH = 64
SECOND_BATCH = 512
LARGEST_BATCH = 4096


class AtomBits:
    """The shared grounding's bits of ``(at c)``, ``(wall c)``, ``(block c)``, ``(goal c)`` by cell index ``r * N + c``."""

    def __init__(self, size: int):
        self.grounding = shared_grounding(SPEC, size)
        self.at, self.wall, self.block, self.goal = cell_bits(self.grounding, size, ("at", "wall", "block", "goal"))
        self.windows = [
            (1 << (r * size + c)) | (1 << (r * size + c + 1)) | (1 << ((r + 1) * size + c)) | (1 << ((r + 1) * size + c + 1))
            for r in range(size - 1)
            for c in range(size - 1)
        ]

    def blocks_on(self, cells: int) -> int:
        """The ``(block c)`` bits of the cells of a bitboard."""
        out = 0
        block = self.block
        while cells:
            low = cells & -cells
            out |= block[low.bit_length() - 1]
            cells ^= low
        return out


atom_bits = kept_per_size(SPEC, AtomBits)


def initial_bits(t: AtomBits, walls: int, blocks: int, drawn: list[int]) -> tuple[int, int, int, int]:
    """A draw's ``(init, goal_pos, wall board, goal board)``: the bound problem's initial bits and goal
    mask over the size's shared grounding (what ``bind`` of its Problem gives; a test checks them), and
    its walls and goal squares as bitboards."""
    wall_board = goal_board = 0
    init = t.at[drawn[walls]]
    for i in drawn[:walls]:
        wall_board |= 1 << i
        init |= t.wall[i]
    goal_pos = 0
    for i in drawn[walls + 1 : walls + 1 + blocks]:
        init |= t.block[i]
    for i in drawn[walls + 1 + blocks :]:
        goal_board |= 1 << i
        init |= t.goal[i]
        goal_pos |= t.block[i]
    return init, goal_pos, wall_board, goal_board


def search_draw(
    size: int, walls: int, blocks: int, drawn: list[int], *, max_states: int = MAX_STATES, plan: bool = True
) -> SearchResult:
    """:func:`search` on the layout of a draw (walls, player, blocks, goals as cell indices), without a Problem.

    The initial bits, the goal mask and the dead masks are those ``search``
    reads off the bound problem (a test checks them against ``bind`` and
    :func:`dead_masks`), less the Claim 3 windows no state can fill (more open
    cells than blocks), so the result is the same.

    ``plan=False`` asks only for the verdict, from the engine's
    :meth:`~svot.engine.search.SearchStepper.reachable` (the same successors, the
    dead states of Claim 1, no plan: ``SearchResult.plan`` is then ``[]`` when
    solvable), where no search of the layout can reach ``max_states`` states
    (:func:`state_bound`): the verdict is then breadth-first search's (whatever
    dead states it skips, as none can reach the goal). Otherwise
    it is breadth-first search as with ``plan=True``.
    """
    t = atom_bits(size)
    bits = initial_bits(t, walls, blocks, drawn)
    return _search_bits(t, size, blocks, bits, _verdict_only(size, walls, blocks, plan, max_states), max_states)


def _verdict_only(size: int, walls: int, blocks: int, plan: bool, max_states: int) -> bool:
    """Whether :func:`search_draw` asks the verdict search (else breadth-first search, which plans)."""
    return not plan and state_bound(size, walls, blocks) <= max_states


def _search_bits(t: AtomBits, size: int, blocks: int, bits: tuple, verdict: bool, max_states: int) -> SearchResult:
    """:func:`search_draw` on a draw's :func:`initial_bits` (the sampler reads them once per draw)."""
    init, goal_pos, wall_board, goal_board = bits
    b = board(size)
    free = b.full & ~wall_board
    dead_any = t.blocks_on(free & ~b.live(free, goal_board))
    stepper = t.grounding.stepper
    if verdict:
        # Claim 1 only: Claim 3's windows cost a verdict more to set up than they save it
        reach = stepper.reachable(init, goal_pos, 0, max_states=max_states, dead_any=dead_any)
        return SearchResult([] if reach.found else None, reach.states, reach.complete)
    dead_all = []
    for w in t.windows:
        open_cells = w & free
        # Claim 3: filling the window's open cells is dead. A window with more open cells than there are
        # blocks is left out: a walk leaves the (block c) atoms alone and a push deletes one and adds
        # one, so every state holds as many as the start and none fills it.
        if open_cells & ~goal_board and open_cells.bit_count() <= blocks:
            dead_all.append(t.blocks_on(open_cells))
    return stepper.bfs(init, goal_pos, 0, max_states=max_states, dead_any=dead_any, dead_all=dead_all)


def state_bound(size: int, walls: int, blocks: int) -> int:
    """How many states a search from a layout can meet, at most: in every state the player and the
    blocks stand on distinct cells that are not walls (a walk enters a cell with no wall and no block;
    a push moves a block onto such a cell and the player onto the block's), so
    ``free * C(free - 1, blocks)`` with ``free = N * N - walls`` (a test checks it against searches)."""
    free = size * size - walls
    return free * math.comb(max(free - 1, 0), blocks)


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """One solvable layout (its solvability decided by the verdict search, :func:`search_draw` with
    ``plan=False``) as the bits of its initial state; its Problem built when first read. The plan waits
    until asked for (:func:`svot.problem_gen.solve`: breadth-first search), unless the verdict already
    was that search (a board too large for the verdict search's bound)."""
    params, cells, attempt, result, (init, goal_pos, _walls, _goals) = kept_draw(size, split, rng, plan=False)
    kept = {**params, "attempts": attempt}
    plan = result.plan if _verdict_only(size, params["walls"], params["blocks"], False, MAX_STATES) is False else None
    build = functools.partial(_package, size, split, kept, cells, plan)
    return Draw(DOMAIN, size, split, kept, build, init, goal_pos, 0, atom_bits(size).grounding.shared)


def kept_draw(size: int, split: str, rng: np.random.Generator, *, plan: bool = False, max_states: int = MAX_STATES):
    """The sampler's loop: ``(params, the kept draw's cell indices, attempts, its search's result, its
    initial_bits)``; ``attempts`` counts the draws up to the kept one, as a one-by-one loop would."""
    params = sampling_params(size, split, rng)  # the block count is drawn once, before any rejection
    w, n = params["walls"], params["blocks"]
    k = w + 1 + 2 * n
    t = atom_bits(size)
    verdict = _verdict_only(size, w, n, plan, max_states)
    drawn, batch = 0, FIRST_BATCH
    while drawn < MAX_ATTEMPTS:
        batch = min(batch, MAX_ATTEMPTS - drawn)
        rows = _draw_rows(rng, size * size, batch, k)
        for j in _screened(size, w, n, rows):
            cells = rows[j].tolist()
            bits = initial_bits(t, w, n, cells)
            result = _search_bits(t, size, n, bits, verdict, max_states)
            if result.solved:
                return params, cells, drawn + j + 1, result, bits
        drawn += batch
        batch = SECOND_BATCH if batch == FIRST_BATCH else min(2 * batch, LARGEST_BATCH)
    raise attempts_exhausted(DOMAIN, size, split, MAX_ATTEMPTS)


def _draw_rows(rng: np.random.Generator, n: int, rows: int, k: int) -> np.ndarray:
    """``rows`` successive ``rng.permutation(n)`` draws as the rows of one array, their first ``k`` cells."""
    return rng.permuted(_identity_rows(n, rows), axis=1)[:, :k]


@functools.lru_cache(maxsize=None)
def _identity_rows(n: int, rows: int) -> np.ndarray:
    out = np.tile(np.arange(n), (rows, 1))
    out.setflags(write=False)
    return out


def _screened(size: int, walls: int, blocks: int, rows: np.ndarray):
    """The rows the static claims do not refuse, ascending. Two screens, as neither serves every batch: numpy's
    (Claims 1–3, :func:`~svot.domains.sokoban.screen.surviving_rows`) runs on uint64 bitboards, so only up
    to 8x8, and its fixed cost per call outweighs the first batch's few rows; there the rows are read one by
    one in Python (Claims 1–2), stopping at the one kept. Either keeps the same first solvable draw: the claims
    refuse only unsolvable draws, and the search refuses what Claim 3 refuses at the start."""
    if size <= MAX_SCREEN_SIZE and len(rows) > FIRST_BATCH:
        return surviving_rows(size, walls, blocks, rows).tolist()
    return (j for j in range(len(rows)) if not _quick_reject_draw(size, walls, blocks, rows[j].tolist()))


def _package(size: int, split: str, params: dict, drawn: list[int], plan: list[int] | None) -> Generated:
    layout = layout_from_draw(size, params["walls"], params["blocks"], drawn)
    return finish(SPEC, size, split, layout, plan, params)


def _quick_reject_draw(size: int, walls: int, blocks: int, drawn: list[int]) -> bool:
    bits = [1 << i for i in drawn]
    wall_board = 0
    for x in bits[:walls]:
        wall_board |= x
    return quick_reject_bits(size, wall_board, bits[walls + 1 : walls + 1 + blocks], bits[walls + 1 + blocks :])
