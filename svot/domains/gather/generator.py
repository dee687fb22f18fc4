"""Gather problems (Table 5: sizes 4/5/6, ball density 0.3 → 0.5, 2/3/4 colours).

Sampling: the player on a uniformly drawn cell, then
``balls = round(density * (N * N - 1))`` balls (halves up: 5/7/11 ID and 8/12/18
OOD for N = 4/5/6) on distinct other cells, all from one permutation of the
cells. Colours: {red, green} for N = 4, {red, green, blue} for 5, {red, green,
blue, yellow} for 6 (``svot.domains.gather.colours_for``). Each ball's colour is
uniform over the size's colours, and the colouring is redrawn until every colour
appears at least once (the paper varies "the number of balls of each color";
an absent colour would make that count trivially 0). So the colours are uniform
conditioned on all being present. With fewer balls than colours (only possible
off Table 5) the condition is dropped.

Solvability and plan. There are no walls, so every layout is solvable. The plan
has the fewest agent moves (one move = one env step, however many cells it
crosses), from :func:`svot.domains.gather.solver.gather_plan` (A* on a move
table read off the engine; ``Generated.plan_optimal`` is True). Only when that
search passes its state limit (off Table 5) is the plan the greedy one
(:func:`~svot.domains.gather.solver.greedy_plan`), labelled
``plan_optimal=False``: if some single move
(k cells in one direction, inside the grid) collects balls, take the one that
collects the most (ties: shorter k, then up, down, left, right); otherwise
move vertically onto the row of the nearest remaining ball (Manhattan distance,
ties row-major), after which a collecting move exists. Each round collects a
ball or sets one up, so at most two moves per ball. The plan is replayed
through the grounded engine, which must reach the goal (all balls collected).
"""

from __future__ import annotations

import functools

import numpy as np

from svot.domains.gather.spec import SPEC
from svot.domains.gather.spec import colours_for
from svot.domains.gather.solver import gather_plan, greedy_plan
from svot.domains.gather.table5 import TABLE5
from svot.kernel.grid import Cell
from svot.errors import ConfigError
from svot.problem_gen.cells import index_cell, index_cells_list
from svot.problem_gen.common import MAX_ATTEMPTS, Draw, Generated, attempts_exhausted, count_for, finish

DOMAIN = "gather"


def colours_of(size: int) -> tuple[str, ...]:
    return tuple(TABLE5["colours"].get(size, colours_for(size)))


def sampling_params(size: int, split: str) -> dict:
    density = TABLE5["ball_density"][split]
    balls = count_for(density, size * size - 1)
    if balls < 1:
        raise ConfigError(f"gather {size}x{size} {split}: density {density} gives no ball")
    return {"ball_density": density, "balls": balls, "colours": list(colours_of(size))}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> tuple[dict, int]:
    """(layout, number of colourings drawn)."""
    p = sampling_params(size, split)
    colours = p["colours"]
    k = p["balls"]
    perm = rng.permutation(size * size).tolist()
    where = perm[1 : 1 + k]
    for attempt in range(1, MAX_ATTEMPTS + 1):
        draw = rng.integers(len(colours), size=k)
        if k < len(colours) or len(set(draw.tolist())) == len(colours):
            break
    else:
        raise attempts_exhausted(DOMAIN, size, split, MAX_ATTEMPTS)
    by_colour: list[list] = [[] for _ in colours]
    for cell, j in zip(where, draw.tolist()):
        by_colour[j].append(cell)
    balls = {c: index_cells_list(by_colour[i], size) for i, c in enumerate(colours)}
    layout = {"domain": DOMAIN, "size": size, "player": list(index_cell(perm[0], size)), "balls": balls}
    return layout, attempt


def sample(size: int, split: str, rng: np.random.Generator) -> Draw:
    """Every layout is solvable: the colourings are redrawn, the layout kept; its Problem built when first read."""
    params = sampling_params(size, split)
    layout, attempts = sample_layout(size, split, rng)
    params = {**params, "per_colour": {c: len(v) for c, v in layout["balls"].items()}, "attempts": attempts}
    return Draw(DOMAIN, size, split, params, functools.partial(_package, size, split, layout, params))


def _package(size: int, split: str, layout: dict, params: dict) -> Generated:
    return finish(SPEC, size, split, layout, None, params)


def plan(gen: Generated) -> tuple[list[int], bool]:
    """``generate``'s plan of a drawn problem: :func:`plan_for` of its layout."""
    balls = [b for where in gen.state["balls"].values() for b in where]
    return plan_for(gen.size, tuple(gen.state["player"]), balls)


def plan_for(size: int, player: Cell, balls) -> tuple[list[int], bool]:
    """(plan, optimal): the fewest-moves plan, or the greedy one (False) past the search limit."""
    plan = gather_plan(size, player, balls)
    if plan is not None:
        return plan, True
    return greedy_plan(size, player, balls), False
