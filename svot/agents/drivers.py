"""One interface over every registered env, for the episode core: the driver.

A driver wraps ``gymnasium.make(id)`` (wrappers kept: the TimeLimit truncates as it does for any Gymnasium
user) and answers, through public APIs only, what the core needs: parse an action text, the state as text,
the frame, a canonical state (for hashes and "effective"), the plan, the intro, and which extra row fields
the env's reset takes as options (``row_options``). Grid envs (``SVoT/*``, and domains added with
:func:`svot.extend.register_domain`) word their own actions (``env.parse_action``): :class:`GridDriver`.
An env class that needs another driver names it in its ``agent_driver`` attribute, as a ``"module:Class"``
string loaded the way Gymnasium loads an entry point (RuleMaze: :mod:`svot.rulemaze.agent_driver`), so
this layer names no env of its own.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.envs.registration import load_env_creator

from svot.dataset.wording import describe_domain
from svot.errors import ConfigError
from svot.state_hash import canonical_hash


def _colours(spec, state: dict) -> tuple[str, ...]:
    for f in spec.fields:
        if f.kind == "colour_cells":
            return tuple(state[f.key])
    return ()


class GridDriver:
    """An ``SVoT/*`` env (any grid domain in the registry)."""

    kind = "grid"
    row_options: tuple[str, ...] = ()  # the grid envs' one option, a problem's PDDL, is the row's problem_pddl

    def __init__(self, env_id: str, image_size: int):
        spec = gym.spec(env_id)
        n = int(spec.kwargs.get("size", 0))
        self.render_size = max(image_size, 8 * n)  # the env's smallest frame; resized below when asked smaller
        self.env = gym.make(env_id, render_mode="rgb_array", image_size=self.render_size)
        self.base = self.env.unwrapped
        self.image_size = image_size
        self.info: dict = {}

    @property
    def action_count(self) -> int:
        return int(self.base.action_space.n)

    def action_text(self, action: int) -> str:
        return self.base.action_text(action)

    def parse(self, text: str) -> int:
        return self.base.parse_action(text)

    def reset(self, seed: int, options: dict) -> None:
        _obs, self.info = self.env.reset(seed=seed, options=options or None)

    def step(self, action: int):
        _obs, reward, terminated, truncated, self.info = self.env.step(action)
        return float(reward), bool(terminated), bool(truncated), bool(self.info["applicable"])

    def state(self) -> dict:
        return self.info["state"]

    def state_hash(self) -> str:
        return canonical_hash(self.state())

    def text(self) -> str:
        return self.info["state_text"]

    def frame(self) -> np.ndarray:
        return self.env.render()

    def plan(self) -> list[str]:
        plan = self.base.plan
        return [] if plan is None else [self.action_text(a) for a in plan]

    def success(self, reward: float, terminated: bool) -> bool:
        return bool(self.info.get("is_success", terminated and reward > 0))

    def intro(self) -> str:
        b = self.base
        return describe_domain(b.dspec.name, b.size, _colours(b.dspec, self.state()))

    def action_words(self) -> list[str]:
        return [self.action_text(a) for a in range(self.action_count)]

    def close(self) -> None:
        self.env.close()


def driver_class(env_id: str) -> type:
    """The driver class of a registered id: its env class's ``agent_driver``, else :class:`GridDriver`;
    ConfigError for an unknown id."""
    if env_id not in gym.registry:
        known = sorted(i for i in gym.registry if i.startswith(("SVoT/", "RuleMaze/")))
        raise ConfigError(f"unknown env id {env_id!r}; registered svot ids include {', '.join(known[:6])}, …")
    entry = gym.spec(env_id).entry_point
    env_class = load_env_creator(entry) if isinstance(entry, str) else entry
    hook = getattr(env_class, "agent_driver", None)
    return GridDriver if hook is None else load_env_creator(hook)


def make_driver(env_id: str, image_size: int = 128):
    """The driver of a registered id (``SVoT/*``, ``RuleMaze/*``); ConfigError for an unknown id."""
    return driver_class(env_id)(env_id, image_size)
