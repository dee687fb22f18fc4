"""The agent-episode driver of the RuleMaze envs (:mod:`svot.agents.drivers` describes what a driver answers).

:class:`svot.rulemaze.env.RuleMazeEnv` names it (``agent_driver``), so the agents layer finds it through the env
id's entry point and names no RuleMaze code: four directions (``move up`` or ``up``), a rule, the state text with
the agent's cell marked, and rows that may carry ``rule`` and ``maze`` (reset options).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from svot.errors import ActionError
from svot.rulemaze import symbols as S
from svot.rulemaze.render import min_image_size
from svot.rulemaze.scenario import get_scenario
from svot.state_hash import canonical_hash


class RuleMazeDriver:
    """A ``RuleMaze/*`` env: four directions, a rule; rows may carry the rule and the maze."""

    kind = "rulemaze"
    row_options = ("rule", "maze")  # row fields the env's reset takes as options

    def __init__(self, env_id: str, image_size: int):
        probe = gym.make(env_id).unwrapped  # the grid's side as the env counts it (an open layout is wider)
        side = int(getattr(probe, "side", probe.size))
        probe.close()
        self.render_size = max(image_size, min_image_size(side))
        self.env = gym.make(env_id, render_mode="rgb_array", image_size=self.render_size)
        self.base = self.env.unwrapped  # a RuleMazeEnv
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
