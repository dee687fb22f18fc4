"""Registering every SVoT env id with Gymnasium: importing this module does it.

``import svot`` imports it once Gymnasium is loaded (see ``svot/__init__.py``). The grid domains' ids only: RuleMaze, a layer on top, registers its own (:mod:`svot.rulemaze.registration`).
"""

from __future__ import annotations

import importlib

import gymnasium as gym

from svot.domains import SPECS, get_spec
from svot.errors import ConfigError

# domain -> the entry point of its Gymnasium env: the spec's ``env_entry_point`` ("module:Class",
# imported when an env is made) for the built-in domains; svot.extend.register_domain adds its class.
ENV_CLASSES: dict[str, str | type] = {
    name: spec.env_entry_point for name, spec in SPECS.items() if spec.env_entry_point is not None
}

# natively batched versions (gymnasium.make_vec's default for these ids): the spec's vector_entry_point
VECTOR_CLASSES: dict[str, str] = {
    name: spec.vector_entry_point for name, spec in SPECS.items() if spec.vector_entry_point is not None
}


def env_class(domain: str) -> type:
    """The Gymnasium env class of ``domain`` (its entry point imported)."""
    entry = ENV_CLASSES[get_spec(domain).name]
    if not isinstance(entry, str):
        return entry
    module, _, name = entry.partition(":")
    return getattr(importlib.import_module(module), name)


def env_id(domain: str, size: int, split: str = "id") -> str:
    title = get_spec(domain).title  # ConfigError naming the known domains
    if split not in ("id", "ood"):
        raise ConfigError(f"unknown split {split!r}; choose one of id, ood")
    suffix = "-OOD" if split == "ood" else ""
    return f"SVoT/{title}-{size}x{size}{suffix}-v0"


def max_episode_steps(size: int) -> int:
    return 4 * size * size


def registered_ids() -> list[str]:
    return [env_id(d, n, s) for d in ENV_CLASSES for n in SPECS[d].sizes for s in ("id", "ood")]


def register_all() -> None:
    for domain, entry in ENV_CLASSES.items():
        for size in SPECS[domain].sizes:
            for split in ("id", "ood"):
                eid = env_id(domain, size, split)
                if eid in gym.registry:
                    continue
                gym.register(
                    id=eid,
                    entry_point=entry,
                    vector_entry_point=VECTOR_CLASSES.get(domain),
                    max_episode_steps=max_episode_steps(size),
                    kwargs={"size": size, "split": split},
                )


register_all()
