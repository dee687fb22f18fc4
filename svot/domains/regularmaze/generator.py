"""RegularMaze problems: a walled maze from RuleMaze's Alg. 3 and zones painted at random.

Sampling (all from one ``numpy.random.Generator``): the start and the goal on two distinct cells;
the passages from :func:`svot.domains.passages.create_maze` (a depth-first perfect maze from the
start, then loops, ``loopPercent`` = 10); then ``round(density * free)`` of the other cells,
drawn without replacement, each painted a zone colour drawn uniformly (density 0.3, OOD 0.6).
The maze is connected, so the goal is always reachable; the plan is the shortest by
breadth-first search on the grounded engine (actions tried in order up, down, left, right).

This is the domain's own sampler. RuleMaze's pools (:mod:`svot.rulemaze.pool`, Alg. 2 and 4)
filter and paint mazes for its rules on top of the same Alg. 3.
"""

from __future__ import annotations

import functools

import numpy as np

from svot.domains.regularmaze.spec import SPEC
from svot.kernel.grid import cell_name, cells
from svot.domains.passages import (PassageBits, edge_walls, inner_edges, layout_draws, mask_from_draws, open_bits,
                                   pick_distinct, wall_marks)
from svot.domains.regularmaze.look import GOAL_COLOUR, START_COLOUR, ZONES
from svot.errors import ConfigError
from svot.problem_gen.common import Draw, Generated, finish_connected
from svot.problem_gen.grounding import cell_bits, kept_per_size, shared_grounding

DOMAIN = "regularmaze"
ZONE_DENSITY = {"id": 0.3, "ood": 0.6}


def sampling_params(size: int, split: str) -> dict:
    if split not in ZONE_DENSITY:
        raise ConfigError(f"regularmaze split must be one of {', '.join(ZONE_DENSITY)}, got {split!r}")
    density = ZONE_DENSITY[split]
    return {"zone_density": density, "zones": int(round(density * (size * size - 2)))}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    return _layout(size, _draw(size, split, rng))


def _draw(size: int, split: str, rng: np.random.Generator) -> tuple:
    """The layout's draws, on cell indices ``r * N + c``: (start, goal, open edges
    as bits (:func:`~svot.domains.passages.create_maze_mask`), zones as (cell, index in ZONES) in cell order).

    One ``rng.random`` call gives every draw: the maze's (:func:`~svot.domains.passages.mask_from_draws`),
    then start, goal and the zone cells as one partial shuffle of the cells
    (:func:`~svot.domains.passages.pick_distinct`), then each zone's kind, ``int(u * len(ZONES))``."""
    p = sampling_params(size, split)
    n2, m, e = size * size, p["zones"], layout_draws(size)
    u = rng.random(e + 2 + 2 * m).tolist()
    start, goal, *picked = pick_distinct(n2, 2 + m, u, e)
    opened = mask_from_draws(size, start, (goal,), u)
    k = len(ZONES)
    at = e + 2 + m
    zones = [(c, int(u[at + i] * k)) for i, c in enumerate(sorted(picked))]
    return start, goal, opened, zones


def _layout(size: int, drawn: tuple) -> dict:
    start, goal, opened, picked = drawn
    zones: dict[str, list] = {}
    for c, z in picked:
        zones.setdefault(ZONES[z], []).append([c // size, c % size])
    edges = inner_edges(size)
    walls_right, walls_down = edge_walls(size, [edges[k] for k in range(len(edges)) if opened >> k & 1])
    return {
        "domain": DOMAIN,
        "size": size,
        "player": [start // size, start % size],
        "start": [start // size, start % size],
        "goal": [goal // size, goal % size],
        "zones": {z: zones[z] for z in ZONES if z in zones},
        "walls_right": walls_right,
        "walls_down": walls_down,
    }


class _InitBits:
    """Per size, the shared grounding's bits of a layout's initial atoms (``problem_from_state``'s), by
    cell index and edge index, and the goal ``(at goal)`` per cell."""

    def __init__(self, size: int):
        self.grounding = g = shared_grounding(SPEC, size)
        bit = g.task.bit
        self.at, self.goal = cell_bits(g, size, ("at", "goal"))
        names = [cell_name(c) for c in cells(size)]
        self.zone = [[bit[("zone", c, z)] for c in names] for z in ZONES]
        self.start_zone = [bit[("zone", c, START_COLOUR)] for c in names]
        self.goal_zone = [bit[("zone", c, GOAL_COLOUR)] for c in names]
        # a maze's edge bits and walls, by its open edges as bits
        self.maze = PassageBits(size, open_bits(bit, size), wall_marks(size, SPEC.kinds))


_init_bits = kept_per_size(SPEC, _InitBits)


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """The layout's draws as the bits of its initial state over the size's shared grounding; the Problem
    is built when first read (every maze is connected: the plan waits until asked for)."""
    drawn = _draw(size, split, rng)
    start, goal, opened, zones = drawn
    t = _init_bits(size)
    init = t.at[start] | t.start_zone[start] | t.goal[goal] | t.goal_zone[goal]
    zone = t.zone
    for c, z in zones:
        init |= zone[z][c]
    edge_bits, walls = t.maze(opened)
    params = {**sampling_params(size, split), "attempts": 1}
    build = functools.partial(_package, size, split, drawn)
    return Draw(DOMAIN, size, split, params, build, init | edge_bits, t.at[goal], 0, t.grounding.shared, walls)


def _package(size: int, split: str, drawn: tuple) -> Generated:
    return finish_connected(SPEC, size, split, _layout(size, drawn), sampling_params(size, split), False)
