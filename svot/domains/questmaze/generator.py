"""QuestMaze problems: a walled maze from RuleMaze's Alg. 3, both targets, and items on the way.

Sampling (all from one ``numpy.random.Generator``): the start and the two targets on three
distinct cells; the passages from :func:`svot.domains.passages.create_maze` (a depth-first perfect
maze from the start, then loops, ``loopPercent`` = 10); then ``round(density * free)`` items, each
a key, heart or food drawn uniformly, on distinct cells among the ``free`` other ones (density
0.3, OOD 0.6). The maze is connected, so a target is always reachable; the plan is the shortest
by breadth-first search on the grounded engine (actions tried in order up, down, left, right).

This is the domain's own sampler. RuleMaze's pools (:mod:`svot.rulemaze.pool`, Alg. 2 and 4)
filter and paint mazes for its rules on top of the same Alg. 3.
"""

from __future__ import annotations

import functools
import operator
from itertools import compress

import numpy as np

from svot.domains import get_spec
from svot.domains.drawn import DrawnBits, as_list, stream_of
from svot.domains.grid import cell_name, cells
from svot.domains.passages import EdgeWalls, create_maze_edges, edge_walls, inner_edges, open_bits, wall_marks
from svot.domains.questmaze.look import ITEMS, TARGETS
from svot.errors import ConfigError
from svot.problem_gen.common import Generated, finish_connected
from svot.problem_gen.grounding import cell_bits, kept_per_size, shared_grounding

DOMAIN = "questmaze"
ITEM_DENSITY = {"id": 0.3, "ood": 0.6}


def sampling_params(size: int, split: str) -> dict:
    if split not in ITEM_DENSITY:
        raise ConfigError(f"questmaze split must be one of {', '.join(ITEM_DENSITY)}, got {split!r}")
    density = ITEM_DENSITY[split]
    return {"item_density": density, "items": int(round(density * (size * size - 3)))}


@functools.lru_cache(maxsize=None)
def _item_count(size: int, split: str) -> int:
    """``sampling_params(size, split)["items"]``, once per size and split (a reset asks every time)."""
    return sampling_params(size, split)["items"]


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    return _layout(size, _draw(size, split, rng))


def _draw(size: int, split: str, rng: np.random.Generator) -> tuple:
    """The layout's draws, on cell indices ``r * N + c``: (start, princess, treasure, open edges
    (:func:`~svot.domains.passages.create_maze_edges`), items as (cell, index in ITEMS) in cell order)."""
    n_items = _item_count(size, split)
    n2 = size * size
    start, princess, treasure = as_list(rng.choice(n2, size=3, replace=False))
    is_open = create_maze_edges(size, start, (princess, treasure), rng)
    rest = [c for c in range(n2) if c != start and c != princess and c != treasure]
    picks = sorted(as_list(rng.choice(len(rest), size=n_items, replace=False)))
    k = len(ITEMS)
    items = [(rest[i], int(rng.integers(k))) for i in picks]
    return start, princess, treasure, is_open, items


def _layout(size: int, drawn: tuple) -> dict:
    start, princess, treasure, is_open, picked = drawn
    items: dict[str, list] = {}
    for c, i in picked:
        items.setdefault(ITEMS[i], []).append([c // size, c % size])
    edges = inner_edges(size)
    walls_right, walls_down = edge_walls(size, [edges[k] for k in range(len(edges)) if is_open[k]])
    return {
        "domain": DOMAIN,
        "size": size,
        "player": [start // size, start % size],
        "princess": [princess // size, princess % size],
        "treasure": [treasure // size, treasure % size],
        "items": {i: items[i] for i in ITEMS if i in items},
        "collected": {},
        "reached": "none",
        "walls_right": walls_right,
        "walls_down": walls_down,
    }


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    layout = sample_layout(size, split, rng)
    return finish_connected(get_spec(DOMAIN), size, split, layout, sampling_params(size, split), plan)


class _InitBits:
    """Per size, the shared grounding's bits of a layout's initial atoms (``problem_from_state``'s), by
    cell index and edge index, and the goal ``(ended)``."""

    def __init__(self, size: int):
        self.grounding = g = shared_grounding(DOMAIN, size)
        bit = g.task.bit
        self.at, self.free = cell_bits(g, size, ("at", "free"))
        names = [cell_name(c) for c in cells(size)]
        self.target = [[bit[("target-at", c, t)] for c in names] for t in TARGETS]
        self.item = [[bit[("item-at", c, i)] for c in names] for i in ITEMS]
        self.all_free = functools.reduce(operator.or_, self.free)
        self.open = open_bits(bit, size)
        self.walls = wall_marks(size, get_spec(DOMAIN).kinds)
        self.goal_pos = bit[("ended",)]


_init_bits = kept_per_size(DOMAIN, _InitBits)


def draw_bits(size: int, split: str, rng: np.random.Generator) -> DrawnBits:
    """:func:`generate`'s draws (the same ``rng`` calls) as the bits of the initial state over the size's
    shared grounding; the Problem (``generate(..., plan=False)``'s) is built when asked for. ``rng``: a
    numpy Generator, or the stream's :class:`~svot.domains.drawn.RawDraws` (the same values)."""
    drawn = _draw(size, split, rng)
    start, princess, treasure, is_open, items = drawn
    t = _init_bits(size)
    free = t.free
    init = t.at[start] | t.target[0][princess] | t.target[1][treasure]
    taken = free[princess] | free[treasure]
    item = t.item
    for c, i in items:
        init |= item[i][c]
        taken |= free[c]
    init |= t.all_free ^ taken
    init |= sum(compress(t.open, is_open))  # the edges' bits are distinct: their sum is their OR
    return DrawnBits(init, t.goal_pos, 0, t.grounding.shared, functools.partial(_package, size, split, drawn),
                     EdgeWalls(size, t.walls, is_open))


bit_stream = stream_of(draw_bits)  # draw_bits on the rng's outputs, read in Python (RawDraws, a batch ahead)


def _package(size: int, split: str, drawn: tuple) -> Generated:
    return finish_connected(get_spec(DOMAIN), size, split, _layout(size, drawn), sampling_params(size, split), False)
