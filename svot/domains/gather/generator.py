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
crosses), from :func:`svot.problem_gen.optimal.gather_plan` (A* on a move table
read off the engine; ``Generated.plan_optimal`` is True). Only when that search
passes its state limit (off Table 5) is the plan the greedy one, labelled
``plan_optimal=False``: if some single move
(k cells in one direction, inside the grid) collects balls, take the one that
collects the most (ties: shorter k, then up, down, left, right); otherwise
move vertically onto the row of the nearest remaining ball (Manhattan distance,
ties row-major), after which a collecting move exists. Each round collects a
ball or sets one up, so at most two moves per ball. The plan is replayed
through the grounded engine, which must reach the goal (all balls collected).
"""

from __future__ import annotations

import numpy as np

from svot.domains import get_spec
from svot.domains.gather import colours_for
from svot.domains.grid import DELTAS, DIRECTIONS, Cell
from svot.errors import ConfigError
from svot.problem_gen.common import (
    MAX_ATTEMPTS,
    PARAMS,
    Generated,
    attempts_exhausted,
    cells_list,
    count_for,
    finish,
    index_cell,
)
from svot.problem_gen.optimal import gather_plan

DOMAIN = "gather"


def colours_of(size: int) -> tuple[str, ...]:
    return tuple(PARAMS[DOMAIN]["colours"].get(size, colours_for(size)))


def sampling_params(size: int, split: str) -> dict:
    density = PARAMS[DOMAIN]["ball_density"][split]
    balls = count_for(density, size * size - 1)
    if balls < 1:
        raise ConfigError(f"gather {size}x{size} {split}: density {density} gives no ball")
    return {"ball_density": density, "balls": balls, "colours": list(colours_of(size))}


def sample_layout(size: int, split: str, rng: np.random.Generator) -> tuple[dict, int]:
    """(layout, number of colourings drawn)."""
    p = sampling_params(size, split)
    colours = p["colours"]
    k = p["balls"]
    perm = rng.permutation(size * size)
    where = [index_cell(i, size) for i in perm[1 : 1 + k]]
    for attempt in range(1, MAX_ATTEMPTS + 1):
        draw = rng.integers(len(colours), size=k)
        if k < len(colours) or len(set(draw.tolist())) == len(colours):
            break
    else:
        raise attempts_exhausted(DOMAIN, size, split, MAX_ATTEMPTS)
    balls = {c: cells_list(cell for cell, j in zip(where, draw.tolist()) if j == i) for i, c in enumerate(colours)}
    layout = {"domain": DOMAIN, "size": size, "player": list(index_cell(perm[0], size)), "balls": balls}
    return layout, attempt


def _entered(pos: Cell, d: str, k: int) -> list[Cell]:
    dr, dc = DELTAS[d]
    return [(pos[0] + dr * i, pos[1] + dc * i) for i in range(1, k + 1)]


def greedy_plan(size: int, player: Cell, balls) -> list[int]:
    """See the module docstring. ``balls``: cells of the remaining balls (any colour)."""
    remaining = {tuple(b) for b in balls}
    pos = tuple(player)
    plan: list[int] = []
    while remaining:
        best = None  # (collected, action, destination, cells)
        for k in range(1, size):
            for di, d in enumerate(DIRECTIONS):
                cells = _entered(pos, d, k)
                r, c = cells[-1]
                if not (0 <= r < size and 0 <= c < size):
                    continue
                got = sum(1 for x in cells if x in remaining)
                if got and (best is None or got > best[0]):
                    best = (got, 4 * (k - 1) + di, cells[-1], cells)
        if best is None:
            target = min(remaining, key=lambda b: (abs(b[0] - pos[0]) + abs(b[1] - pos[1]), b))
            dr = target[0] - pos[0]
            d = "down" if dr > 0 else "up"
            k = abs(dr)
            cells = _entered(pos, d, k)
            best = (0, 4 * (k - 1) + DIRECTIONS.index(d), cells[-1], cells)
        _got, action, pos, cells = best
        remaining.difference_update(cells)
        plan.append(action)
    return plan


PLAN_OPTIONAL = True  # every layout is solvable; generate(plan=False) skips the greedy plan


def generate(size: int, split: str, rng: np.random.Generator, plan: bool = True) -> Generated:
    spec = get_spec(DOMAIN)
    params = sampling_params(size, split)
    layout, attempts = sample_layout(size, split, rng)
    all_balls = [b for where in layout["balls"].values() for b in where]
    if plan:
        actions, optimal = plan_for(size, tuple(layout["player"]), all_balls)
    else:
        actions, optimal = None, True
    params = {
        **params,
        "per_colour": {c: len(v) for c, v in layout["balls"].items()},
        "attempts": attempts,
    }
    return finish(spec, size, split, layout, actions, params, plan_optimal=optimal)


def plan_for(size: int, player: Cell, balls) -> tuple[list[int], bool]:
    """(plan, optimal): the fewest-moves plan, or the greedy one (False) past the search limit."""
    plan = gather_plan(size, player, balls)
    if plan is not None:
        return plan, True
    return greedy_plan(size, player, balls), False
