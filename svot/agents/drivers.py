"""One interface over the two kinds of registered env (grid domains and RuleMaze), for the episode core.

A driver wraps ``gymnasium.make(id)`` (wrappers kept: the TimeLimit truncates as it does for any Gymnasium
user) and answers, through public APIs only, what the core needs: parse an action text, the state as text,
the frame, a canonical state (for hashes and "effective"), the plan, the intro. Grid envs (``SVoT/*``, and
domains added with :func:`svot.extend.register_domain`) word their own actions (``env.parse_action``);
RuleMaze envs take the four directions and carry a rule.
"""

from __future__ import annotations

import hashlib
import json

import gymnasium as gym
import numpy as np

from svot.dataset.wording import describe_domain
from svot.errors import ActionError, ConfigError
from svot.rulemaze import symbols as S
from svot.rulemaze.env import RuleMazeEnv
from svot.rulemaze.render import min_image_size
from svot.rulemaze.scenario import get_scenario


def _colours(spec, state: dict) -> tuple[str, ...]:
    for f in spec.fields:
        if f.kind == "colour_cells":
            return tuple(state[f.key])
    return ()


def canonical_hash(obj) -> str:
    """sha256 (16 hex digits) of a JSON-able object, keys sorted: the same on every process."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _plain(obj):
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, tuple):
        return list(obj)
    raise TypeError(f"not JSON-able: {type(obj).__name__}")


class GridDriver:
    """An ``SVoT/*`` env (any grid domain in the registry)."""

    kind = "grid"

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


class RuleMazeDriver:
    """A ``RuleMaze/*`` env: four directions, a rule, the five DMP tools (:mod:`svot.agents.rulemaze_tools`)."""

    kind = "rulemaze"

    def __init__(self, env_id: str, image_size: int):
        probe = gym.make(env_id).unwrapped  # the grid's side as the env counts it (an open layout is wider)
        side = int(getattr(probe, "side", probe.size))
        probe.close()
        self.render_size = max(image_size, min_image_size(side))
        self.env = gym.make(env_id, render_mode="rgb_array", image_size=self.render_size)
        self.base: RuleMazeEnv = self.env.unwrapped
        self.image_size = image_size
        self.info: dict = {}
        self.obs = None

    action_count = 4

    def action_text(self, action: int) -> str:
        return self.base.action_text(action)

    def parse(self, text: str) -> int:
        words = str(text).strip().lower().split()
        if words and words[0] == "move":
            words = words[1:]
        if len(words) != 1 or words[0] not in S.DIRECTIONS:
            raise ActionError(f"unknown action {text!r}; expected one of: "
                              + ", ".join(f"move {d}" for d in S.DIRECTIONS))
        return S.DIRECTIONS.index(words[0])

    def reset(self, seed: int, options: dict) -> None:
        self.obs, self.info = self.env.reset(seed=seed, options=options or None)

    def step(self, action: int):
        self.obs, reward, terminated, truncated, self.info = self.env.step(action)
        return float(reward), bool(terminated), bool(truncated), bool(self.info["applicable"])

    def state(self) -> dict:
        b = self.base
        return {"maze": b.maze.to_dict(), "rule": b.rule.logic, "position": list(self.info["position"]),
                "actions": list(self.info["actions"]), "symbols": list(self.info["symbols"])}

    def state_hash(self) -> str:
        return canonical_hash(self.state())

    def text(self) -> str:
        r, c = self.info["position"]
        lines = self.base.maze.to_text().split("\n")
        row = list(lines[1 + 2 * r])
        row[2 + 4 * c] = "@"  # the agent's cell, as the env's ansi render marks it
        lines[1 + 2 * r] = "".join(row)
        return "\n".join(lines) + f"\nYou (@) are at ({r}, {c}). Rule: {self.info['rule']}"

    def frame(self) -> np.ndarray:
        return self.obs

    def plan(self) -> list[str]:
        truth = self.info.get("ground_truth")
        return [] if truth is None else [f"move {a}" for a in truth]

    def success(self, reward: float, terminated: bool) -> bool:
        return bool(self.info.get("is_success", False))

    def intro(self) -> str:
        b = self.base
        goals = " or ".join(get_scenario(b.scenario).goal_symbols)  # the scenario says what a goal cell holds
        return (f"RuleMaze ({b.scenario}), a {b.size}x{b.size} maze. Walk from the start to a goal cell ({goals}) "
                f"while obeying the rule: {self.info['rule']}")

    def action_words(self) -> list[str]:
        return [f"move {d}" for d in S.DIRECTIONS]

    def close(self) -> None:
        self.env.close()


def make_driver(env_id: str, image_size: int = 128):
    """The driver of a registered id (``SVoT/*``, ``RuleMaze/*``); ConfigError for an unknown id."""
    if env_id not in gym.registry:
        known = sorted(i for i in gym.registry if i.startswith(("SVoT/", "RuleMaze/")))
        raise ConfigError(f"unknown env id {env_id!r}; registered svot ids include {', '.join(known[:6])}, …")
    entry = gym.spec(env_id).entry_point
    is_rule = entry is RuleMazeEnv or (isinstance(entry, str) and entry.endswith(":RuleMazeEnv"))
    return (RuleMazeDriver if is_rule else GridDriver)(env_id, image_size)
