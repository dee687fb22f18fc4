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

import numpy as np

from svot.domains import get_spec
from svot.domains.grid import cells
from svot.domains.passages import create_maze
from svot.domains.questmaze5.look import ITEMS
from svot.errors import ConfigError
from svot.problem_gen.common import Generated, finish_connected

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
    p = sampling_params(size, split)
    logical = cells(p["logical_size"])
    start, princess, treasure = (logical[int(i)] for i in rng.choice(len(logical), size=3, replace=False))
    passages = create_maze(p["logical_size"], start, [princess, treasure], rng)
    free = {_on_grid(c) for c in logical}
    free |= {(a[0] + b[0], a[1] + b[1]) for a, b in passages}  # the grid cell between 2a and 2b
    rest = [c for c in logical if c not in (start, princess, treasure)]
    items: dict[str, list] = {}
    for i in sorted(int(i) for i in rng.choice(len(rest), size=p["items"], replace=False)):
        items.setdefault(ITEMS[int(rng.integers(len(ITEMS)))], []).append(list(_on_grid(rest[i])))
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(_on_grid(start)),
        "targets": {"princess": [list(_on_grid(princess))], "treasure": [list(_on_grid(treasure))]},
        "items": {i: items[i] for i in ITEMS if i in items},
        "collected": {},
        "reached": "none",
        "monsters": [list(c) for c in cells(size) if c not in free],
    }


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    layout = sample_layout(size, split, rng)
    return finish_connected(get_spec(DOMAIN), size, split, layout, sampling_params(size, split), plan)
