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

import functools

import numpy as np

from svot.domains.maze.spec import SPEC
from svot.domains.maze.table5 import TABLE5
from svot.errors import ConfigError
from svot.problem_gen.cells import index_cell, index_cells_list
from svot.problem_gen.common import (
    MAX_ATTEMPTS,
    Draw,
    Generated,
    attempts_exhausted,
    count_for,
    finish,
)
from svot.problem_gen.grounding import cell_bits, kept_per_size, shared_grounding

DOMAIN = "maze"


def sampling_params(size: int, split: str) -> dict:
    density = TABLE5["wall_density"][split]
    walls = count_for(density, size * size)
    if size * size - walls < 2:
        raise ConfigError(f"maze {size}x{size} {split}: {walls} walls leave no room for a player and a goal")
    return {"wall_density": density, "walls": walls}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> dict:
    p = sampling_params(size, split)
    return layout_from_perm(size, p["walls"], rng.permutation(size * size).tolist())


def layout_from_perm(size: int, walls: int, perm: list[int]) -> dict:
    """The layout of one permutation of the cells: walls first, then the player, then the goal."""
    return {
        "domain": DOMAIN,
        "size": size,
        "player": list(index_cell(perm[walls], size)),
        "walls": index_cells_list(perm[:walls], size),
        "goal": list(index_cell(perm[walls + 1], size)),
    }


class AtomBits:
    """The shared grounding's bits of ``(at c)``, ``(wall c)`` and ``(goal c)`` by cell index ``r * N + c``."""

    def __init__(self, size: int):
        self.grounding = shared_grounding(SPEC, size)
        self.at, self.wall, self.goal = cell_bits(self.grounding, size, ("at", "wall", "goal"))

    def bound(self, walls: int, perm: list[int]) -> tuple[int, int]:
        """``(init, goal_pos)`` of the layout of ``perm``, as ``bind`` reads them off its problem."""
        init = self.at[perm[walls]] | self.goal[perm[walls + 1]]
        for i in perm[:walls]:
            init |= self.wall[i]
        return init, self.at[perm[walls + 1]]


atom_bits = kept_per_size(SPEC, AtomBits)


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """Layouts are searched on bits read straight off the shared grounding (a refused one builds no Problem);
    the kept one's Problem is built, named and checked by ``finish`` when first read, with the search's plan."""
    params = sampling_params(size, split)
    w = params["walls"]
    bits = atom_bits(size)
    stepper = bits.grounding.stepper
    for attempt in range(1, MAX_ATTEMPTS + 1):
        perm = rng.permutation(size * size).tolist()
        init, goal_pos = bits.bound(w, perm)
        result = stepper.bfs(init, goal_pos, 0)
        if result.solved:
            kept = {**params, "attempts": attempt}
            build = functools.partial(_package, size, split, layout_from_perm(size, w, perm), result.plan, kept)
            return Draw(DOMAIN, size, split, kept, build, init, goal_pos, 0, bits.grounding.shared)
    raise attempts_exhausted(DOMAIN, size, split, MAX_ATTEMPTS)


def _package(size: int, split: str, layout: dict, plan: list[int], params: dict) -> Generated:
    return finish(SPEC, size, split, layout, plan, params)
