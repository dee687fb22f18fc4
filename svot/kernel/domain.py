"""GridDomain: one domain as the layers below the registry are handed it.

A domain is its spec (:class:`~svot.kernel.spec.DomainSpec`), the module that samples its
problems and, where it has one, the module that solves them. :mod:`svot.problem_gen` and
:mod:`svot.envs` take this object; they never look a domain up by name. Each domain's folder
binds its own (``svot/domains/<name>/__init__.py``) and the registry (:mod:`svot.domains`)
answers a name with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from svot.kernel.spec import DomainSpec


@dataclass(frozen=True, eq=False)
class GridDomain:
    """A domain's spec, its sampler and its solver (compared and hashed by identity: one per domain).

    ``sampler``: an object (a domain's ``generator.py``) with ``sample(size, split, rng) -> Draw``
    (:class:`svot.problem_gen.Draw`) and optionally ``sampling_params(size, split)`` and
    ``plan(generated) -> (plan, optimal)``. ``solver``: None (a shortest plan by breadth-first
    search on the engine, for any domain) or an object with ``solve(problem, state, *, max_states,
    prune, greedy)`` and optionally ``plan_length_floor(state)`` (a domain's ``solver.py``).
    """

    spec: DomainSpec
    sampler: Any
    solver: Any = None

    @property
    def name(self) -> str:
        return self.spec.name

    def __repr__(self) -> str:
        return f"GridDomain({self.spec.name!r})"
