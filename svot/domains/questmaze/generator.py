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

import numpy as np

from svot.domains.questmaze.spec import SPEC
from svot.kernel.grid import cell_name, cells
from svot.domains.passages import (PassageBits, edge_walls, inner_edges, layout_draws, mask_from_draws, open_bits,
                                   pick_distinct, wall_marks)
from svot.domains.questmaze.look import ITEMS, TARGETS
from svot.errors import ConfigError
from svot.problem_gen.common import Draw, Generated, finish_connected
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
    """The layout's draws, on cell indices ``r * N + c``: (start, princess, treasure, open edges as bits
    (:func:`~svot.domains.passages.create_maze_mask`), items as (cell, index in ITEMS) in cell order).

    One ``rng.random`` call gives every draw: the maze's (:func:`~svot.domains.passages.mask_from_draws`),
    then the three cells and the item cells as one partial shuffle of the cells
    (:func:`~svot.domains.passages.pick_distinct`), then each item's kind, ``int(u * len(ITEMS))``."""
    n2, m, e = size * size, _item_count(size, split), layout_draws(size)
    u = rng.random(e + 3 + 2 * m).tolist()
    start, princess, treasure, *picked = pick_distinct(n2, 3 + m, u, e)
    opened = mask_from_draws(size, start, (princess, treasure), u)
    k = len(ITEMS)
    at = e + 3 + m
    items = [(c, int(u[at + i] * k)) for i, c in enumerate(sorted(picked))]
    return start, princess, treasure, opened, items


def _layout(size: int, drawn: tuple) -> dict:
    start, princess, treasure, opened, picked = drawn
    items: dict[str, list] = {}
    for c, i in picked:
        items.setdefault(ITEMS[i], []).append([c // size, c % size])
    edges = inner_edges(size)
    walls_right, walls_down = edge_walls(size, [edges[k] for k in range(len(edges)) if opened >> k & 1])
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


class _InitBits:
    """Per size, the shared grounding's bits of a layout's initial atoms (``problem_from_state``'s), by
    cell index and edge index, and the goal ``(ended)``.

    ``placed(start, princess, treasure)``: the bits of those three and of every other cell free, with the
    cells left for items (``_draw``'s ``rest``); ``swap[i][c]``: what an item ``i`` on cell ``c`` flips
    there (free off, the item on); ``maze(opened)``: a maze's edge bits and walls (:class:`PassageBits`)."""

    def __init__(self, size: int):
        self.grounding = g = shared_grounding(SPEC, size)
        bit = g.task.bit
        self.at, self.free = cell_bits(g, size, ("at", "free"))
        names = [cell_name(c) for c in cells(size)]
        self.target = [[bit[("target-at", c, t)] for c in names] for t in TARGETS]
        self.item = [[bit[("item-at", c, i)] for c in names] for i in ITEMS]
        self.all_free = functools.reduce(operator.or_, self.free)
        self.swap = [[b | f for b, f in zip(row, self.free)] for row in self.item]
        self.maze = PassageBits(size, open_bits(bit, size), wall_marks(size, SPEC.kinds))
        self.goal_pos = bit[("ended",)]
        self.n2 = n2 = size * size
        self._placed: list = [None] * n2 ** 3

    def placed(self, start: int, princess: int, treasure: int) -> tuple[int, list[int]]:
        key = (start * self.n2 + princess) * self.n2 + treasure
        got = self._placed[key]
        if got is None:
            init = self.at[start] | self.target[0][princess] | self.target[1][treasure]
            init |= self.all_free ^ (self.free[princess] | self.free[treasure])
            rest = [c for c in range(self.n2) if c != start and c != princess and c != treasure]
            got = self._placed[key] = (init, rest)
        return got


_init_bits = kept_per_size(SPEC, _InitBits)


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """The layout's draws (:func:`_draw`) as the bits of its initial state over the size's shared grounding;
    the Problem is built when first read (every maze is connected: the plan waits until asked for)."""
    drawn = _draw(size, split, rng)
    start, princess, treasure, opened, items = drawn
    t = _init_bits(size)
    init, _rest = t.placed(start, princess, treasure)
    swap = t.swap
    for c, j in items:
        init ^= swap[j][c]  # c is free in init: the item takes it
    edge_bits, walls = t.maze(opened)
    params = {**sampling_params(size, split), "attempts": 1}
    build = functools.partial(_package, size, split, drawn)
    return Draw(DOMAIN, size, split, params, build, init | edge_bits, t.goal_pos, 0, t.grounding.shared, walls)


def _package(size: int, split: str, drawn: tuple) -> Generated:
    return finish_connected(SPEC, size, split, _layout(size, drawn), sampling_params(size, split), False)
