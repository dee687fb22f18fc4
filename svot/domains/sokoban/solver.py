"""Sokoban's plans: breadth-first search on the grounded engine, skipping provably dead states.

The domain object binds this module as its solver (``svot/domains/sokoban/__init__.py``): :func:`svot.problem_gen.solve`
calls :func:`solve`. The search and its pruning are the generator's
(:func:`svot.domains.sokoban.generator.search`); pruning changes neither the
verdict nor the plan, only the time.
"""

from __future__ import annotations

from svot.domains.sokoban.generator import search
from svot.pddl import Problem


def solve(problem: Problem, state: dict, *, max_states: int, prune: bool, greedy: bool) -> list[int] | None:
    """A shortest plan, or None (unreachable goal, or more than ``max_states`` states).

    ``greedy`` does not apply: the shortest plan is the only one.
    """
    return search(problem, state, prune=prune, max_states=max_states).plan
