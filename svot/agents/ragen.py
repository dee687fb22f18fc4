"""RAGEN / VAGEN style envs over the episode core: text in, ``(obs, reward, done, info)`` out.

RAGEN's envs take the model's whole reply (``<think>…</think><answer>Left || Up</answer>``), reward a
well-formed reply, and report ``action_is_valid`` / ``action_is_effective`` / ``success`` in ``info``; VAGEN's
observation is ``{"obs_str": "…<image>…", "multi_modal_input": {"<image>": [PIL image]}}``. A RAGEN or VAGEN
user points their env registry at :class:`RagenEnv` (``vision=True`` for VAGEN)::

    env = RagenEnv("SVoT/Sokoban-6x6-v0", vision=True, format_reward=0.1)
    obs, info = env.reset(seed=3)
    obs, reward, done, info = env.step("<think>push right</think><answer>right || up</answer>")

Rewards are the core's (svot.agents.episode): env reward + ``format_reward`` per well-formed reply −
``step_penalty`` per step. An unreadable reply is a turn that steps nothing: reward 0, ``action_is_valid``
False, and the error in the observation text.
"""

from __future__ import annotations

from svot.agents.episode import AgentEpisode, EpisodeConfig, Turn

IMAGE_TOKEN = "<image>"


class RagenEnv:
    """One svot id as a RAGEN (text) or VAGEN (``vision=True``) env."""

    def __init__(self, env_id: str, *, vision: bool = False, image_size: int = 128, format_reward: float = 0.0,
                 step_penalty: float = 0.0, max_turns: int | None = None, answer_format: str = "tags"):
        self.env_id = env_id
        self.vision = vision
        self.episode = AgentEpisode(EpisodeConfig(observation="both" if vision else "text", image_size=image_size,
                                                  answer_format=answer_format, format_reward=format_reward,
                                                  step_penalty=step_penalty, max_turns=max_turns))

    def system_prompt(self) -> str:
        return ("You play a grid game. Think in <think>…</think>, then give your moves in <answer>…</answer>, "
                "several separated by ||.")

    def reset(self, seed: int | None = None, **row):
        turn = self.episode.reset(id=self.env_id, seed=seed, **row)
        return self._obs(turn), self._info(turn)

    def step(self, llm_response: str):
        turn = self.episode.turn(llm_response)
        return self._obs(turn), float(turn.reward), bool(turn.done), self._info(turn)

    def _obs(self, turn: Turn):
        if not self.vision:
            return turn.text
        return {"obs_str": f"{turn.text}\n{IMAGE_TOKEN}", "multi_modal_input": {IMAGE_TOKEN: [self.episode.image()]}}

    def _info(self, turn: Turn) -> dict:
        info = dict(turn.info)
        info.setdefault("action_is_valid", turn.error is None)
        info.setdefault("action_is_effective", False)
        info["success"] = self.episode.success
        info["metrics"] = {"turns": self.episode.turns, "steps": self.episode.steps,
                           "success": float(self.episode.success)}
        return info

    def close(self) -> None:
        self.episode.close()
