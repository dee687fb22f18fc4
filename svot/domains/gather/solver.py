"""Gather's plans: the one with the fewest moves (A* on the move table) and the greedy one.

The domain object binds this module as its solver (``svot/domains/gather/__init__.py``): :func:`svot.problem_gen.solve`
calls :func:`solve`, and the generator plans with :func:`gather_plan` (falling
back to :func:`greedy_plan` when the A* search passes its state limit).

The greedy plan: if some single move (k cells in one direction, inside the
grid) collects balls, take the one that collects the most (ties: shorter k,
then up, down, left, right); otherwise move vertically onto the row of the
nearest remaining ball (Manhattan distance, ties row-major), after which a
collecting move exists. Each round collects a ball or sets one up, so at most
two moves per ball.
"""

from __future__ import annotations

from svot.domains.gather.spec import SPEC
from svot.kernel.grid import DELTAS, DIRECTIONS, Cell
from svot.pddl import Problem
from svot.problem_gen.optimal import line_cover_plan


def gather_plan(size: int, player: Cell, balls, max_states: int = 2_000_000) -> list[int] | None:
    """A plan with the fewest agent moves collecting every ball (A*), or None past ``max_states``."""
    return line_cover_plan(SPEC, size, player, balls, max_states=max_states)


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


def solve(problem: Problem, state: dict, *, max_states: int, prune: bool, greedy: bool) -> list[int] | None:
    """The fewest-moves plan (None past ``max_states`` A* states), or with ``greedy=True`` the greedy one.

    ``prune`` does not apply (the A* search has no dead states to skip).
    """
    balls = [b for where in state["balls"].values() for b in where]
    size, player = state["size"], tuple(state["player"])
    if greedy:
        return greedy_plan(size, player, balls)
    return gather_plan(size, player, balls, max_states=max_states)
