"""Adding a grid domain from outside the package: one call after three pieces.

A new domain needs (see README, "Adding a domain"):

1. a PDDL domain file (STRIPS with negative preconditions, PDDLGym's
   ``; (:actions ...)`` line);
2. a :class:`~svot.kernel.DomainSpec` subclass: ``pddl`` (the file's path),
   ``kinds``, ``fields``, ``problem_from_state``, ``state_dict``, ``cell_kinds``;
3. a generator: an object with ``sample(size, split, rng) -> svot.problem_gen.Draw``
   (and optionally ``sampling_params(size, split)``), and where it has one a solver;
4. this call, which adds them to the domain registry (:mod:`svot.domains`, as the
   built-in domains' one line each does) and registers the Gymnasium ids
   ``SVoT/<Title>-NxN-v0`` and ``SVoT/<Title>-NxN-OOD-v0``.

Sprites for unknown kinds are drawn by the renderer automatically (a distinct
shape and colour per kind name); a spec may set ``sprites``, ``floor``,
``ansi_chars`` and the other hooks of :class:`~svot.kernel.DomainSpec`'s
"envs and rendering" and "scoring" sections to choose how it looks and scores.
"""

from __future__ import annotations

from typing import Any

from svot.domains import names, register, unregister
from svot.domains.gym_ids import register_ids, unregister_ids
from svot.envs.base import SVoTEnv
from svot.kernel import DomainSpec, GridDomain, check_spec
from svot.pddl import load_domain
from svot.pddl.problem import remember_domain


def register_domain(spec: DomainSpec, generator: Any, *, solver: Any = None,
                    env_class: type[SVoTEnv] | str | None = None,
                    vector_env_class: type | str | None = None) -> list[str]:
    """Register ``spec`` with its ``generator`` (and ``solver``: None, breadth-first search) and its
    env ids; returns the ids.

    The ids' entry point is ``env_class``, else a plain :class:`~svot.envs.base.SVoTEnv` subclass
    bound to the domain; their vector entry point ``vector_env_class`` (None: ``gymnasium.make_vec``
    wraps the single env).
    """
    check_spec(spec)  # before anything is registered: a spec missing a required hook fails here, whole
    # parse now: a malformed file fails here, with its line; problems then find it by name for to_pddl()
    remember_domain(spec.name, load_domain(spec.pddl))
    domain = GridDomain(spec, generator, solver)
    if env_class is None:
        env_class = type(f"{spec.title}Env", (SVoTEnv,), {"domain": domain, "__doc__": spec.__doc__})
    register(domain, env=env_class, vector_env=vector_env_class)
    return register_ids(spec.name)


def unregister_domain(name: str) -> None:
    """Undo :func:`register_domain` (the registry's entry and the env ids)."""
    if name in names():
        unregister_ids(name)
    unregister(name)


__all__ = ["register_domain", "unregister_domain"]
