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

import numpy as np

from svot.domains import get_spec
from svot.domains.grid import cells
from svot.domains.passages import create_maze, edge_walls
from svot.domains.regularmaze.look import ZONES
from svot.errors import ConfigError
from svot.problem_gen.common import Generated, finish_connected

DOMAIN = "regularmaze"
ZONE_DENSITY = {"id": 0.3, "ood": 0.6}


def sampling_params(size: int, split: str) -> dict:
    if split not in ZONE_DENSITY:
        raise ConfigError(f"regularmaze split must be one of {', '.join(ZONE_DENSITY)}, got {split!r}")
    density = ZONE_DENSITY[split]
    return {"zone_density": density, "zones": int(round(density * (size * size - 2)))}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    p = sampling_params(size, split)
    pool = cells(size)
    start, goal = (pool[int(i)] for i in rng.choice(len(pool), size=2, replace=False))
    passages = create_maze(size, start, [goal], rng)
    rest = [c for c in pool if c not in (start, goal)]
    zones: dict[str, list] = {}
    for i in sorted(int(i) for i in rng.choice(len(rest), size=p["zones"], replace=False)):
        zones.setdefault(ZONES[int(rng.integers(len(ZONES)))], []).append(list(rest[i]))
    walls_right, walls_down = edge_walls(size, passages)
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(start),
        "start": list(start),
        "goal": list(goal),
        "zones": {z: zones[z] for z in ZONES if z in zones},
        "walls_right": walls_right,
        "walls_down": walls_down,
    }


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    layout = sample_layout(size, split, rng)
    return finish_connected(get_spec(DOMAIN), size, split, layout, sampling_params(size, split), plan)
