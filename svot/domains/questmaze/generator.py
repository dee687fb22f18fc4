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

import numpy as np

from svot.domains import get_spec
from svot.domains.grid import cells
from svot.domains.passages import create_maze, edge_walls
from svot.domains.questmaze.look import ITEMS
from svot.errors import ConfigError
from svot.problem_gen.common import Generated, finish_connected

DOMAIN = "questmaze"
ITEM_DENSITY = {"id": 0.3, "ood": 0.6}


def sampling_params(size: int, split: str) -> dict:
    if split not in ITEM_DENSITY:
        raise ConfigError(f"questmaze split must be one of {', '.join(ITEM_DENSITY)}, got {split!r}")
    density = ITEM_DENSITY[split]
    return {"item_density": density, "items": int(round(density * (size * size - 3)))}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    p = sampling_params(size, split)
    pool = cells(size)
    start, princess, treasure = (pool[int(i)] for i in rng.choice(len(pool), size=3, replace=False))
    passages = create_maze(size, start, [princess, treasure], rng)
    rest = [c for c in pool if c not in (start, princess, treasure)]
    items: dict[str, list] = {}
    for i in sorted(int(i) for i in rng.choice(len(rest), size=p["items"], replace=False)):
        items.setdefault(ITEMS[int(rng.integers(len(ITEMS)))], []).append(list(rest[i]))
    walls_right, walls_down = edge_walls(size, passages)
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(start),
        "princess": list(princess),
        "treasure": list(treasure),
        "items": {i: items[i] for i in ITEMS if i in items},
        "collected": {},
        "reached": "none",
        "walls_right": walls_right,
        "walls_down": walls_down,
    }


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    layout = sample_layout(size, split, rng)
    return finish_connected(get_spec(DOMAIN), size, split, layout, sampling_params(size, split), plan)
