"""The agent-episode core: one text-in, observation-out episode over any registered svot env.

Every adapter (TRL's ``environment_factory``, Inspect's ``svot/play``, the OpenEnv server) plays through
:class:`AgentEpisode`, so an episode is the same everywhere::

    ep = AgentEpisode(EpisodeConfig(observation="both", image_size=128))
    first = ep.reset(id="SVoT/Maze-5x5-v0", seed=3)      # or domain="maze", size=5, split="id"; or problem_pddl=
    out = ep.turn("<think>the goal is left</think><answer>move left || move up</answer>")
    out.text, out.image (PNG bytes), out.reward, out.done, out.info   # info: valid, applicable, effective, success
    ep.reward, ep.success, ep.to_json()                                # AgentEpisode.from_json(...) replays it

**Rows.** ``id`` (a Gymnasium id: ``SVoT/*``, ``RuleMaze/*``, or a domain added with ``register_domain``) or
``domain`` / ``size`` / ``split``; ``seed`` (the reset seed: same seed, same problem, on any process) or
``problem_pddl`` (PDDL text, grid envs); RuleMaze also takes ``rule`` (a bank rule id, its text or rule logic)
and ``maze`` (a maze dict). Other keys (a dataset's ``prompt`` column...) are ignored. A row without a seed
draws one, and the episode records it, so every episode can be replayed.

**A turn** (:meth:`AgentEpisode.turn`) reads one or more actions from the model's text
(:mod:`svot.agents.parsing`: the env's wording, ``move left 3``, or ``<think>…</think><answer>…</answer>``),
all parsed before any is applied, then steps them in order, stopping at the end of the episode.
:meth:`AgentEpisode.act` applies one action (what a ``move`` tool does).

**Reward of a turn** = the env's rewards of its steps + ``format_reward`` if the text was well formed
(turns only; a tool call has no format) − ``step_penalty`` × the env steps it took. The episode's reward is
the sum over turns. With the defaults (0, 0) it is the env's reward: 1 for reaching the goal (RuleMaze: a
target reached by a rule-compliant path), else 0.

**Info per turn**: ``valid`` (every action text parsed), ``applicable`` (every step applied: nothing blocked),
``effective`` (the state changed), ``success`` (the episode is won), ``actions`` (the action texts applied),
``well_formed``, ``state_hash``; RAGEN's names ``action_is_valid`` / ``action_is_effective`` too.

**Limits and bad input.** ``max_turns`` turns (default: the id's ``max_episode_steps``); the env's own
TimeLimit truncates too. Input that is not a string, longer than ``max_input_chars``, unparsable, more than
``max_actions_per_turn`` actions, or sent after the episode ended gets a :class:`Turn` whose ``error`` says
why: nothing is stepped and the episode is left exactly as it was (no turn counted). Nothing raises.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields

import gymnasium as gym
import numpy as np
from PIL import Image

from svot.agents.drivers import make_driver
from svot.agents.parsing import ANSWER_FORMATS, parse_turn
from svot.dataset.records import encode_png
from svot.domains import env_id as grid_env_id
from svot.errors import ConfigError, ProblemError, SvotError
from svot.jsonl import loads

OBSERVATIONS = ("text", "image", "both")
ROW_KEYS = ("id", "domain", "size", "split", "seed", "problem_pddl", "rule", "maze")
FORMAT_VERSION = 1


@dataclass(frozen=True)
class EpisodeConfig:
    """How an episode talks to the model (see the module docstring for the reward)."""

    observation: str = "text"  # "text", "image" (the renderer's PNG) or "both"
    image_size: int = 128  # pixels of the PNG's side
    answer_format: str = "either"  # "plain", "tags" (<think>…</think><answer>…</answer>) or "either"
    max_turns: int | None = None  # None: the id's max_episode_steps
    max_actions_per_turn: int = 16
    format_reward: float = 0.0
    step_penalty: float = 0.0
    max_input_chars: int = 4096

    def __post_init__(self):
        if self.observation not in OBSERVATIONS:
            raise ConfigError(f"observation must be one of {', '.join(OBSERVATIONS)}, got {self.observation!r}")
        if self.answer_format not in ANSWER_FORMATS:
            raise ConfigError(f"answer_format must be one of {', '.join(ANSWER_FORMATS)}, got {self.answer_format!r}")
        if isinstance(self.image_size, bool) or not isinstance(self.image_size, int) or not 16 <= self.image_size <= 2048:
            raise ConfigError(f"image_size must be an int in 16..2048, got {self.image_size!r}")
        if self.max_turns is not None and (not isinstance(self.max_turns, int) or self.max_turns < 1):
            raise ConfigError(f"max_turns must be a positive int or None, got {self.max_turns!r}")


@dataclass
class Turn:
    """What the model gets back: the observation (or an error) and the turn's outcome."""

    text: str
    image: bytes | None = None  # PNG
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    info: dict = field(default_factory=dict)
    error: str | None = None

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated


def resolve_row(row: dict) -> dict:
    """``{"id", "seed", "options"}`` for a dataset row (see the module docstring); ConfigError if unusable."""
    if not isinstance(row, dict):
        raise ConfigError(f"a row must be a dict, got {type(row).__name__}")
    eid = row.get("id")
    if eid is None:
        if row.get("domain") is None or row.get("size") is None:
            raise ConfigError("a row needs an 'id' (e.g. 'SVoT/Maze-5x5-v0') or 'domain' and 'size'")
        eid = grid_env_id(str(row["domain"]), int(row["size"]), str(row.get("split") or "id"))
    seed = row.get("seed")
    if seed is None:
        seed = int(np.random.default_rng().integers(2**31))  # recorded below, so the episode replays
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed must be a non-negative int, got {seed!r}")
    options = {}
    if row.get("problem_pddl"):
        options["problem"] = str(row["problem_pddl"])
    for key in ("rule", "maze"):
        if row.get(key) is not None:
            options[key] = row[key]
    return {"id": str(eid), "seed": int(seed), "options": options}


class AgentEpisode:
    """One episode: :meth:`reset` from a row, then :meth:`turn` (text) or :meth:`act` (one action)."""

    def __init__(self, config: EpisodeConfig | None = None):
        self.config = config or EpisodeConfig()
        self._driver = None
        self._driver_id: str | None = None
        self.row: dict | None = None
        self.log: list[dict] = []  # what the model sent, in order: {"kind": "turn"|"act", "input": str}
        self.actions: list[str] = []
        self.reward = 0.0
        self.env_reward = 0.0
        self.steps = 0
        self.turns = 0
        self.inapplicable = 0
        self.terminated = self.truncated = self.success = False
        self.max_turns = 0

    # --- episode -----------------------------------------------------------------
    def reset(self, **row) -> Turn:
        """Reset to the row's problem; the turn's text is the intro (task, actions, format, state)."""
        resolved = resolve_row(row)
        if self._driver_id != resolved["id"]:
            if self._driver is not None:
                self._driver.close()
            self._driver, self._driver_id = make_driver(resolved["id"], self.config.image_size), resolved["id"]
        self._driver.reset(resolved["seed"], resolved["options"])
        self.row = resolved
        self.log, self.actions = [], []
        self.reward = self.env_reward = 0.0
        self.steps = self.turns = self.inapplicable = 0
        self.terminated = self.truncated = self.success = False
        limit = gym.spec(resolved["id"]).max_episode_steps
        self.max_turns = self.config.max_turns or int(limit or 100)
        return self._observe(self.intro(), info=self._info(True, True, False, []))

    @property
    def driver(self):
        if self._driver is None:
            raise ConfigError("call reset(...) first")
        return self._driver

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def intro(self) -> str:
        d = self.driver
        words = ", ".join(f'"{w}"' for w in d.action_words())
        fmt = {"plain": "Answer with the actions, e.g. \"{a}\" (several: separate them by ||).",
               "tags": "Answer as <think>your reasoning</think><answer>{a}</answer> (several actions: separate "
                       "them by ||).",
               "either": "Answer with the actions, e.g. \"{a}\", or as <think>…</think><answer>{a}</answer> "
                         "(several actions: separate them by ||)."}[self.config.answer_format]
        return (f"{d.intro()}\nActions: {words}. " + fmt.format(a=d.action_words()[0])
                + f" You have at most {self.max_turns} turns.\nCurrent state:")

    def plan(self) -> list[str]:
        """The env's plan for this problem (the yardstick of steps over plan), as action texts."""
        return self.driver.plan()

    def state_hash(self) -> str:
        return self.driver.state_hash()

    # --- turns -------------------------------------------------------------------
    def turn(self, text) -> Turn:
        """Parse the model's text into actions and step them (see the module docstring)."""
        bad = self._refuse(text)
        if bad is not None:
            return bad
        parsed = parse_turn(text, self.config.answer_format)
        if parsed.error is not None:
            return self._error(parsed.error)
        return self._play(parsed.actions, text, "turn", parsed.well_formed)

    def act(self, action) -> Turn:
        """Apply one action text (``"move up"``, ``"left 3"``): what a tool call does."""
        bad = self._refuse(action)
        if bad is not None:
            return bad
        return self._play((action.strip(),), action, "act", None)

    def _refuse(self, text) -> Turn | None:
        if self._driver is None:
            return self._error("the episode has not started (reset first)")
        if self.done:
            return self._error("the episode is over; no more actions")
        if not isinstance(text, str):
            return self._error(f"expected text, got {type(text).__name__}")
        if len(text) > self.config.max_input_chars:
            return self._error(f"input too long ({len(text)} characters; at most {self.config.max_input_chars})")
        return None

    def _play(self, action_texts, text: str, kind: str, well_formed: bool | None) -> Turn:
        d = self.driver
        if len(action_texts) > self.config.max_actions_per_turn:
            return self._error(f"{len(action_texts)} actions in one turn; at most {self.config.max_actions_per_turn}")
        try:
            actions = [d.parse(a) for a in action_texts]  # all parsed first: a bad one steps none
        except SvotError as exc:
            return self._error(f"{exc}. Valid actions: {', '.join(d.action_words()[:8])}"
                               + (", …" if d.action_count > 8 else ""))
        before = d.state_hash()
        env_reward, applied, all_applicable = 0.0, [], True
        terminated = truncated = False
        for a in actions:
            r, terminated, truncated, applicable = d.step(a)
            env_reward += r
            all_applicable &= applicable
            self.inapplicable += not applicable
            applied.append(d.action_text(a))
            self.steps += 1
            if terminated or truncated:
                break
        self.turns += 1
        self.log.append({"kind": kind, "input": text})
        self.actions += applied
        self.success = self.success or d.success(env_reward, terminated)
        self.terminated = terminated
        self.truncated = truncated or (not terminated and self.turns >= self.max_turns)
        reward = env_reward - self.config.step_penalty * len(applied)
        if well_formed:
            reward += self.config.format_reward
        self.env_reward += env_reward
        self.reward += reward
        after = d.state_hash()
        info = self._info(True, all_applicable, after != before, applied, well_formed, after)
        head = f"Turn {self.turns}: {', '.join(applied)}" + ("" if all_applicable else " (some moves were blocked: "
                                                             "nothing changed for them)")
        tail = (" The goal is reached; the episode is over." if self.success else
                " The episode is over (failure)." if self.terminated else
                " The turn limit is reached; the episode is over." if self.truncated else "")
        return self._observe(head + tail, reward=reward, info=info)

    # --- observations ------------------------------------------------------------
    def _info(self, valid: bool, applicable: bool, effective: bool, actions: list, well_formed=None,
              state_hash: str | None = None) -> dict:
        return {"valid": valid, "applicable": applicable, "effective": effective, "success": self.success,
                "action_is_valid": valid, "action_is_effective": effective, "actions": list(actions),
                "well_formed": well_formed, "state_hash": state_hash or self.driver.state_hash(), "steps": self.steps,
                "turns": self.turns}

    def _observe(self, head: str, reward: float = 0.0, info: dict | None = None) -> Turn:
        d = self.driver
        obs = self.config.observation
        text = head if obs == "image" else f"{head}\n{d.text()}"
        return Turn(text=text, image=self.png() if obs != "text" else None, reward=reward,
                    terminated=self.terminated, truncated=self.truncated, info=info or {})

    def _error(self, message: str) -> Turn:
        info = {"valid": False, "applicable": False, "effective": False, "success": self.success,
                "action_is_valid": False, "action_is_effective": False, "actions": []}
        return Turn(text=f"Error: {message}", terminated=self.terminated, truncated=self.truncated, info=info,
                    error=message)

    def frame(self) -> np.ndarray:
        """The current RGB frame at ``config.image_size``."""
        frame = self.driver.frame()
        size = self.config.image_size
        if frame.shape[0] != size:
            frame = np.asarray(Image.fromarray(frame).resize((size, size), Image.NEAREST))
        return frame

    def png(self) -> bytes:
        return encode_png(self.frame())

    def image(self) -> Image.Image:
        return Image.fromarray(self.frame())

    # --- serialization -------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": FORMAT_VERSION, "row": self.row, "config": asdict(self.config), "log": list(self.log),
                "actions": list(self.actions), "reward": self.reward, "env_reward": self.env_reward,
                "steps": self.steps, "turns": self.turns, "terminated": self.terminated,
                "truncated": self.truncated, "success": self.success,
                "state_hash": None if self._driver is None else self.state_hash()}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict) -> "AgentEpisode":
        """Replay a serialized episode (reset from its row, then every input again); ProblemError if it differs."""
        if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
            raise ProblemError(f"not a serialized svot episode (format {FORMAT_VERSION})")
        known = {f.name for f in fields(EpisodeConfig)}
        ep = cls(EpisodeConfig(**{k: v for k, v in data["config"].items() if k in known}))
        row = data["row"]
        ep.reset(id=row["id"], seed=row["seed"], problem_pddl=row["options"].get("problem"),
                 rule=row["options"].get("rule"), maze=row["options"].get("maze"))
        for entry in data["log"]:
            (ep.turn if entry["kind"] == "turn" else ep.act)(entry["input"])
        if data.get("state_hash") is not None and ep.state_hash() != data["state_hash"]:
            raise ProblemError(f"replaying the episode gave state {ep.state_hash()}, the record says "
                               f"{data['state_hash']} (another svot version?)")
        return ep

    @classmethod
    def from_json(cls, text: str) -> "AgentEpisode":
        return cls.from_dict(loads(text))  # svot.jsonl: any nesting a ValueError, never RecursionError

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = self._driver_id = None
