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
from typing import Iterable

import numpy as np

from svot.domains.grid import DELTAS, cell_name

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
    return int(np.ceil(n_walls * loop_percent / 300 - 1e-12))


def create_maze(size: int, src: Cell, dsts: Iterable[Cell], rng: np.random.Generator,
                loop_percent: float = LOOP_PERCENT) -> tuple[tuple[Cell, Cell], ...]:
    """Alg. 3 ``CreateMaze``: DFS perfect maze, then loop injection. Returns passages.

    The same steps and draws as :func:`dfs_perfect_maze`, :func:`_tree_parents` and
    :func:`opens_square` (the reference, ``tests/problem_gen/test_problem_gen_passages_fast.py``), on cell and
    edge indices: the tree's parents are recorded as the depth-first search grows it (a perfect
    maze is a tree, so they are the parents :func:`_tree_parents` finds from ``src``).
    """
    t = _maze_tables(size)
    n = size * size
    neighbours = t.neighbours
    edge_of = t.edge_of
    # phase 1: the depth-first perfect maze, its tree parents recorded on the way
    s = src[0] * size + src[1]
    visited = [False] * n
    visited[s] = True
    parent = [-1] * n
    parent[s] = s
    is_open = [False] * len(t.edges)
    stack = [s]
    # numpy's Generator.integers(1) returns 0 without drawing, so a forced move draws nothing either way
    plain = type(rng) is np.random.Generator
    integers = rng.integers
    while stack:
        u = stack[-1]
        options = [v for v in neighbours[u] if not visited[v]]
        if options:
            k = len(options)
            v = options[0] if k == 1 and plain else options[int(integers(k))]
            is_open[edge_of[u][v]] = True
            visited[v] = True
            parent[v] = u
            stack.append(v)
        else:
            stack.pop()
    # phase 2: loops, walls touching the tree paths from src to each dst first
    on_path = [False] * n
    on_path[s] = True
    for r, c in dsts:
        x = r * size + c
        while not on_path[x]:
            on_path[x] = True
            x = parent[x]
    on_walls, off_walls = [], []
    for k, (a, b) in enumerate(t.edges):
        if not is_open[k]:
            (on_walls if on_path[a] or on_path[b] else off_walls).append(k)
    squares = t.squares
    check_squares = size > 2
    for group in (on_walls, off_walls):
        todo = loop_removals(len(group), loop_percent)
        for i in rng.permutation(len(group)):
            if todo == 0:
                break
            k = group[int(i)]
            if check_squares and any(is_open[e1] and is_open[e2] and is_open[e3] for e1, e2, e3 in squares[k]):
                continue
            is_open[k] = True
            todo -= 1
    pairs = t.pairs
    return tuple([pairs[k] for k in range(len(pairs)) if is_open[k]])


class _MazeTables:
    """Cell- and edge-index tables of an N×N grid for :func:`create_maze` (cell ``r * N + c``).

    ``edges``: the inner edges as ``(a, b)`` cell indices, ``a < b``, in :func:`_inner_edges`'s
    (sorted) order, ``pairs`` the same as cells; ``edge_of[a][b]``: an edge's index;
    ``neighbours``: :func:`_grid_neighbours` as indices; ``squares[k]``: per 2x2 block
    holding edge ``k``, its other three edges.
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
