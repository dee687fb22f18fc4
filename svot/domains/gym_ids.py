"""Gymnasium's registry, filled from svot's (:mod:`svot.domains`): importing this module does it.

``import svot`` imports it once Gymnasium is loaded (see ``svot/__init__.py``), so that
``import svot.domains`` alone does not load Gymnasium. The grid domains' ids only: RuleMaze, a
layer on top, registers its own (:mod:`svot.rulemaze.registration`).
"""

from __future__ import annotations

import gymnasium as gym

from svot.domains import SPLITS, entry, env_id, max_episode_steps, names


def register_ids(name: str) -> list[str]:
    """Register a registered domain's ids with Gymnasium (idempotent); returns them."""
    got = entry(name)
    ids = []
    for size in got.domain.spec.sizes:
        for split in SPLITS:
            eid = env_id(name, size, split)
            if eid not in gym.registry:
                gym.register(id=eid, entry_point=got.env, vector_entry_point=got.vector_env,
                             max_episode_steps=max_episode_steps(size), kwargs={"size": size, "split": split})
            ids.append(eid)
    return ids


def unregister_ids(name: str) -> None:
    """Take a registered domain's ids out of Gymnasium's registry."""
    for size in entry(name).domain.spec.sizes:
        for split in SPLITS:
            gym.registry.pop(env_id(name, size, split), None)


for _name in names():
    register_ids(_name)
