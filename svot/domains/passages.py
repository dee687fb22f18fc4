"""Walled grids: passages between neighbouring cells, and the RuleMaze paper's maze builder.

A walled grid keeps its walls on the edges between cells, not on cells: a passage is a pair of
neighbouring cells ``(a, b)`` with ``a < b``, and every inner edge that is not a passage is a wall
(the grid's border is never open). :func:`create_maze` is Alg. 3 ``CreateMaze`` of the RuleMaze
paper (appendix E.2.3): a perfect maze grown by depth-first search, then loops injected; how its
phase 2 is read is said in :mod:`svot.rulemaze.pool`, which builds RuleMaze's pools on it.
Domains whose PDDL problems have ``(open ?from ?dir ?to)`` passages sample their layouts with it.

Randomness comes only from the ``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

import functools
import math
from typing import Iterable

import numpy as np

from svot.kernel.grid import DELTAS, cell_name
from svot.engine.grounded import bit_indices

Cell = tuple[int, int]
LOOP_PERCENT = 10


@functools.lru_cache(maxsize=64)
def _grid_neighbours(size: int) -> dict[Cell, tuple[Cell, ...]]:
    """Each cell's neighbours inside the grid, in ``DELTAS`` order (the order Alg. 3's draws index)."""
    out = {}
    for r in range(size):
        for c in range(size):
            out[(r, c)] = tuple((r + dr, c + dc) for dr, dc in DELTAS.values() if 0 <= r + dr < size and 0 <= c + dc < size)
    return out


@functools.lru_cache(maxsize=64)
def _inner_edges(size: int) -> tuple[tuple[Cell, Cell], ...]:
    out = []
    for r in range(size):
        for c in range(size):
            if c + 1 < size:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < size:
                out.append(((r, c), (r + 1, c)))
    return tuple(sorted(out))


def dfs_perfect_maze(size: int, src: Cell, rng: np.random.Generator) -> set[tuple[Cell, Cell]]:
    """Phase 1 of Alg. 3: the passages of a perfect maze grown by DFS from ``src`` (the draws of :func:`create_maze`'s)."""
    t = _maze_tables(size)
    _parent, opened = _dfs_tree(t, size, src[0] * size + src[1], rng.random(size * size - 1).tolist())
    return {t.pairs[k] for k in range(len(t.pairs)) if opened >> k & 1}


def opens_square(passages: set[tuple[Cell, Cell]], wall: tuple[Cell, Cell], size: int) -> bool:
    """Whether opening ``wall`` would leave some 2x2 block with all four inner passages open."""
    (ar, ac), (br, bc) = wall
    for r0 in (min(ar, br) - 1, min(ar, br)):
        for c0 in (min(ac, bc) - 1, min(ac, bc)):
            if not (0 <= r0 < size - 1 and 0 <= c0 < size - 1):
                continue
            edges = [((r0, c0), (r0, c0 + 1)), ((r0 + 1, c0), (r0 + 1, c0 + 1)),
                     ((r0, c0), (r0 + 1, c0)), ((r0, c0 + 1), (r0 + 1, c0 + 1))]
            if wall in edges and all(e == wall or e in passages for e in edges):
                return True
    return False


def loop_removals(n_walls: int, loop_percent: float = LOOP_PERCENT) -> int:
    """How many of ``n_walls`` candidate walls phase 2 of Alg. 3 removes:
    ``ceil(n_walls / 3 * loop_percent / 100)`` (0 when there are none)."""
    if n_walls <= 0 or loop_percent <= 0:
        return 0
    return math.ceil(n_walls * loop_percent / 300 - 1e-12)  # np.ceil's value, as an int, without numpy's call cost


def create_maze(size: int, src: Cell, dsts: Iterable[Cell], rng: np.random.Generator,
                loop_percent: float = LOOP_PERCENT) -> tuple[tuple[Cell, Cell], ...]:
    """Alg. 3 ``CreateMaze``: DFS perfect maze, then loop injection. Returns passages (sorted cell pairs).

    :func:`create_maze_mask` on cell indices, read back as cell pairs.
    """
    opened = create_maze_mask(size, src[0] * size + src[1], [r * size + c for r, c in dsts], rng, loop_percent)
    pairs = _maze_tables(size).pairs
    return tuple([pairs[k] for k in range(len(pairs)) if opened >> k & 1])


def create_maze_mask(size: int, s: int, dsts: Iterable[int], rng: np.random.Generator,
                     loop_percent: float = LOOP_PERCENT) -> int:
    """Alg. 3 on cell indices ``r * N + c``: the open edges as the bits of an int, edge ``k`` (:func:`inner_edges`'
    order) open where bit ``k`` is set. Phase 1 is :func:`_dfs_tree`; phase 2 opens ``loop_removals`` of the
    walls near the tree paths from ``s`` to each dst, then of the others, in a random order, skipping a wall
    that would open a full 2x2 block (none checked at 2x2 and below, as Alg. 3 reads it).

    Every draw is one ``rng.random(E)`` (``E`` inner edges): the tree's ``N*N - 1`` carving choices first, then
    one key per remaining wall; a group's random order is its walls sorted by their keys (i.i.d. uniform keys
    give every order the same chance). One numpy call per maze instead of one per carved cell."""
    return mask_from_draws(size, s, dsts, rng.random(layout_draws(size)).tolist(), loop_percent)


def layout_draws(size: int) -> int:
    """How many uniform doubles :func:`mask_from_draws` reads: one per inner edge, ``2 * N * (N - 1)``."""
    return 2 * size * (size - 1)


def mask_from_draws(size: int, s: int, dsts: Iterable[int], u, loop_percent: float = LOOP_PERCENT) -> int:
    """:func:`create_maze_mask` on uniform doubles ``u`` in [0, 1) already drawn (its first ``layout_draws(size)``
    are read), so that a sampler draws its whole layout in one numpy call."""
    t = _maze_tables(size)
    parent, opened = _dfs_tree(t, size, s, u)
    blocks = t.square_masks
    keys = iter(u[size * size - 1:layout_draws(size)])
    for group, todo in _loop_groups(t, s, dsts, parent, opened, loop_percent):
        order = sorted(group, key=lambda _k: next(keys))  # keys handed out in the group's (edge) order
        for k in order:
            if todo == 0:
                break
            if any(opened & block == block for block in blocks[k]):
                continue  # opening it would open the whole 2x2 block
            opened |= 1 << k
            todo -= 1
    return opened


def _loop_groups(t: "_MazeTables", s: int, dsts: Iterable[int], parent, opened: int,
                 loop_percent: float) -> tuple[tuple[list[int], int], ...]:
    """Phase 2's two groups of walls, each with how many of them to open: the walls touching the tree
    paths from ``s`` to each dst first, then the others (edges as bits: ``near`` holds every edge of a
    cell on a path)."""
    on_path, near = 1 << s, t.edges_at[s]
    for x in dsts:
        while not on_path >> x & 1:
            on_path |= 1 << x
            near |= t.edges_at[x]
            x = parent[x]
    closed = t.all_edges ^ opened
    groups = (bit_indices(closed & near), bit_indices(closed & ~near))
    return tuple((group, loop_removals(len(group), loop_percent)) for group in groups)


def _dfs_tree(t: "_MazeTables", size: int, s: int, u: list[float]) -> tuple[list[int], int]:
    """Phase 1 of Alg. 3: each cell's parent on the perfect maze grown by depth-first search from ``s`` and its
    open edges as bits. At each step the search picks ``int(u[i] * k)`` among the ``k`` unvisited neighbours
    of the cell on top of the stack, in ``DELTAS`` order (``t.options``), ``u[i]`` the next of the uniform
    doubles ``u`` (one per carved cell: ``N*N - 1``), or backtracks. Once every cell is visited it stops."""
    options_of, nbmask = t.options, t.nbmask
    unvisited = ((1 << size * size) - 1) ^ (1 << s)
    parent = [-1] * (size * size)
    parent[s] = s
    opened = 0
    stack = [s]
    draws = iter(u)
    while stack:
        v0 = stack[-1]
        free = unvisited & nbmask[v0]
        if free:
            options = options_of[v0][free]
            v, k = options[int(next(draws) * len(options))]
            opened |= 1 << k
            unvisited ^= 1 << v
            parent[v] = v0
            if not unvisited:
                break
            stack.append(v)
        else:
            stack.pop()
    return parent, opened


def pick_distinct(n: int, m: int, u, at: int = 0) -> list[int]:
    """``m`` distinct values of ``range(n)``, uniformly, from the doubles ``u[at:at + m]`` in [0, 1): a partial
    Fisher-Yates shuffle, step ``i`` swapping place ``i`` with place ``i + int(u[at + i] * (n - i))``."""
    out = list(range(n))
    for i in range(m):
        j = i + int(u[at + i] * (n - i))
        out[i], out[j] = out[j], out[i]
    return out[:m]


def inner_edges(size: int) -> tuple[tuple[Cell, Cell], ...]:
    """The inner edges of an N×N grid as cell pairs ``(a, b)``, ``a < b``, in :func:`create_maze_mask`'s order."""
    return _maze_tables(size).pairs


class _MazeTables:
    """Cell- and edge-index tables of an N×N grid for :func:`create_maze` (cell ``r * N + c``).

    ``edges``: the inner edges as ``(a, b)`` cell indices, ``a < b``, in :func:`_inner_edges`'s
    (sorted) order, ``pairs`` the same as cells; ``edge_of[a][b]``: an edge's index;
    ``neighbours``: :func:`_grid_neighbours` as indices, ``nbmask`` the same as a bit mask of cells,
    ``options[u][mask]``: :func:`_options`;
    ``edges_at[u]``: the edges of cell ``u`` as a bit mask of edges, ``all_edges`` every edge;
    ``square_masks[k]``: per 2x2 block holding edge ``k``, its other three edges as an edge mask (none at 2x2
    and below, as Alg. 3 reads it).
    """

    def __init__(self, size: int):
        index = {(r, c): r * size + c for r in range(size) for c in range(size)}
        self.pairs = _inner_edges(size)
        self.edges = tuple((index[a], index[b]) for a, b in self.pairs)
        self.edge_of = [dict() for _ in range(size * size)]
        for k, (a, b) in enumerate(self.edges):
            self.edge_of[a][b] = self.edge_of[b][a] = k
        grid = _grid_neighbours(size)
        self.neighbours = [tuple(index[v] for v in grid[u]) for u in sorted(index, key=index.get)]
        self.nbmask = [sum(1 << v for v in nbs) for nbs in self.neighbours]
        self.options = [_options(u, nbs, self.edge_of[u]) for u, nbs in enumerate(self.neighbours)]
        self.all_edges = (1 << len(self.edges)) - 1
        self.edges_at = [sum(1 << k for k, e in enumerate(self.edges) if u in e) for u in range(size * size)]
        by_pair = {pair: k for k, pair in enumerate(self.pairs)}
        squares = []
        for k, wall in enumerate(self.pairs):
            (ar, ac), (br, bc) = wall
            out = []
            for r0 in (min(ar, br) - 1, min(ar, br)):
                for c0 in (min(ac, bc) - 1, min(ac, bc)):
                    if not (0 <= r0 < size - 1 and 0 <= c0 < size - 1):
                        continue
                    edges = [((r0, c0), (r0, c0 + 1)), ((r0 + 1, c0), (r0 + 1, c0 + 1)),
                             ((r0, c0), (r0 + 1, c0)), ((r0, c0 + 1), (r0 + 1, c0 + 1))]
                    if wall in edges:
                        out.append(tuple(by_pair[e] for e in edges if e != wall))
            squares.append(tuple(out))
        self.square_masks = [tuple(sum(1 << e for e in sq) for sq in out) if size > 2 else () for out in squares]


def _options(u: int, neighbours: tuple, edge_of: dict) -> dict:
    """For each set of ``u``'s neighbours (as a bit mask of cells), those neighbours in ``DELTAS`` order as
    ``(cell, edge index)``: the moves phase 1 of Alg. 3 chooses among when they are the unvisited ones."""
    out = {}
    for chosen in range(1, 1 << len(neighbours)):
        picked = [v for j, v in enumerate(neighbours) if chosen >> j & 1]
        out[sum(1 << v for v in picked)] = tuple((v, edge_of[v]) for v in picked)
    return out


@functools.lru_cache(maxsize=64)
def _maze_tables(size: int) -> _MazeTables:
    return _MazeTables(size)


def edge_walls(size: int, passages) -> tuple[list[list[int]], list[list[int]]]:
    """The walls of a walled grid as (cells with a wall on their right edge, cells with one on their
    lower edge), row-major: every inner edge that is not one of ``passages`` (pairs ``(a, b)``, ``a < b``)."""
    opened = set(passages)
    right = [[r, c] for r in range(size) for c in range(size - 1) if ((r, c), (r, c + 1)) not in opened]
    down = [[r, c] for r in range(size - 1) for c in range(size) if ((r, c), (r + 1, c)) not in opened]
    return right, down


# The PDDL side of a walled grid: (open ?from ?dir ?to) for every passage, in both directions.
_OPPOSITE = {"right": "left", "down": "up"}


def open_atoms(size: int, walls_right, walls_down) -> list[tuple[str, str, str, str]]:
    """The ``(open ...)`` atoms of a grid with these walls (see :func:`edge_walls`), row-major."""
    closed = {("right", tuple(c)) for c in walls_right} | {("down", tuple(c)) for c in walls_down}
    return [atom for edge, pair in _edge_atoms(size) if edge not in closed for atom in pair]


@functools.lru_cache(maxsize=64)
def _edge_atoms(size: int) -> tuple:
    """Every inner edge, row-major, as ``((dir, cell), (its two (open ...) atoms))``."""
    out = []
    for r in range(size):
        for c in range(size):
            for d, there in (("right", (r, c + 1)), ("down", (r + 1, c))):
                if there[0] < size and there[1] < size:
                    a, b = cell_name((r, c)), cell_name(there)
                    out.append(((d, (r, c)), (("open", a, d, b), ("open", b, _OPPOSITE[d], a))))
    return tuple(out)


def walls_from_open(size: int, atoms) -> tuple[list[list[int]], list[list[int]]]:
    """The walls (as :func:`edge_walls` gives them) of a state's ``(open ...)`` atoms."""
    opened = {(a[1], a[2]) for a in atoms if a[0] == "open"}
    right, down = _edge_keys(size)
    return [[r, c] for key, r, c in right if key not in opened], [[r, c] for key, r, c in down if key not in opened]


@functools.lru_cache(maxsize=64)
def _edge_keys(size: int) -> tuple:
    """``((cell name, "right"), row, col)`` for every right edge inside the grid, and the same for the lower edges."""
    right = tuple(((cell_name((r, c)), "right"), r, c) for r in range(size) for c in range(size - 1))
    down = tuple(((cell_name((r, c)), "down"), r, c) for r in range(size - 1) for c in range(size))
    return right, down


def add_wall_kinds(out: dict, state: dict) -> None:
    """Add kinds ``wall_right`` / ``wall_down`` for a state's ``walls_right`` / ``walls_down`` (a spec's cell_kinds)."""
    for key, kind in (("walls_right", "wall_right"), ("walls_down", "wall_down")):
        for cell in state[key]:
            out.setdefault(tuple(cell), set()).add(kind)


# Bits of a walled grid's layout, per inner edge (inner_edges' order), for samplers that build init bits
@functools.lru_cache(maxsize=64)
def _edge_directions(size: int) -> tuple:
    """Per inner edge ``(a, b)``: ``(a's name, dir, b's name, the opposite dir)`` of its two ``(open ...)`` atoms."""
    out = []
    for a, b in inner_edges(size):
        d = "right" if b[0] == a[0] else "down"
        out.append((cell_name(a), d, cell_name(b), _OPPOSITE[d]))
    return tuple(out)


def open_bits(bit: dict, size: int) -> list[int]:
    """Per inner edge, the grounding's bits (``bit``: atom -> bit) of its two ``(open ...)`` atoms, ORed."""
    return [bit[("open", a, d, b)] | bit[("open", b, o, a)] for a, d, b, o in _edge_directions(size)]


def wall_marks(size: int, kinds) -> list[tuple[int, int]]:
    """Per inner edge, ``(flat cell, kind bit)`` of the wall it is when closed: ``wall_right`` / ``wall_down`` on
    its upper-left cell (:func:`add_wall_kinds`), the bit by its index in ``kinds`` (a spec's)."""
    right, down = 1 << kinds.index("wall_right"), 1 << kinds.index("wall_down")
    return [(a[0] * size + a[1], right if b[0] == a[0] else down) for a, b in inner_edges(size)]


class EdgeWalls:
    """The walls of a maze's closed edges (kinds by ``marks``, :func:`wall_marks`; ``opened``: the open edges as
    bits, edge ``k`` bit ``k``), drawn when asked for: called with a dtype, the observation grid
    (:func:`walls_grid`); :meth:`words`, the same grid as one int (what
    :meth:`svot.envs.observation.BitObserver.observe` ORs into its own, with no array built). Immutable, so
    one is shared by every draw of the same maze (:class:`PassageBits`)."""

    __slots__ = ("size", "marks", "opened", "_words")

    def __init__(self, size: int, marks, opened: int):
        self.size, self.marks, self.opened = size, marks, opened
        self._words = (None, 0)  # (width, words) of the last words() call: an env asks with one width

    @property
    def is_open(self) -> list[bool]:
        return [self.opened >> k & 1 == 1 for k in range(len(self.marks))]

    def __call__(self, dtype) -> np.ndarray:
        return walls_grid(self.size, self.marks, self.is_open, dtype)

    def words(self, width: int) -> int:
        """The grid as an int, cell ``c`` its ``c``-th ``width``-bit word (little-endian order of cells)."""
        got_width, out = self._words
        if got_width == width:
            return out
        out = 0
        opened = self.opened
        for k, (cell, kind) in enumerate(self.marks):
            if not opened >> k & 1:
                out |= kind << (width * cell)
        self._words = (width, out)
        return out


class PassageBits:
    """Per maze (its open edges as bits, :func:`create_maze_mask`): the OR of its edges' bits (``open_bits``,
    :func:`open_bits`) and its :class:`EdgeWalls` (kinds by ``marks``), kept for the first ``limit`` mazes met
    (a 3x3 grid has 4,096 edge sets at most), so a small grid's maze repeats cost a lookup."""

    def __init__(self, size: int, open_bits: list[int], marks, limit: int = 4096):
        self.size, self.open_bits, self.marks, self.limit = size, open_bits, marks, limit
        self._memo: dict[int, tuple[int, EdgeWalls]] = {}
        # per byte of the edge bits (8 edges), the OR of its edges' bits for each byte value: a maze not
        # kept costs a lookup per byte
        self._bytes = []
        for lo in range(0, len(open_bits), 8):
            chunk = open_bits[lo:lo + 8]
            self._bytes.append((lo, [sum(b for j, b in enumerate(chunk) if v >> j & 1) for v in range(1 << len(chunk))]))

    def __call__(self, opened: int) -> tuple[int, EdgeWalls]:
        got = self._memo.get(opened)
        if got is None:
            edge_bits = 0
            for lo, table in self._bytes:
                edge_bits |= table[opened >> lo & 255]
            got = (edge_bits, EdgeWalls(self.size, self.marks, opened))
            if len(self._memo) < self.limit:
                self._memo[opened] = got
        return got


def walls_grid(size: int, marks, is_open, dtype) -> np.ndarray:
    """The observation grid of the walls (kinds by ``marks``, :func:`wall_marks`) of a maze's open edges."""
    flat = [0] * (size * size)
    for k, (cell, kind) in enumerate(marks):
        if not is_open[k]:
            flat[cell] |= kind
    return np.array(flat, dtype).reshape(size, size)
