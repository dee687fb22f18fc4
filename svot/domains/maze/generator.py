"""Maze problems (Table 5: sizes 5/6/7, wall density 0.3 → 0.5).

Sampling: ``walls = round(density * N * N)`` walls (halves rounded up, see
:func:`~svot.problem_gen.common.count_for`: 8/11/15 walls ID and 13/18/25 OOD
for N = 5/6/7) on distinct cells drawn uniformly, then the player's start and
the goal on two further distinct free cells, all from one permutation of the
cells. A layout is kept only if breadth-first search on the grounded engine
reaches the goal; that search's shortest plan is returned (actions tried in
order up, down, left, right).
"""

from __future__ import annotations

import numpy as np

from svot.domains import get_spec
from svot.domains.maze.table5 import TABLE5
from svot.errors import ConfigError
from svot.problem_gen.cells import index_cell, index_cells_list
from svot.problem_gen.common import (
    MAX_ATTEMPTS,
    Generated,
    attempts_exhausted,
    count_for,
    finish,
    problem_name,
)
from svot.problem_gen.grounding import shared_grounding

DOMAIN = "maze"


def sampling_params(size: int, split: str) -> dict:
    density = TABLE5["wall_density"][split]
    walls = count_for(density, size * size)
    if size * size - walls < 2:
        raise ConfigError(f"maze {size}x{size} {split}: {walls} walls leave no room for a player and a goal")
    return {"wall_density": density, "walls": walls}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    p = sampling_params(size, split)
    perm = rng.permutation(size * size).tolist()
    w = p["walls"]
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(index_cell(perm[w], size)),
        "walls": index_cells_list(perm[:w], size),
        "goal": list(index_cell(perm[w + 1], size)),
    }


def generate(size: int, split: str, rng: np.random.Generator) -> Generated:
    spec = get_spec(DOMAIN)
    params = sampling_params(size, split)
    grounding = shared_grounding(DOMAIN, size)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        layout = sample_layout(size, split, rng)
        problem = spec.problem_from_state(layout, problem_name(DOMAIN, size, split, layout))
        bound = grounding.bind(problem)
        result = grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg)
        if result.solved:
            return finish(spec, size, split, layout, result.plan, {**params, "attempts": attempt}, problem)
    raise attempts_exhausted(DOMAIN, size, split, MAX_ATTEMPTS)
