"""Adding a grid domain from outside the package: one call after four pieces.

A new domain needs (see README, "Adding a domain"):

1. a PDDL domain file (STRIPS with negative preconditions, PDDLGym's
   ``; (:actions ...)`` line);
2. a :class:`~svot.domains.DomainSpec` subclass: ``pddl`` (the file's path),
   ``kinds``, ``fields``, ``problem_from_state``, ``state_dict``, ``cell_kinds``;
3. a generator: an object with ``sample(size, split, rng) -> svot.problem_gen.Draw``;
4. this call, which registers all three and the Gymnasium ids
   ``SVoT/<Title>-NxN-v0`` and ``SVoT/<Title>-NxN-OOD-v0``.

Sprites for unknown kinds are drawn by the renderer automatically (a distinct
shape and colour per kind name); a spec may set ``sprites``, ``floor``,
``ansi_chars`` and the other hooks of :class:`~svot.domains.DomainSpec`'s
"envs and rendering" and "scoring" sections to choose how it looks and scores.
"""

from __future__ import annotations

import gymnasium as gym

from svot.domains import DomainSpec, register_spec, SPECS
from svot.domains.base import check_spec
from svot.envs.base import SVoTEnv
from svot.envs.registration import ENV_CLASSES, VECTOR_CLASSES, env_id, max_episode_steps
from svot.pddl import load_domain
from svot.pddl.problem import remember_domain
from svot.problem_gen import register_generator, unregister_generator


def register_domain(spec: DomainSpec, generator, *, env_class: type[SVoTEnv] | str | None = None) -> list[str]:
    """Register ``spec``, its ``generator`` and its env ids; returns the new ids.

    The env ids' entry point is ``env_class``, else the spec's ``env_entry_point``, else a
    plain :class:`~svot.envs.base.SVoTEnv` subclass; their vector entry point is the spec's
    ``vector_entry_point`` (None: ``gymnasium.make_vec`` wraps the single env).
    """
    check_spec(spec)  # before anything is registered: a spec missing a required hook fails here, whole
    # parse now: a malformed file fails here, with its line; problems then find it by name for to_pddl()
    remember_domain(spec.name, load_domain(spec.pddl))
    register_spec(spec)
    register_generator(spec.name, generator, sizes=spec.sizes)
    if env_class is None:
        # the spec's own entry point, else a plain SVoTEnv subclass for the domain
        env_class = spec.env_entry_point or type(
            f"{spec.title}Env", (SVoTEnv,), {"domain_name": spec.name, "__doc__": spec.__doc__}
        )
    ENV_CLASSES[spec.name] = env_class
    if spec.vector_entry_point is not None:
        VECTOR_CLASSES[spec.name] = spec.vector_entry_point
    ids = []
    for size in spec.sizes:
        for split in ("id", "ood"):
            eid = env_id(spec.name, size, split)
            if eid not in gym.registry:
                gym.register(id=eid, entry_point=env_class, vector_entry_point=spec.vector_entry_point,
                             max_episode_steps=max_episode_steps(size), kwargs={"size": size, "split": split})
            ids.append(eid)
    return ids


def unregister_domain(name: str) -> None:
    """Undo :func:`register_domain` (the spec, the generator and the env ids)."""
    spec = SPECS.get(name)
    if spec is not None:
        for size in spec.sizes:
            for split in ("id", "ood"):
                gym.registry.pop(env_id(name, size, split), None)
    SPECS.pop(name, None)
    ENV_CLASSES.pop(name, None)
    unregister_generator(name)
    VECTOR_CLASSES.pop(name, None)
