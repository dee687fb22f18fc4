"""Pacman problems (Table 5: sizes 4/5/6, coin density 0.3 → 0.5).

Sampling: the player on a uniformly drawn cell, then
``coins = round(density * (N * N - 1))`` coins (halves up: 5/7/11 ID and
8/12/18 OOD for N = 4/5/6) on distinct other cells, all from one permutation of
the cells.

Solvability and plan. There are no walls, so every cell is reachable and every
layout is solvable. The plan is a shortest one, from
:func:`svot.domains.pacman.solver.pacman_plan` (Held-Karp over the coins on a
move table read off the engine; ``Generated.plan_optimal`` is True). Only beyond
``svot.problem_gen.optimal.MAX_ITEMS`` coins (off Table 5) is it the greedy plan
(:func:`~svot.domains.pacman.solver.greedy_plan`), labelled
``plan_optimal=False``: breadth-first search over cells (single-cell moves,
tried up, down, left, right) from the player to the nearest remaining coin
(ties broken row-major), follow that path (eating any coin it crosses), repeat
until no coin is left. Either plan is replayed through the grounded engine,
which must reach the goal; no planner is trusted without that replay.
"""

from __future__ import annotations

import functools

import numpy as np

from svot.domains.pacman.spec import SPEC
from svot.kernel.grid import Cell
from svot.domains.pacman.solver import greedy_plan, pacman_plan
from svot.domains.pacman.table5 import TABLE5
from svot.errors import ConfigError
from svot.problem_gen.cells import index_cell, index_cells_list
from svot.problem_gen.common import Draw, Generated, count_for, finish

DOMAIN = "pacman"


def sampling_params(size: int, split: str) -> dict:
    density = TABLE5["coin_density"][split]
    coins = count_for(density, size * size - 1)
    if coins < 1:
        raise ConfigError(f"pacman {size}x{size} {split}: density {density} gives no coin")
    return {"coin_density": density, "coins": coins}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    k = sampling_params(size, split)["coins"]
    perm = rng.permutation(size * size).tolist()
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(index_cell(perm[0], size)),
        "coins": index_cells_list(perm[1 : 1 + k], size),
    }


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """Every layout is solvable: one draw, its Problem built when first read (the env's engine needs it)."""
    params = {**sampling_params(size, split), "attempts": 1}
    layout = sample_layout(size, split, rng)
    return Draw(DOMAIN, size, split, params, functools.partial(_package, size, split, layout, params))


def _package(size: int, split: str, layout: dict, params: dict) -> Generated:
    return finish(SPEC, size, split, layout, None, params)


def plan(gen: Generated) -> tuple[list[int], bool]:
    """``generate``'s plan of a drawn problem: :func:`plan_for` of its layout."""
    return plan_for(gen.size, tuple(gen.state["player"]), gen.state["coins"])


def plan_for(size: int, player: Cell, coins) -> tuple[list[int], bool]:
    """(plan, optimal): the shortest plan, or the greedy one (False) beyond the solver's limit."""
    plan = pacman_plan(size, player, coins)
    if plan is not None:
        return plan, True
    return greedy_plan(size, player, coins), False
