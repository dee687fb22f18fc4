"""The engine interface shared by the grounded and the PDDLGym engines."""

from __future__ import annotations

from typing import Any, Protocol

from svot.errors import ConfigError
from svot.pddl.domain import Domain
from svot.pddl.problem import Atom, Problem

ENGINES = ("grounded", "pddlgym")


class Engine(Protocol):
    """Steps one problem. States are opaque values owned by the engine.

    ``step`` takes a ground action literal such as ``("move", "up")``, applies the
    operator whose preconditions hold (if any), then applies the domain's internal
    action literals (``internal``) while one applies, and returns the new state
    and whether the agent's literal applied at all.
    """

    domain: Domain
    problem: Problem

    def initial(self) -> Any: ...

    def step(self, state: Any, action: tuple) -> tuple[Any, bool]: ...

    def true_atoms(self, state: Any) -> frozenset[Atom]: ...

    def is_goal(self, state: Any) -> bool: ...


def make_engine(kind: str, domain: Domain, problem: Problem, internal: tuple[str, ...] = ()) -> Engine:
    if kind == "grounded":
        from svot.engine.grounded import GroundedEngine

        return GroundedEngine(domain, problem, internal)
    if kind == "pddlgym":
        from svot.engine.reference import PDDLGymEngine

        return PDDLGymEngine(domain, problem, internal)
    raise ConfigError(f"unknown engine {kind!r}; choose one of {', '.join(ENGINES)}")
