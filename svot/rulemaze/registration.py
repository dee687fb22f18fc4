"""Registering the RuleMaze env ids with Gymnasium: importing this module does it.

``import svot`` imports it once Gymnasium is loaded (see ``svot/__init__.py``).
RuleMaze sits on top of the envs layer, so its ids are its own: the domain registry's
(:mod:`svot.domains.gym_ids`) are the grid domains', and the root package imports both. The entry
point stays a string, so registering loads neither the env nor the RuleMaze core.
"""

from __future__ import annotations

import gymnasium as gym

from svot.domains import max_episode_steps
from svot.rulemaze.scenario import scenarios

ENTRY_POINT = "svot.rulemaze.env:RuleMazeEnv"


def walled_id(scenario: str) -> str:
    """The id of a scenario's walled 3x3 maze, e.g. ``RuleMaze/RegularMaze-3x3-v0``."""
    return f"RuleMaze/{scenario}-3x3-v0"


def open_id(scenario: str) -> str:
    """The id of a scenario's open 5x5 grid (as the paper draws it, from a 3x3 maze; obstacle cells):
    new behaviour, new version, e.g. ``RuleMaze/QuestMaze-5x5-v1``."""
    return f"RuleMaze/{scenario}-5x5-v1"


def _open_scenarios() -> list[str]:
    return [s.name for s in scenarios() if "open" in s.domains]


def env_ids() -> list[str]:
    """The registered RuleMaze ids."""
    return [walled_id(s.name) for s in scenarios()] + [open_id(sc) for sc in _open_scenarios()]


def register_envs() -> None:
    """Register the RuleMaze ids with Gymnasium (idempotent)."""
    for scenario in (s.name for s in scenarios()):
        eid = walled_id(scenario)
        if eid not in gym.registry:
            gym.register(id=eid, entry_point=ENTRY_POINT, max_episode_steps=max_episode_steps(3),
                         kwargs={"scenario": scenario, "size": 3, "layout": "walls"})
    for scenario in _open_scenarios():
        eid = open_id(scenario)
        if eid not in gym.registry:
            gym.register(id=eid, entry_point=ENTRY_POINT, max_episode_steps=max_episode_steps(5),
                         kwargs={"scenario": scenario, "size": 3, "layout": "open"})


register_envs()
