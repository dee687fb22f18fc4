"""Pacman's plans: the shortest one (Held-Karp over the coins) and the greedy one.

The domain object binds this module as its solver (``svot/domains/pacman/__init__.py``): :func:`svot.problem_gen.solve`
calls :func:`solve`, and the generator plans with :func:`pacman_plan` (falling
back to :func:`greedy_plan` beyond ``svot.problem_gen.optimal.MAX_ITEMS`` coins).
"""

from __future__ import annotations

from svot.kernel.grid import Cell
from svot.domains.pacman.spec import SPEC
from svot.pddl import Problem
from svot.problem_gen.cells import cell_bfs, path_actions
from svot.problem_gen.optimal import held_karp_plan, walk_floor


def pacman_plan(size: int, player: Cell, coins) -> list[int] | None:
    """A shortest plan eating every coin (Held-Karp over the coins), or None beyond ``MAX_ITEMS``."""
    return held_karp_plan(SPEC, size, player, coins)


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


def solve(problem: Problem, state: dict, *, max_states: int, prune: bool, greedy: bool) -> list[int] | None:
    """The shortest plan (None beyond ``MAX_ITEMS`` coins), or with ``greedy=True`` the greedy one.

    ``max_states`` and ``prune`` do not apply: Held-Karp has no state search to cap or prune.
    """
    size, player, coins = state["size"], tuple(state["player"]), state["coins"]
    return greedy_plan(size, player, coins) if greedy else pacman_plan(size, player, coins)


def plan_length_floor(state: dict) -> int:
    """A lower bound on :func:`pacman_plan`'s length (a minimum spanning tree over the player and the
    coins, :func:`svot.problem_gen.optimal.walk_floor`): the dataset skips planning draws it rules out."""
    return walk_floor(SPEC, state["size"], tuple(state["player"]), state["coins"])
