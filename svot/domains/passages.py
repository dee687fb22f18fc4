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
from itertools import compress
from typing import Iterable

import numpy as np

from svot.domains.drawn import RawDraws, as_list
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
    """Phase 1 of Alg. 3: the passages of a perfect maze grown by DFS from ``src``."""
    passages: set[tuple[Cell, Cell]] = set()
    neighbours = _grid_neighbours(size)
    stack = [src]
    visited = {src}
    while stack:
        u = stack[-1]
        options = [v for v in neighbours[u] if v not in visited]
        if options:
            v = options[int(rng.integers(len(options)))]
            passages.add((min(u, v), max(u, v)))
            visited.add(v)
            stack.append(v)
        else:
            stack.pop()
    return passages


def _tree_parents(passages: set[tuple[Cell, Cell]], src: Cell) -> dict[Cell, Cell]:
    """Each cell's parent on the perfect maze's tree rooted at ``src`` (the tree's paths are unique)."""
    adj: dict[Cell, list[Cell]] = {}
    for a, b in passages:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    parent = {src: src}
    todo = [src]
    while todo:
        u = todo.pop()
        for v in adj.get(u, ()):
            if v not in parent:
                parent[v] = u
                todo.append(v)
    return parent


def _tree_path(parent: dict[Cell, Cell], src: Cell, dst: Cell) -> list[Cell]:
    path = [dst]
    while path[-1] != src:
        path.append(parent[path[-1]])
    return path[::-1]


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
    """Alg. 3 ``CreateMaze``: DFS perfect maze, then loop injection. Returns passages.

    The same steps and draws as :func:`dfs_perfect_maze`, :func:`_tree_parents` and
    :func:`opens_square` (the reference, ``tests/problem_gen/test_problem_gen_passages_fast.py``), on cell and
    edge indices (:func:`create_maze_edges`).
    """
    is_open = create_maze_edges(size, src[0] * size + src[1], [r * size + c for r, c in dsts], rng, loop_percent)
    pairs = _maze_tables(size).pairs
    return tuple([pairs[k] for k in range(len(pairs)) if is_open[k]])


def create_maze_edges(size: int, s: int, dsts: Iterable[int], rng: np.random.Generator,
                      loop_percent: float = LOOP_PERCENT) -> list[bool]:
    """:func:`create_maze` on cell indices ``r * N + c``: per inner edge (:func:`inner_edges`'s order), whether
    it is a passage. A sampler that builds bits per edge reads this, with no cell pairs in between.
    ``rng``: a numpy Generator, or a :class:`~svot.domains.drawn.RawDraws` (the same values)."""
    t = _maze_tables(size)
    plain = type(rng) is np.random.Generator or type(rng) is RawDraws  # whose permutation(0) draws nothing
    if plain and t.outcomes is not None:
        mask = _carve_tabled(t, s, dsts, rng, loop_percent)
        return [mask >> k & 1 == 1 for k in range(len(t.edges))]
    is_open, parent, opened = _dfs_tree(t, size, s, rng)
    for group, todo in _loop_groups(t, s, dsts, parent, opened, loop_percent):
        if group or not plain:
            _open_loops(group, todo, rng, is_open, t.squares if size > 2 else None)
    return is_open


def create_maze_mask(size: int, s: int, dsts: Iterable[int], rng: np.random.Generator,
                     loop_percent: float = LOOP_PERCENT) -> int:
    """:func:`create_maze_edges` as an int, edge ``k`` open where bit ``k`` is set (the same draws)."""
    t = _maze_tables(size)
    if t.outcomes is not None and (type(rng) is np.random.Generator or type(rng) is RawDraws):
        return _carve_tabled(t, s, dsts, rng, loop_percent)
    return sum(compress(t.edge_bits, create_maze_edges(size, s, dsts, rng, loop_percent)))


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


# Phase 1 as a table on small grids: the depth-first search's course is set by its draws alone, so every
# course is walked once per start (3x3: 176 in all) and a maze then costs its draws and a lookup per draw.
_TABLE_MAX_SIZE = 3


class _Carved:
    """One course of phase 1 (:func:`_dfs_tree`'s outcome): ``opened`` (the tree's edges as bits), ``parent``,
    and ``groups``: per (dsts, loop_percent), :func:`_loop_groups`' groups with their walls' 2x2 blocks as
    edge masks (``(group, todo, blocks)``, ``blocks[i]`` the masks of ``group[i]``'s other three edges)."""

    __slots__ = ("opened", "parent", "groups")

    def __init__(self, opened: int, parent: list[int]):
        self.opened, self.parent, self.groups = opened, parent, {}


class _Branch(Exception):
    """A scripted course ran out of choices at a draw among ``k`` moves."""

    def __init__(self, k: int):
        self.k = k


class _Script:
    """An rng whose ``integers(k)`` gives the scripted choices in turn (``integers(1)`` is 0 and no choice, as
    numpy's), raising :class:`_Branch` once they run out: :func:`_dfs_tree` itself walks each course."""

    def __init__(self, choices: tuple[int, ...]):
        self.choices, self.i = choices, 0

    def integers(self, k: int) -> int:
        if k == 1:
            return 0
        if self.i == len(self.choices):
            raise _Branch(k)
        self.i += 1
        return self.choices[self.i - 1]


def _course(t: "_MazeTables", size: int, s: int, choices: tuple[int, ...]):
    """The table node after ``choices``: a :class:`_Carved`, or a tuple of the nodes of each next choice."""
    try:
        _is_open, parent, opened = _dfs_tree(t, size, s, _Script(choices))
    except _Branch as branch:
        return tuple(_course(t, size, s, choices + (i,)) for i in range(branch.k))
    return _Carved(opened, parent)


def _carve_tabled(t: "_MazeTables", s: int, dsts: Iterable[int], rng, loop_percent: float) -> int:
    """:func:`create_maze_edges`' open edges as bits, phase 1 read off ``t.outcomes`` (a plain ``rng``: a
    forced move draws nothing, nor an empty group's permutation)."""
    node = t.outcomes[s]
    integers = rng.integers
    while type(node) is tuple:
        node = node[integers(len(node))]
    key = (tuple(dsts), loop_percent)
    groups = node.groups.get(key)
    if groups is None:
        blocks = t.square_masks
        groups = node.groups[key] = tuple(
            (group, todo, [blocks[k] for k in group])
            for group, todo in _loop_groups(t, s, key[0], node.parent, node.opened, loop_percent) if group
        )
    mask = node.opened
    for group, todo, walls in groups:
        order = rng.permutation(len(group))  # drawn even when nothing is to be opened, as the reference
        for i in (order if type(order) is list else order.tolist()):
            if todo == 0:
                break
            for block in walls[i]:
                if mask & block == block:  # opening it would open the whole 2x2 block
                    break
            else:
                mask |= 1 << group[i]
                todo -= 1
    return mask


def _dfs_tree(t: "_MazeTables", size: int, s: int, rng: np.random.Generator) -> tuple[list[bool], list[int], int]:
    """Phase 1 of Alg. 3 (:func:`dfs_perfect_maze`'s draws): the open edges of the perfect maze (a flag per
    edge, and the same as the bits of an int) and each cell's parent, recorded as the depth-first search
    grows it (a perfect maze is a tree, so they are the parents :func:`_tree_parents` finds from ``s``).
    The unvisited cells are the bits of an int, and ``t.options`` gives a cell's unvisited neighbours in
    ``DELTAS`` order without a scan. Once every cell is visited the search only backtracks, drawing
    nothing: it stops there."""
    options_of, nbmask = t.options, t.nbmask
    unvisited = ((1 << size * size) - 1) ^ (1 << s)
    parent = [-1] * (size * size)
    parent[s] = s
    is_open = [False] * len(t.edges)
    opened = 0
    stack = [s]
    # numpy's Generator.integers(1) returns 0 without drawing (RawDraws' too), so a forced move draws
    # nothing either way
    plain = type(rng) is np.random.Generator or type(rng) is RawDraws
    integers = rng.integers
    while stack:
        u = stack[-1]
        free = unvisited & nbmask[u]
        if free:
            options = options_of[u][free]
            v, k = options[0] if plain and len(options) == 1 else options[int(integers(len(options)))]
            is_open[k] = True
            opened |= 1 << k
            unvisited ^= 1 << v
            parent[v] = u
            if not unvisited:
                break
            stack.append(v)
        else:
            stack.pop()
    return is_open, parent, opened


def _open_loops(group: list[int], todo: int, rng: np.random.Generator, is_open: list[bool], squares) -> None:
    """Phase 2 of Alg. 3 on one group of walls: open ``todo`` of them in a random order, skipping a wall
    that would open a full 2x2 square (``squares``: :class:`_MazeTables`' ``squares``, None: no check).
    The permutation is drawn even when nothing is to be opened, as the reference draws it."""
    order = as_list(rng.permutation(len(group)))
    if todo == 0:
        return
    for i in order:
        k = group[i]
        if squares is not None and _closes_square(is_open, squares[k]):
            continue
        is_open[k] = True
        todo -= 1
        if todo == 0:
            return


def _closes_square(is_open: list[bool], squares) -> bool:
    """Whether one of a wall's 2x2 blocks (``squares``: the other three edges of each) has those three open
    (a loop over them: a generator expression costs more than the few blocks it checks)."""
    for e1, e2, e3 in squares:
        if is_open[e1] and is_open[e2] and is_open[e3]:
            return True
    return False


def inner_edges(size: int) -> tuple[tuple[Cell, Cell], ...]:
    """The inner edges of an N×N grid as cell pairs ``(a, b)``, ``a < b``, in :func:`create_maze_edges`'s order."""
    return _maze_tables(size).pairs


class _MazeTables:
    """Cell- and edge-index tables of an N×N grid for :func:`create_maze` (cell ``r * N + c``).

    ``edges``: the inner edges as ``(a, b)`` cell indices, ``a < b``, in :func:`_inner_edges`'s
    (sorted) order, ``pairs`` the same as cells; ``edge_of[a][b]``: an edge's index;
    ``neighbours``: :func:`_grid_neighbours` as indices, ``nbmask`` the same as a bit mask of cells,
    ``options[u][mask]``: :func:`_options`; ``touches[k]``: edge ``k``'s two cells as a bit mask;
    ``edges_at[u]``: the edges of cell ``u`` as a bit mask of edges, ``all_edges`` every edge;
    ``squares[k]``: per 2x2 block holding edge ``k``, its other three edges (``square_masks[k]``: the same as
    edge masks); ``edge_bits[k]``: ``1 << k``; ``outcomes[s]``: phase 1's table from start ``s``
    (:func:`_course`), None above ``_TABLE_MAX_SIZE``.
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
        self.touches = [(1 << a) | (1 << b) for a, b in self.edges]
        self.all_edges = (1 << len(self.edges)) - 1
        self.edges_at = [sum(1 << k for k, e in enumerate(self.edges) if u in e) for u in range(size * size)]
        by_pair = {pair: k for k, pair in enumerate(self.pairs)}
        self.squares = []
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
            self.squares.append(tuple(out))
        self.edge_bits = [1 << k for k in range(len(self.edges))]
        # the squares as edge masks (none checked at 2x2 and below, as Alg. 3 reads it)
        self.square_masks = [tuple(sum(1 << e for e in sq) for sq in out) if size > 2 else () for out in self.squares]
        self.outcomes = None
        if size <= _TABLE_MAX_SIZE:
            self.outcomes = [_course(self, size, s, ()) for s in range(size * size)]


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


def create_maze_reference(size: int, src: Cell, dsts: Iterable[Cell], rng: np.random.Generator,
                          loop_percent: float = LOOP_PERCENT) -> tuple[tuple[Cell, Cell], ...]:
    """Alg. 3 as first written (sets of cell pairs): what :func:`create_maze` is tested against."""
    passages = dfs_perfect_maze(size, src, rng)
    parent = _tree_parents(passages, src)
    on_path: set[Cell] = set()
    for dst in dsts:
        on_path.update(_tree_path(parent, src, dst))
    closed = [w for w in _inner_edges(size) if w not in passages]
    on_walls = [w for w in closed if w[0] in on_path or w[1] in on_path]
    off_walls = [w for w in closed if not (w[0] in on_path or w[1] in on_path)]
    check_squares = size > 2
    for group in (on_walls, off_walls):
        todo = loop_removals(len(group), loop_percent)
        for i in rng.permutation(len(group)):
            if todo == 0:
                break
            wall = group[int(i)]
            if check_squares and opens_square(passages, wall, size):
                continue
            passages.add(wall)
            todo -= 1
    return tuple(sorted(passages))


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
