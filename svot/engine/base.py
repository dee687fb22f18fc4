"""The engine interface shared by the grounded and the PDDLGym engines."""

from __future__ import annotations

import copyreg
import logging
from typing import Any, Protocol

from svot.errors import ConfigError
from svot.pddl.domain import Domain
from svot.pddl.problem import Atom, Problem
from svot.engine.grounded import GroundedEngine
from svot.engine.reference import PDDLGymEngine

ENGINES = ("grounded", "pddlgym")
log = logging.getLogger("svot.engine")


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
    """An engine for ``problem``: ``"grounded"`` (compiled) or ``"pddlgym"`` (the reference).

    A domain beyond the compiled engine's fragment (STRIPS, typing, negative
    preconditions; see ``Domain.unsupported``) gets PDDLGym's engine for
    ``"grounded"`` too, with the reason logged once per domain.
    """
    if kind == "grounded" and domain.unsupported is not None:
        warn_fallback(domain)
        kind = "pddlgym"
    if kind == "grounded":
        return GroundedEngine(domain, problem, internal)
    if kind == "pddlgym":
        # PDDLGym's env holds a class made inside a function, which pickle cannot name; the engine is
        # rebuilt from its (picklable) domain and problem instead, so envs on it pickle and continue.
        copyreg.pickle(PDDLGymEngine, _rebuild_reference)
        return PDDLGymEngine(domain, problem, internal)
    raise ConfigError(f"unknown engine {kind!r}; choose one of {', '.join(ENGINES)}")


def _rebuild_reference(engine) -> tuple:
    return (make_engine, ("pddlgym", engine.domain, engine.problem, engine.internal))


_WARNED: set = set()


def warn_fallback(domain: Domain) -> None:
    """Log, once per domain file, that its problems step on PDDLGym and why."""
    if domain.source not in _WARNED:
        _WARNED.add(domain.source)
        log.warning(
            "domain %r (%s): the compiled engine cannot run %s; stepping with PDDLGym's engine instead (much slower)",
            domain.name, domain.source, domain.unsupported,
        )
