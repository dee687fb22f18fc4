"""OpenQuestMaze problems: a logical maze from RuleMaze's Alg. 3 laid out on the open grid, both
targets, and items.

Sampling (all from one ``numpy.random.Generator``): for a grid of side N, a logical maze of side
``m = (N + 1) / 2``: the start and the two targets on three distinct logical cells, the passages
from :func:`svot.domains.passages.create_maze` (a depth-first perfect maze from the start, then
loops). Logical cell ``(r, c)`` is grid cell ``(2r, 2c)``; an open passage is the grid cell between
its two ends; every other cell (the ``(odd, odd)`` ones and those of closed walls) holds a monster.
Then ``round(density * (m² - 3))`` items, each a key, heart or food drawn uniformly, on distinct
logical cells among the other ones (density 0.3, OOD 0.6). The free cells are connected, so a
target is always reachable; the plan is the shortest by breadth-first search on the grounded
engine (actions tried in order up, down, left, right).

This is the domain's own sampler. RuleMaze's open-grid pools (:mod:`svot.rulemaze.open_grid`)
filter mazes for two solution paths and place targets and items along them, on the same Alg. 3.
"""

from __future__ import annotations

import functools
import operator
from itertools import compress

import numpy as np

from svot.domains.questmaze5.spec import SPEC
from svot.kernel.grid import cell_name, cells
from svot.domains.passages import inner_edges, layout_draws, mask_from_draws, pick_distinct
from svot.domains.questmaze5.look import ITEMS, TARGETS
from svot.errors import ConfigError
from svot.problem_gen.common import Draw, Generated, finish_connected
from svot.problem_gen.grounding import kept_per_size, shared_grounding

DOMAIN = "questmaze5"
ITEM_DENSITY = {"id": 0.3, "ood": 0.6}


def logical_size(size: int) -> int:
    if size < 3 or size % 2 == 0:
        raise ConfigError(f"{DOMAIN} grids have an odd side >= 3 (2n - 1 for a logical n x n maze), got {size}")
    return (size + 1) // 2


def sampling_params(size: int, split: str) -> dict:
    if split not in ITEM_DENSITY:
        raise ConfigError(f"{DOMAIN} split must be one of {', '.join(ITEM_DENSITY)}, got {split!r}")
    m = logical_size(size)
    density = ITEM_DENSITY[split]
    return {"logical_size": m, "item_density": density, "items": int(round(density * (m * m - 3)))}


def _on_grid(cell) -> tuple[int, int]:
    return 2 * cell[0], 2 * cell[1]


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    return _layout(size, _draw(size, split, rng))


def _draw(size: int, split: str, rng: np.random.Generator) -> tuple:
    """The layout's draws, on logical cell indices ``r * m + c``: (start, princess, treasure, the logical
    maze's open edges (:func:`~svot.domains.passages.create_maze_mask`, a flag per edge), items as (logical cell, index in
    ITEMS) in cell order).

    One ``rng.random`` call gives every draw, as in QuestMaze's sampler: the maze's, then the three cells and
    the item cells as one partial shuffle (:func:`~svot.domains.passages.pick_distinct`), then the item kinds."""
    p = sampling_params(size, split)
    m = p["logical_size"]
    n, e = p["items"], layout_draws(m)
    u = rng.random(e + 3 + 2 * n).tolist()
    start, princess, treasure, *picked = pick_distinct(m * m, 3 + n, u, e)
    opened = mask_from_draws(m, start, (princess, treasure), u)
    is_open = [opened >> k & 1 == 1 for k in range(len(inner_edges(m)))]
    k = len(ITEMS)
    at = e + 3 + n
    items = [(c, int(u[at + i] * k)) for i, c in enumerate(sorted(picked))]
    return start, princess, treasure, is_open, items


def _layout(size: int, drawn: tuple) -> dict:
    start, princess, treasure, is_open, picked = drawn
    m = logical_size(size)

    def grid(i: int) -> list[int]:  # logical cell index -> its grid cell
        return [2 * (i // m), 2 * (i % m)]

    free = {(2 * r, 2 * c) for r, c in cells(m)}
    edges = inner_edges(m)
    free |= {(a[0] + b[0], a[1] + b[1]) for k, (a, b) in enumerate(edges) if is_open[k]}  # between 2a and 2b
    items: dict[str, list] = {}
    for c, i in picked:
        items.setdefault(ITEMS[i], []).append(grid(c))
    return {
        "domain": DOMAIN,
        "size": size,
        "player": grid(start),
        "targets": {"princess": [grid(princess)], "treasure": [grid(treasure)]},
        "items": {i: items[i] for i in ITEMS if i in items},
        "collected": {},
        "reached": "none",
        "monsters": [list(c) for c in cells(size) if c not in free],
    }


class _InitBits:
    """Per size, the shared grounding's bits of a layout's initial atoms (``problem_from_state``'s): by
    logical cell (its grid cell's), by logical edge (the grid cell between its ends: free when open, a
    monster when closed), the cells that are always monsters, and the goal ``(ended)``."""

    def __init__(self, size: int):
        self.grounding = g = shared_grounding(SPEC, size)
        bit = g.task.bit
        m = logical_size(size)
        names = {cell: cell_name(cell) for cell in cells(size)}
        on_grid = [names[(2 * r, 2 * c)] for r, c in cells(m)]
        self.at = [bit[("at", c)] for c in on_grid]
        self.free = [bit[("free", c)] for c in on_grid]
        self.target = [[bit[("target-at", c, t)] for c in on_grid] for t in TARGETS]
        self.item = [[bit[("item-at", c, i)] for c in on_grid] for i in ITEMS]
        between = [names[(a[0] + b[0], a[1] + b[1])] for a, b in inner_edges(m)]
        self.edge_free = [bit[("free", c)] for c in between]
        self.edge_monster = [bit[("monster", c)] for c in between]
        odd = [names[cell] for cell in cells(size) if cell[0] % 2 and cell[1] % 2]  # (odd, odd): never free
        self.base = functools.reduce(operator.or_, self.free + [bit[("monster", c)] for c in odd])
        self.goal_pos = bit[("ended",)]


_init_bits = kept_per_size(SPEC, _InitBits)


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """The layout's draws as the bits of its initial state over the size's shared grounding; the Problem
    is built when first read (the free cells are connected: the plan waits until asked for)."""
    drawn = _draw(size, split, rng)
    start, princess, treasure, is_open, items = drawn
    t = _init_bits(size)
    free = t.free
    init = t.base ^ free[princess] ^ free[treasure]  # every logical cell is free but the targets' and items'
    init |= t.at[start] | t.target[0][princess] | t.target[1][treasure]
    item = t.item
    for c, i in items:
        init ^= free[c]
        init |= item[i][c]
    # the cells between logical cells: free where the edge is open, a monster where closed (distinct bits:
    # a sum is their OR)
    init |= sum(compress(t.edge_free, is_open)) + sum(compress(t.edge_monster, map(operator.not_, is_open)))
    params = {**sampling_params(size, split), "attempts": 1}
    build = functools.partial(_package, size, split, drawn)
    return Draw(DOMAIN, size, split, params, build, init, t.goal_pos, 0, t.grounding.shared)


def _package(size: int, split: str, drawn: tuple) -> Generated:
    return finish_connected(SPEC, size, split, _layout(size, drawn), sampling_params(size, split), False)
