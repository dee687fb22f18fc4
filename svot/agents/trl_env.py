"""svot for TRL's ``GRPOTrainer(environment_factory=...)`` (TRL >= 1.16, the ``train`` extra).

TRL builds one instance per rollout with a no-argument constructor, calls ``reset(**row)`` with the dataset
row (its string is appended to the last user message), exposes every public method as a tool (schema from the
type hints and the ``Args:`` docstring) and scores the rollout with ``get_reward()``::

    from svot.agents.trl_env import SVoTToolEnv, prompt_dataset, check_tool_calling
    check_tool_calling(tokenizer, SVoTToolEnv)          # template and parser agree, or ConfigError now
    trainer = GRPOTrainer(model=..., processing_class=tokenizer, args=GRPOConfig(...),
                          train_dataset=prompt_dataset(["maze"], sizes=[5], seeds=range(64)),
                          environment_factory=SVoTToolEnv)

* :class:`SVoTToolEnv`: a ``move(direction, steps=1)`` tool, text observations; :class:`SVoTImageToolEnv`: the
  same tool returning the frame too (VLMs); :class:`RuleMazeToolEnv`: RuleMaze's five DMP tools.
* :data:`ENVIRONMENT_FACTORIES` for a run mixing grid domains and RuleMaze (rows carry ``environment``).
* :func:`prompt_rows` / :func:`prompt_dataset`: rows per id (or domain × size × split) × seed; the ``seed``
  column makes a GRPO group (the ``num_generations`` rollouts of one row) play one problem.

Every tool answers bad input (wrong types, an unknown direction, a 100 kB string, a call after the end) with a
short ``Error: …`` string and leaves the episode as it was; nothing raises into the trainer.
"""

from __future__ import annotations

from typing import ClassVar, Iterable

from svot.agents.episode import AgentEpisode, EpisodeConfig, Turn
from svot.domains import env_id as grid_env_id
from svot.errors import ConfigError
from svot.rulemaze import tools_logic

INSTRUCTION = ("Play the game below by calling the tools, one move per call, until the goal is reached. "
               "Each call answers with the new state.")
MAX_ARG_CHARS = 256


def _bad_text(value, name: str) -> str | None:
    if not isinstance(value, str):
        return f"Error: {name} must be a string, got {type(value).__name__}"
    if len(value) > MAX_ARG_CHARS:
        return f"Error: {name} is too long ({len(value)} characters)"
    return None


class _EpisodeTools:
    """Shared by the tool envs: the episode, reset, reward. Tools are the public methods of the subclasses."""

    config: ClassVar[EpisodeConfig] = EpisodeConfig(observation="text", answer_format="plain",
                                                    max_actions_per_turn=1)

    def __init__(self):
        self._episode = AgentEpisode(self.config)

    def reset(self, **row) -> str:
        return self._episode.reset(**row).text

    def get_reward(self) -> float:
        return float(self._episode.reward)

    @property
    def episode(self) -> AgentEpisode:
        return self._episode

    def _answer(self, out: Turn):
        return out.text


class SVoTToolEnv(_EpisodeTools):
    """A grid-domain episode (``SVoT/*``, or a domain added with ``register_domain``) with a ``move`` tool."""

    def move(self, direction: str, steps: int = 1) -> str:
        """Move the player in the game; the answer is the new state.

        Args:
            direction: One of "up", "down", "left", "right".
            steps: How many cells to move (only in games whose moves take a distance; otherwise 1).
        """
        try:
            bad = _bad_text(direction, "direction")
            if bad:
                return bad
            if isinstance(steps, bool) or not isinstance(steps, int):
                return f"Error: steps must be an integer, got {type(steps).__name__}"
            ep = self._episode
            if ep.done or ep.row is None:
                return ep.act("move").text  # the episode's own refusal
            distance = len(ep.driver.action_words()[0].split()) == 3  # "move up 1": moves take a distance
            if not distance and steps != 1:
                return "Error: in this game every move is one cell; call move with steps=1"
            action = f"move {direction.strip()}" + (f" {steps}" if distance else "")
            return self._answer(ep.act(action))
        except Exception as exc:  # noqa: BLE001 - a tool never raises into the trainer
            return f"Error: {type(exc).__name__}: {str(exc)[:200]}"


class SVoTImageToolEnv(SVoTToolEnv):
    """:class:`SVoTToolEnv` whose ``move`` answers with the frame (a PIL image) and the state text, for VLMs."""

    config: ClassVar[EpisodeConfig] = EpisodeConfig(observation="both", image_size=128, answer_format="plain",
                                                    max_actions_per_turn=1)

    def _answer(self, out: Turn):
        if out.error is not None:
            return out.text
        return [{"type": "image", "image": self._episode.image()}, {"type": "text", "text": out.text}]


class RuleMazeToolEnv(_EpisodeTools):
    """A ``RuleMaze/*`` episode with the paper's five tools (Table 1), acting on the episode's maze."""

    def locate_start(self) -> str:
        """Where the start cell is, as (row, column)."""
        r, c = tools_logic.locate_start(self._episode.driver.base.maze)
        return f"The start is at ({r}, {c})."

    def inspect_grid(self) -> str:
        """What is on your current cell (a colour, an item, or "normal")."""
        d = self._episode.driver
        return tools_logic.inspect_grid(d.base.maze, tuple(d.info["position"]))

    def execute_move(self, action: str) -> str:
        """Move one cell; the answer is the new state.

        Args:
            action: One of "up", "down", "left", "right".
        """
        try:
            bad = _bad_text(action, "action")
            return bad or self._answer(self._episode.act(f"move {action.strip()}"))
        except Exception as exc:  # noqa: BLE001 - a tool never raises into the trainer
            return f"Error: {type(exc).__name__}: {str(exc)[:200]}"

    def verify_rule(self, actions: list[str], states: list[str]) -> str:
        """Whether a trajectory complies with this episode's rule.

        Args:
            actions: The moves made, e.g. ["up", "left"].
            states: What inspect_grid read on each cell entered (the start first, or not).
        """
        try:
            if not isinstance(actions, list) or not isinstance(states, list) or len(actions) + len(states) > 256:
                return "Error: actions and states must be lists of strings (at most 256 items together)"
            if any(_bad_text(x, "item") for x in actions + states):
                return "Error: every action and state must be a short string"
            ok = tools_logic.verify_rule(self._episode.driver.base.rule.formula, actions, states)
            return "compliant" if ok else "not compliant"
        except Exception as exc:  # noqa: BLE001 - a tool never raises into the trainer
            return f"Error: {type(exc).__name__}: {str(exc)[:200]}"

    def verify_endpoint(self) -> str:
        """Whether you stand on the goal (RegularMaze) or a target (QuestMaze)."""
        d = self._episode.driver
        return "yes" if tools_logic.verify_endpoint(d.base.maze, tuple(d.info["position"])) else "no"


#: ``environment_factory`` for a run mixing grid domains and RuleMaze: rows carry ``environment``.
ENVIRONMENT_FACTORIES = {"svot": SVoTToolEnv, "rulemaze": RuleMazeToolEnv}


def environment_of(eid: str) -> str:
    return "rulemaze" if eid.startswith("RuleMaze/") else "svot"


def prompt_rows(ids: Iterable[str] = (), *, domains: Iterable[str] = (), sizes: Iterable[int] = (),
                splits: Iterable[str] = ("id",), seeds: Iterable[int] = range(8),
                instruction: str = INSTRUCTION) -> list[dict]:
    """One row per (id, seed): ``prompt`` (the instruction; ``reset`` appends the state), ``id``, ``seed``,
    ``environment``. Ids are given, or made from every domain × size × split."""
    ids = list(ids) + [grid_env_id(d, n, s) for d in domains for n in sizes for s in splits]
    if not ids:
        raise ConfigError("prompt_rows needs ids, or domains and sizes")
    seeds = [int(s) for s in seeds]
    return [{"prompt": [{"role": "user", "content": instruction}], "id": eid, "seed": seed,
             "environment": environment_of(eid)} for eid in ids for seed in seeds]


def prompt_dataset(*args, **kwargs):
    """:func:`prompt_rows` as a ``datasets.Dataset`` (the train extra)."""
    import datasets  # the train extra

    return datasets.Dataset.from_list(prompt_rows(*args, **kwargs))


def warmup_conversations(rows: Iterable[dict], env_class: type = SVoTToolEnv) -> list[dict]:
    """SFT records that play each row's plan through the tools: ``messages`` (the prompt with the state, then per
    plan move an assistant tool call and the tool's answer, then a closing assistant line) and ``tools``.

    An untrained model rarely calls a tool, so GRPO sees reward 0 everywhere and learns nothing; a few SFT
    steps on these records first make it call ``move`` (docs/agents.md, "The SFT warm-up")."""
    out = []
    for row in rows:
        env = env_class()
        first = env.reset(**row)
        prompt = [dict(m) for m in row.get("prompt") or [{"role": "user", "content": INSTRUCTION}]]
        prompt[-1] = {**prompt[-1], "content": f"{prompt[-1]['content']}\n\n{first}"}
        messages = list(prompt)
        for text in env.episode.plan():
            words = text.split()
            if env_class is RuleMazeToolEnv:
                name, args = "execute_move", {"action": words[1]}
            else:
                name, args = "move", {"direction": words[1], **({"steps": int(words[2])} if len(words) == 3 else {})}
            answer = getattr(env, name)(**args)
            messages.append({"role": "assistant", "content": "",
                             "tool_calls": [{"type": "function", "function": {"name": name, "arguments": args}}]})
            messages.append({"role": "tool", "name": name, "content": answer})
        messages.append({"role": "assistant", "content": "Done: the goal is reached."})
        out.append({"messages": messages, "tools": [_schema(getattr(env, n)) for n in _tool_names(env_class)]})
    return out


def _schema(method) -> dict:
    from transformers.utils import get_json_schema  # the train extra

    return get_json_schema(method)


def check_tool_calling(processing_class, env_class: type = SVoTToolEnv) -> None:
    """ConfigError unless TRL's tool loop will see the model's tool calls (else every reward is silently 0).

    Checks what TRL relies on: the chat template renders tool calls and tool turns, is prefix-preserving, and the
    tokenizer's parser (``response_template``) reads back a tool call the template wrote. svot's own template and
    parser are :data:`svot.training.CHAT_TEMPLATE` / :data:`svot.training.RESPONSE_TEMPLATE`.
    """
    from trl.chat_template_utils import (  # the train extra
        is_chat_template_prefix_preserving,
        parse_response,
        supports_tool_calling,
    )

    fix = ("set processing_class.chat_template = svot.training.CHAT_TEMPLATE and the tokenizer's "
           "response_template = svot.training.RESPONSE_TEMPLATE (docs/agents.md)")
    if not supports_tool_calling(processing_class):
        raise ConfigError(f"the chat template drops tool calls or tool turns; {fix}")
    if not is_chat_template_prefix_preserving(processing_class):
        raise ConfigError(f"the chat template is not prefix-preserving (TRL needs it for tool turns); {fix}")
    tok = getattr(processing_class, "tokenizer", processing_class)
    if getattr(tok, "response_template", None) is None and getattr(tok, "response_schema", None) is None:
        raise ConfigError(f"the tokenizer has no response parser, so tool calls would stay plain text; {fix}")
    tools = [getattr(env_class(), name) for name in _tool_names(env_class)]
    name = tools[0].__name__
    args = {"direction": "up"} if name == "move" else {}
    call = {"type": "function", "function": {"name": name, "arguments": args}}
    user = [{"role": "user", "content": "go"}]
    prefix = tok.apply_chat_template(user, tools=tools, tokenize=False, add_generation_prompt=True)
    full = tok.apply_chat_template(user + [{"role": "assistant", "content": "", "tool_calls": [call]}], tools=tools,
                                   tokenize=False)
    if not full.startswith(prefix):
        raise ConfigError(f"the generation prompt is not a prefix of the rendered assistant turn; {fix}")
    prefix_ids = tok(prefix, add_special_tokens=False)["input_ids"]
    ids = tok(full[len(prefix):], add_special_tokens=False)["input_ids"]
    parsed = parse_response(tok, ids, prefix=prefix_ids, tools=tools)
    got = [(c["function"]["name"], c["function"]["arguments"]) for c in parsed.get("tool_calls") or []]
    if got != [(name, args)]:
        raise ConfigError(f"template and parser disagree: a {name} call rendered by the template parses as "
                          f"{got or parsed.get('content')!r}; TRL would run no tool and every reward would be 0; {fix}")


def _tool_names(env_class: type) -> list[str]:
    return sorted(n for n, v in vars(env_class).items() if callable(v) and not n.startswith("_")
                  and n not in ("reset", "get_reward")) or _tool_names(env_class.__mro__[1])
