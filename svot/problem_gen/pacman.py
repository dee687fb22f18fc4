"""Pacman problems (Table 5: sizes 4/5/6, coin density 0.3 → 0.5).

Sampling: the player on a uniformly drawn cell, then
``coins = round(density * (N * N - 1))`` coins (halves up: 5/7/11 ID and
8/12/18 OOD for N = 4/5/6) on distinct other cells, all from one permutation of
the cells.

Solvability and plan. There are no walls, so every cell is reachable and every
layout is solvable. A breadth-first search over collection subsets would face
up to 2^18 subsets at density 0.5, so the plan is built greedily over cells
instead: breadth-first search over cells (single-cell moves, tried up, down,
left, right) from the player to the nearest remaining coin (ties broken
row-major), follow that path (eating any coin it crosses), repeat until no coin
is left. The plan is then replayed through the grounded engine, which must reach
the goal; the greedy planner is not a transition model and is never trusted
without that replay.
"""

from __future__ import annotations

import numpy as np

from svot.domains import get_spec
from svot.domains.grid import Cell
from svot.errors import ConfigError
from svot.problem_gen.common import (
    PARAMS,
    Generated,
    cell_bfs,
    cells_list,
    count_for,
    finish,
    index_cell,
    path_actions,
)

DOMAIN = "pacman"


def sampling_params(size: int, split: str) -> dict:
    density = PARAMS[DOMAIN]["coin_density"][split]
    coins = count_for(density, size * size - 1)
    if coins < 1:
        raise ConfigError(f"pacman {size}x{size} {split}: density {density} gives no coin")
    return {"coin_density": density, "coins": coins}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    k = sampling_params(size, split)["coins"]
    perm = rng.permutation(size * size)
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(index_cell(perm[0], size)),
        "coins": cells_list(index_cell(i, size) for i in perm[1 : 1 + k]),
    }


def greedy_plan(size: int, player: Cell, coins) -> list[int]:
    """Nearest remaining coin first, by breadth-first search over the (wall-free) cells."""
    remaining = {tuple(c) for c in coins}
    pos = tuple(player)
    plan: list[int] = []
    while remaining:
        tree = cell_bfs(size, pos)
        target = min(remaining, key=lambda c: (tree[c][0], c))
        path = path_actions(tree, target)
        cells = []  # the cells the path enters, eating what it crosses
        cur = target
        while tree[cur][1] is not None:
            cells.append(cur)
            cur = tree[cur][1]
        remaining.difference_update(cells)
        plan.extend(path)
        pos = target
    return plan


PLAN_OPTIONAL = True  # every layout is solvable; generate(plan=False) skips the greedy plan


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    spec = get_spec(DOMAIN)
    params = sampling_params(size, split)
    layout = sample_layout(size, split, rng)
    actions = greedy_plan(size, tuple(layout["player"]), layout["coins"]) if plan else None
    return finish(spec, size, split, layout, actions, {**params, "attempts": 1})
