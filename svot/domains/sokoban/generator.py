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
layout is then redrawn like an unsolvable one. A reset asks only for the verdict
(``plan=False``): the engine's region search, compiled where Numba loads
(:mod:`svot.engine.region_kernel`), which meets the same states as the interpreted one.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from svot.domains.sokoban.spec import SPEC
from svot.domains.drawn import DrawnBits
from svot.kernel.grid import Cell, cell_name
from svot.domains.sokoban.screen import MAX_SIZE as MAX_SCREEN_SIZE, surviving_rows
from svot.domains.sokoban.table5 import TABLE5
from svot.engine.search import SearchResult
from svot.errors import ConfigError
from svot.problem_gen.cells import index_cell, index_cells_list
from svot.problem_gen.common import (
    MAX_ATTEMPTS,
    Generated,
    attempts_exhausted,
    count_for,
    finish,
    nearest_table_size,
    problem_name,
)
from svot.problem_gen.draws import FIRST_BATCH, LARGEST_BATCH, first_kept
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
        self._last_live = (-1, -1, 0)  # (free, goals, live): one tuple, read and written at once

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
        inlined, its column masks folded into the free pairs). The last answer is kept: the
        sampler's screen and its search ask for the same draw one after the other."""
        last = self._last_live
        if last[0] == free and last[1] == goals:
            return last[2]
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
        self._last_live = (free, goals, live)
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

    def one_block_moves(self, free: int, x: int, p: int) -> tuple[int, int]:
        """Claims 4–5's one-block game at block cell ``x`` with the player on ``p`` (one bit each):
        ``(region, pushed)``, the cells the player walks to (a flood of the free cells but ``x``) and
        the cells the block can be pushed to (x+d with the player on x-d in the region and x+d free;
        the player then ends on x)."""
        n, nc0, ncl = self.size, self.not_col0, self.not_col_last
        open_cells = free & ~x
        region = front = p
        while front:
            front = (front << n | front >> n | (front << 1) & nc0 | (front >> 1) & ncl) & open_cells & ~region
            region |= front
        pushed = 0
        if x >> n & region:
            pushed |= x << n & free
        if x << n & region:
            pushed |= x >> n & free
        if (x & nc0) >> 1 & region:
            pushed |= (x << 1) & nc0 & free
        if (x & ncl) << 1 & region:
            pushed |= (x & nc0) >> 1 & free
        return region, pushed


@functools.lru_cache(maxsize=None)
def board(size: int) -> Board:
    return Board(size)


def quick_reject_bits(size: int, walls: int, blocks: list[int], goals: list[int]) -> bool:
    """Claims 1–2 on bitboards (``blocks``, ``goals``: one bit each). True: certainly unsolvable."""
    b = board(size)
    free = b.full & ~walls
    goal_bits = 0
    for g in goals:
        goal_bits |= g
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


# Claim 4 (one block and the player). Forget every block but block i, keep the
# player. A real play, read on the player and block i alone, is a play of this
# one-block game: a walk enters a cell with no wall and no block, so none in the
# game either; a push of block i needs in the game what it needs in the real one,
# less the other blocks; a push of another block j moves the player onto j's cell,
# which is no wall and not block i's, a walk in the game. In a goal state block i
# stands on a goal square, so if no play of its one-block game gets it onto one,
# the layout is unsolvable. The game is small: a state is block i's cell and the
# player's region (the cells it can walk to around the block).


def block_reaches_a_goal(size: int, free: int, player: int, block: int, goals: int) -> bool:
    """Claim 4 for one block (bitboards: ``player``, ``block`` one bit each): False when its one-block
    game never gets it onto one of ``goals``, so the layout is certainly unsolvable."""
    b = board(size)
    explored: dict[int, int] = {}  # block cell -> the player cells already walked to with it there
    todo = [(block, player)]
    while todo:
        x, p = todo.pop()
        done = explored.get(x, 0)
        if p & done:
            continue
        if x & goals:
            return True
        region, pushed = b.one_block_moves(free, x, p)
        explored[x] = done | region
        if pushed & goals:
            return True
        while pushed:
            y = pushed & -pushed
            todo.append((y, x))
            pushed ^= y
    return False


def one_block_refuses(
    size: int, walls: int, blocks: int, drawn: list[int], games: "OneBlockGames | None" = None
) -> bool:
    """Claim 4 on a draw (cell indices: walls, the player, the blocks, the goals): True when some block
    cannot reach any goal square even alone with the player (certainly unsolvable). ``games``: the
    draw's one-block games (:func:`one_block_games`), kept for its search's Claim 5; without them, a
    lean game per block (what a draw searched without Claim 5 needs: keeping verdicts costs more)."""
    wall_board = goal_board = 0
    for i in drawn[:walls]:
        wall_board |= 1 << i
    for i in drawn[walls + 1 + blocks :]:
        goal_board |= 1 << i
    free = board(size).full & ~wall_board
    return _refuses(size, free, goal_board, drawn[walls], drawn[walls + 1 : walls + 1 + blocks], games)


def _refuses(size: int, free: int, goal_board: int, player: int, blocks: list[int], games) -> bool:
    """:func:`one_block_refuses` on the draw's boards (``player``, ``blocks``: cell indices)."""
    player = 1 << player
    if games is not None:
        for i in blocks:
            if not games.reaches(1 << i, player):
                return True
        return False
    for i in blocks:
        if not block_reaches_a_goal(size, free, player, 1 << i, goal_board):
            return True
    return False


def one_block_games(size: int, walls: int, blocks: int, drawn: list[int]) -> "OneBlockGames":
    """A draw's :class:`OneBlockGames` (cell indices: walls, the player, the blocks, the goals)."""
    wall_board = goal_board = 0
    for i in drawn[:walls]:
        wall_board |= 1 << i
    for i in drawn[walls + 1 + blocks :]:
        goal_board |= 1 << i
    return OneBlockGames(size, board(size).full & ~wall_board, goal_board)


# Claim 5 (Claim 4 in every state). A state's play read on the player and block i alone is a play of
# block i's one-block game from the player's and the block's cells (Claim 4's argument holds from any
# state), so if that game never gets block i onto a goal square the state is dead. The game's verdict
# depends on the player's cell only through the player's region around the block (the cells it walks
# to in the free cells but the block's): one verdict per (block cell, region). A game explored to its
# end without meeting a goal square refutes every position it met (each reaches only positions met);
# one that meets one proves alive the positions on the way. The verdict search asks it after each
# push, of the pushed block (the other blocks' regions are unchanged: the player moved between two
# adjacent free cells, neither of them theirs); a walk changes no region.


class OneBlockGames:
    """Claim 4/5 verdicts of one draw's one-block games, kept: ``dead[x]``/``live[x]`` are the player
    cells known to refute/prove the block's game with the block on cell index ``x``."""

    def __init__(self, size: int, free: int, goals: int):
        self.size, self.free, self.goals = size, free, goals
        self.dead: dict[int, int] = {}
        self.live: dict[int, int] = {}  # a block on a goal square: alive wherever the player is
        while goals:
            g = goals & -goals
            self.live[g.bit_length() - 1] = free
            goals ^= g

    def reaches(self, block: int, player: int) -> bool:
        """Whether the one-block game from these cells (bitboards) gets the block onto a goal square."""
        x0 = block.bit_length() - 1
        if player & self.live.get(x0, 0):
            return True
        if player & self.dead.get(x0, 0):
            return False
        moves = board(self.size).one_block_moves
        free, goals, dead, live = self.free, self.goals, self.dead, self.live
        explored: dict[int, int] = {}  # block cell -> the player cells already walked to with it there
        nodes: list[tuple[int, int, int]] = []  # (block cell index, region, the node it was pushed from)
        todo = [(block, player, -1)]
        while todo:
            x, p, parent = todo.pop()
            xi = x.bit_length() - 1
            done = explored.get(x, 0)
            if p & done or p & dead.get(xi, 0):
                continue
            region, pushed = moves(free, x, p)
            nodes.append((xi, region, parent))
            if p & live.get(xi, 0):
                self._proved(nodes, len(nodes) - 1)
                return True
            explored[x] = done | region
            here = len(nodes) - 1
            if pushed & goals:  # onto a goal square: this position is alive
                self._proved(nodes, here)
                return True
            while pushed:
                y = pushed & -pushed
                todo.append((y, x, here))
                pushed ^= y
        for xi, region, _parent in nodes:  # every position met reaches only positions met: none a goal
            dead[xi] = dead.get(xi, 0) | region
        return False

    def _proved(self, nodes: list, i: int) -> None:
        """Mark alive the positions from ``nodes[i]`` back to the start (each pushes to the next)."""
        live = self.live
        while i >= 0:
            xi, region, i = nodes[i]
            live[xi] = live.get(xi, 0) | region

    def dead_with(self, t: AtomBits):
        """Claim 5 for :meth:`svot.engine.search.SearchStepper.reachable`: ``(bits, q)`` -> the pivot bits
        known with them and those dead, when ``bits`` is one ``(block c)`` bit (else nothing known)."""
        at_low, block_low = t.at_low, t.block_low
        if at_low is None or block_low is None:
            return None
        cells = len(t.block)
        reaches, live, dead = self.reaches, self.live, self.dead

        def ask(bits: int, q: int) -> tuple[int, int]:
            x = bits.bit_length() - 1 - block_low
            if bits & (bits - 1) or not 0 <= x < cells:
                return 0, 0
            reaches(1 << x, q >> at_low)  # q's cell is then in live[x] or dead[x]
            d = dead.get(x, 0)
            return (live.get(x, 0) | d) << at_low, d << at_low

        return ask


# --- the sampler's loop ----------------------------------------------------------------
#
# Each draw is screened by Claims 1–3 at the start (numpy, a batch of draws at
# once: svot.domains.sokoban.screen, or draw by draw where few are refused), and the
# survivors, in draw order, by Claim 4 where many draws are refused (a fifth of a
# search's time; it refuses most unsolvable survivors: CLAIM4_MEAN_ATTEMPTS) and then the
# same pruned search as :func:`search` (with plan=False the verdict search, with
# Claim 5 on the one-block games Claim 4 played, kept), on bits read straight off the shared
# grounding (no Problem is built for a refused layout). The first draw the
# search solves is kept, as in a one-by-one loop: the same draws, the same
# problem, the same plan (tests compare with that loop).


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
        self._blocks_on: dict[int, int] = {}
        # the (at c) and (block c) bits run in cell order from these bits (None if not: Claim 5 is then off)
        self.at_low = _run_start(self.at)
        self.block_low = _run_start(self.block)

    def blocks_on(self, cells: int) -> int:
        """The ``(block c)`` bits of the cells of a bitboard (a shift where they run in cell order, else kept:
        a draw asks for some 25 windows)."""
        if self.block_low is not None:
            return cells << self.block_low
        out = self._blocks_on.get(cells)
        if out is None:
            if len(self._blocks_on) >= 1 << 16:
                self._blocks_on.clear()
            out = self._blocks_on[cells] = self._blocks_on_uncached(cells)
        return out

    def _blocks_on_uncached(self, cells: int) -> int:
        out = 0
        block = self.block
        while cells:
            low = cells & -cells
            out |= block[low.bit_length() - 1]
            cells ^= low
        return out


atom_bits = kept_per_size(SPEC, AtomBits)


def _run_start(bits: list[int]) -> int | None:
    """The position of ``bits[0]`` when ``bits[i]`` is the bit ``i`` places above it for every ``i``."""
    low = bits[0].bit_length() - 1
    return low if all(b == 1 << (low + i) for i, b in enumerate(bits)) else None


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
    size: int,
    walls: int,
    blocks: int,
    drawn: list[int],
    *,
    max_states: int = MAX_STATES,
    plan: bool = True,
    games: "OneBlockGames | None" = None,
) -> SearchResult:
    """:func:`search` on the layout of a draw (walls, player, blocks, goals as cell indices), without a Problem.

    The initial bits, the goal mask and the dead masks are those ``search``
    reads off the bound problem (a test checks them against ``bind`` and
    :func:`dead_masks`), less the Claim 3 windows no state can fill (more open
    cells than blocks), so the result is the same.

    ``plan=False`` asks only for the verdict, from the engine's
    :meth:`~svot.engine.search.SearchStepper.reachable` (the same successors, the
    dead states of Claim 1, and of Claim 5 from :data:`CLAIM5_STATES` up (``games``: the draw's
    :class:`OneBlockGames`, else new ones), no plan: ``SearchResult.plan`` is then ``[]`` when
    solvable), where no search of the layout can reach ``max_states`` states
    (:func:`state_bound`): the verdict is then breadth-first search's (whatever
    dead states it skips, as none can reach the goal). Otherwise
    it is breadth-first search as with ``plan=True``.
    """
    t = atom_bits(size)
    bits = initial_bits(t, walls, blocks, drawn)
    return _search_bits(t, size, blocks, bits, _verdict_only(size, walls, blocks, plan, max_states), max_states, games)


def _verdict_only(size: int, walls: int, blocks: int, plan: bool, max_states: int) -> bool | None:
    """How :func:`search_draw` decides: None for breadth-first search, else the verdict search (True when
    it asks Claim 5, on a large enough board)."""
    if plan or state_bound(size, walls, blocks) > max_states:
        return None
    return _asks_claim5(size, walls, blocks, plan, max_states)


def _search_bits(t: "AtomBits", size: int, blocks: int, bits: tuple, verdict, max_states: int, games) -> SearchResult:
    """:func:`search_draw` on a draw's :func:`initial_bits` (the sampler reads them once per draw)."""
    init, goal_pos, wall_board, goal_board = bits
    b = board(size)
    free = b.full & ~wall_board
    dead_any = t.blocks_on(free & ~b.live(free, goal_board))
    stepper = t.grounding.stepper
    if verdict is not None:
        # Claims 1 and 5 (on large boards): Claim 3's windows cost a verdict more to set up than they save it
        dead_with = None
        if verdict:
            if games is None:
                games = OneBlockGames(size, free, goal_board)
            dead_with = games.dead_with(t)
        reach = stepper.reachable(init, goal_pos, 0, max_states=max_states, dead_any=dead_any, dead_with=dead_with)
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


# The verdict search asks Claim 5 where a layout's states may number at least this many (state_bound):
# on smaller boards its games cost more than the states they spare (6x6 OOD: 50,600; 5x5 OOD: 9,520;
# 6x6 ID, 2 blocks: 10,962). Only the time depends on it: skipped dead states change no verdict.
CLAIM5_STATES = 20_000


def _asks_claim5(size: int, walls: int, blocks: int, plan: bool, max_states: int) -> bool:
    """Whether :func:`search_draw` asks Claim 5: an interpreted verdict search on a large enough board
    (the compiled search does not call back into Python: :func:`compiled_verdicts`)."""
    bound = state_bound(size, walls, blocks)
    return not plan and CLAIM5_STATES <= bound <= max_states and not compiled_verdicts(size)


def compiled_verdicts(size: int) -> bool:
    """Whether the size's verdict searches run compiled (:meth:`SearchStepper.reach_compiled`). Then a
    search of a draw costs a few microseconds, less than Claim 4's games on it, so the sampler plays none."""
    return atom_bits(size).grounding.stepper.reach_compiled()


def state_bound(size: int, walls: int, blocks: int) -> int:
    """How many states a search from a layout can meet, at most: in every state the player and the
    blocks stand on distinct cells that are not walls (a walk enters a cell with no wall and no block;
    a push moves a block onto such a cell and the player onto the block's), so
    ``free * C(free - 1, blocks)`` with ``free = N * N - walls`` (a test checks it against searches)."""
    free = size * size - walls
    return free * math.comb(max(free - 1, 0), blocks)


def generate(
    size: int, split: str, rng: np.random.Generator, plan: bool = True, *, max_states: int = MAX_STATES
) -> Generated:
    """One solvable problem; ``plan=False`` (``SokobanSpec.plan_optional``) keeps the same draws and
    problem but decides solvability without a plan (:func:`search_draw`): ``Generated.plan`` is then None
    and :func:`svot.problem_gen.solve` gives ``plan=True``'s plan (the same breadth-first search)."""
    params, drawn, attempt, (result, _bits) = _kept_draw(size, split, rng, plan, max_states)
    return _package(size, split, params, drawn, attempt, result.plan if plan else None)


def _kept_draw(size: int, split: str, rng: np.random.Generator, plan: bool, max_states: int):
    """The sampler's loop: ``(params, the kept draw's cell indices, attempts, (its search's result, its
    initial_bits))``."""
    params = sampling_params(size, split, rng)  # the block count is drawn once, before any rejection
    w, n = params["walls"], params["blocks"]
    k = w + 1 + 2 * n
    found: list[tuple[SearchResult, tuple]] = []  # the kept draw's search result and initial bits

    def screen(rows: np.ndarray):
        few = _mean_attempts.get(key, len(rows)) <= SCALAR_MEAN_ATTEMPTS  # the kept draw comes early
        if size <= MAX_SCREEN_SIZE and len(rows) > SCALAR_SCREEN_ROWS and not few:
            return iter(surviving_rows(size, w, n, rows).tolist())
        # draw by draw, stopping at the one kept (a search refuses what Claim 3 refuses at the start)
        return (j for j in range(len(rows)) if not _quick_reject_draw(size, w, n, rows[j, :k].tolist()))

    key = (DOMAIN, size, w, n)
    t = atom_bits(size)
    full = board(size).full
    verdict = _verdict_only(size, w, n, plan, max_states)
    claim5 = n >= 2 and bool(verdict)
    # Claim 4 where it spares more searches than its games cost (with one block it is the whole game;
    # a compiled verdict search costs less than the games)
    claim4 = claim5 or (
        n >= 2
        and not (verdict is not None and compiled_verdicts(size))
        and _mean_attempts.get(key, CLAIM4_MEAN_ATTEMPTS + 1) > CLAIM4_MEAN_ATTEMPTS
    )

    def accept(rows: np.ndarray, j: int) -> bool:
        drawn = rows[j, :k].tolist()
        bits = initial_bits(t, w, n, drawn)  # read once: Claim 4 and the search share the boards
        free, goal_board = full & ~bits[2], bits[3]
        # Claims 4 and 5 share the draw's games where the verdict search asks Claim 5
        games = OneBlockGames(size, free, goal_board) if claim5 else None
        if claim4 and _refuses(size, free, goal_board, drawn[w], drawn[w + 1 : w + 1 + n], games):
            return False  # unsolvable: its search would refuse it
        result = _search_bits(t, size, n, bits, verdict, max_states, games)
        if result.solved:
            found.append((result, bits))
        return result.solved

    # a block count drawn from a range is drawn again before the next call's rows: none carried would fit
    carry = params["blocks_range"][0] == params["blocks_range"][1]
    kept = first_kept(
        rng, size * size, key, screen, accept, MAX_ATTEMPTS, first=_first_batch.get(key, FIRST_BATCH), carry=carry
    )
    if kept is None:
        raise attempts_exhausted(DOMAIN, size, split, MAX_ATTEMPTS)
    attempt, row = kept
    _first_batch[key] = _batch_for(attempt)
    mean = _mean_attempts.get(key)
    _mean_attempts[key] = attempt if mean is None else mean + (attempt - mean) / 16
    return params, row[:k].tolist(), attempt, found[-1]


def _package(size: int, split: str, params: dict, drawn: list[int], attempt: int, plan) -> Generated:
    spec = SPEC
    layout = layout_from_draw(size, params["walls"], params["blocks"], drawn)
    problem = spec.problem_from_state(layout, problem_name(DOMAIN, size, split, layout))
    return finish(spec, size, split, layout, plan, {**params, "attempts": attempt}, problem)


def draw_bits(size: int, split: str, rng: np.random.Generator) -> DrawnBits:
    """:func:`generate`'s draws with ``plan=False`` (the same ``rng`` calls, the same verdicts) as the
    bits of the initial state over the size's shared grounding; the Problem (``generate(..., plan=False)``'s)
    is built when asked for. The search already reads the draw as bits: the env's reset starts from them."""
    params, drawn, attempt, (_result, (init, goal_pos, _walls, _goals)) = _kept_draw(size, split, rng, False, MAX_STATES)
    t = atom_bits(size)
    build = functools.partial(_package, size, split, params, drawn, attempt, None)
    return DrawnBits(init, goal_pos, 0, t.grounding.shared, build)


def bit_stream(size: int, split: str, rng: np.random.Generator):
    """What the env's resets draw from: :func:`draw_bits` on ``rng`` itself, call after call (the
    sampler's batches of draws are numpy's; nothing is drawn ahead)."""
    return functools.partial(draw_bits, size, split, rng)


# Up to this many draws in a batch, the claims are read draw by draw in Python and stop at the draw
# kept, rather than on the whole batch in numpy (whose fixed cost per call outweighs a few draws). Only
# the time depends on it: both keep the first draw the search solves (Claims 1-2 refuse only
# unsolvable draws, and the search refuses a draw Claim 3 refuses at the start, as a dead state;
# tests/problem_gen/test_problem_gen_batched.py and test_problem_gen_sokoban.py hold both paths to the
# one-by-one loop).
SCALAR_SCREEN_ROWS = 32

# ... and in a batch of any length where the kept draw is expected early: where the last problems of
# these parameters took at most this many draws on average (a running mean per (size, walls, blocks)).
# Rows drawn past the kept one are screened for nothing unless a later call takes them up, so the
# numpy screen of a whole batch pays where many draws are refused per problem (OOD: 126-565 on average),
# not where few are (ID: 3-27; on 4x4 ID the reset is about 10 % faster than with SCALAR_SCREEN_ROWS
# alone, while OOD loses about as much when its batches are screened draw by draw).
SCALAR_MEAN_ATTEMPTS = 64
_mean_attempts: dict[tuple, float] = {}  # only the time depends on it, as on the thresholds

# Claim 4 is asked where the last problems of these parameters took more than this many draws on
# average (and wherever Claim 5 is: they share the games). There most draws the screen passes are
# unsolvable, and one-block games refuse them for less than searches do (OOD: 8 % slower resets on
# 4x4 without Claim 4, 10 % on 5x5, 40 % on 6x6). Where few draws are taken (every ID key: 3-27), the
# searches are short and the games cost more than they spare (4x4-6x6 ID: 2-8 % faster without them).
# Only the time depends on it: Claim 4 refuses only draws the search refuses. Where the verdict search runs
# compiled (svot.engine.region_kernel: 5-15 us a search of a screened draw) no game is played at all: the
# games cost more than the searches they spare (bench_sokoban_reset.py, 2026-12-04: 2,795 -> 3,253 resets/s
# on 5x5 OOD, 3,655 -> 4,801 on 6x6 OOD without them), and the compiled search does not ask Claim 5.
CLAIM4_MEAN_ATTEMPTS = 64

# The first batch of draws screened at once, per (size, walls, blocks): about as many as the last
# problem needed (3 blocks on 6x6 take hundreds of draws, 1 block on 4x4 a few). Only the time
# depends on it: first_accepted keeps the same draw whatever the batches (svot.problem_gen.draws).
_first_batch: dict[tuple[int, int, int], int] = {}


def _batch_for(attempts: int) -> int:
    """The power of two at or above ``attempts``, within ``[FIRST_BATCH, LARGEST_BATCH]``."""
    return min(max(FIRST_BATCH, 1 << max(attempts - 1, 0).bit_length()), LARGEST_BATCH)


def _quick_reject_draw(size: int, walls: int, blocks: int, drawn: list[int]) -> bool:
    bits = [1 << i for i in drawn]
    wall_board = 0
    for x in bits[:walls]:
        wall_board |= x
    return quick_reject_bits(size, wall_board, bits[walls + 1 : walls + 1 + blocks], bits[walls + 1 + blocks :])
