"""svot as a verifiers environment (verifiers >= 0.4, the ``verifiers.v1`` stack; the ``verifiers`` extra).

verifiers finds an environment by its taskset id: ``svot-verifiers`` imports the top-level package
``svot_verifiers`` (verifiers resolves no dotted id), which re-exports this module's taskset (one task per
id × seed row, :func:`svot.agents.trl_env.prompt_rows`) and the env that plays it. The env plays the user's side of a chat: it sends the episode's intro (task, actions, format,
state), then each model reply is one :meth:`AgentEpisode.turn` (parsed by the core), and the observation
text (or the core's ``Error: …`` for a reply it refuses) goes back as the next user message, until the episode
ends or the model has replied ``max_turns`` times::

    from svot.agents.verifiers_env import load_environment
    env = load_environment(ids=["SVoT/Maze-5x5-v0"], seeds=range(8))   # a verifiers.v1 Env
    # or: vf-eval svot-verifiers --env.taskset.ids '["SVoT/Maze-5x5-v0"]' ...

The rubric, recorded on each trace: rewards ``success`` (1 if the goal is reached, weight 1) and ``format``
(the share of turns whose text was well formed, weight ``format_weight``); metrics ``steps_over_plan`` (env
steps taken / the plan's length, on won episodes; 0 otherwise), ``steps``, ``turns``, ``env_reward`` and
``invalid_turns``. ``trace.info["svot"]`` holds the serialized episode (:meth:`AgentEpisode.to_dict`), the
plan and, per model reply, the state hash, reward, termination and success. The model plays through
verifiers' tool-less ``null`` chat harness in a local subprocess (a ``uv`` script).

verifiers (the ``verifiers`` extra) is imported at the top: its plugin loader needs the taskset and env classes
at module level, and svot's core never imports this module (like :mod:`svot.agents.openenv_env`).
"""

from __future__ import annotations

from collections.abc import Iterator

import verifiers.v1 as vf
from pydantic import Field

from svot.agents.episode import AgentEpisode, EpisodeConfig
from svot.agents.trl_env import prompt_rows

TASKSET_ID = "svot-verifiers"  # verifiers imports svot_verifiers, which re-exports this module
DEFAULT_IDS = ("SVoT/Maze-5x5-v0",)


class SVoTData(vf.TaskData):
    """One problem: a registered id and its reset seed (the same seed gives the same problem anywhere)."""

    env_id: str
    seed: int


class SVoTTask(vf.Task[SVoTData]):
    pass


class SVoTTasksetConfig(vf.TasksetConfig):
    ids: list[str] = Field(default_factory=lambda: list(DEFAULT_IDS))
    """Registered svot ids (``SVoT/*``, ``RuleMaze/*``)."""
    domains: list[str] = Field(default_factory=list)
    """Or domain names, crossed with ``sizes`` and ``splits``."""
    sizes: list[int] = Field(default_factory=list)
    splits: list[str] = Field(default_factory=lambda: ["id"])
    seeds: list[int] = Field(default_factory=lambda: list(range(8)))


class SVoTTaskset(vf.Taskset[SVoTTask, SVoTTasksetConfig]):
    def load(self) -> Iterator[SVoTTask]:
        c = self.config
        for row in prompt_rows(c.ids, domains=c.domains, sizes=c.sizes, splits=c.splits, seeds=c.seeds):
            yield SVoTTask(SVoTData(id=f"{row['id']}#{row['seed']}", name=row["id"], env_id=row["id"],
                                    seed=row["seed"]), c.task)


class SVoTEnvConfig(vf.EnvConfig):
    # the tool-less chat loop, in a local subprocess (verifiers' default runtime is a remote sandbox)
    player: vf.AgentConfig = vf.AgentConfig(harness={"id": "null"}, runtime={"type": "subprocess"})
    answer_format: str = "either"
    max_turns: int | None = None
    """Turns per episode (None: the id's ``max_episode_steps``)."""
    format_weight: float = 0.1


class SVoTEnv(vf.Env[SVoTEnvConfig]):
    async def run(self, task, agents):
        c = self.config
        ep = AgentEpisode(EpisodeConfig(answer_format=c.answer_format, max_turns=c.max_turns))  # text observations
        first = ep.reset(id=task.data.env_id, seed=task.data.seed)
        plan = ep.plan()  # from the start state: the yardstick of steps over plan
        plan_length = len(plan)
        well_formed = invalid = 0
        turns = []  # per model reply: what the core answered (trace.info["svot"]["turns"])
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn(f"Problem {task.data.id}.\n{first.text}")  # id#seed: traces name it
            while not segment.terminated:
                out = ep.turn(segment.last_reply)
                turns.append({"state_hash": ep.state_hash(), "reward": out.reward, "terminated": out.terminated,
                              "truncated": out.truncated, "success": ep.success, "error": out.error})
                invalid += out.error is not None  # refused by the core (no turn counted there), yet a reply
                well_formed += bool(out.info.get("well_formed"))
                if ep.done or ep.turns + invalid >= ep.max_turns:  # every model reply counts toward max_turns
                    break
                segment = await interaction.turn(out.text)
            # recorded before the interaction closes, so the rollout's own reward (logs, trainers) includes them
            record_rubric(interaction.trace, ep, plan_length, well_formed, invalid, c.format_weight)
            interaction.trace.info["svot"] = {"episode": ep.to_dict(), "plan": plan, "turns": turns}
        ep.close()


def record_rubric(trace, ep: AgentEpisode, plan_length: int, well_formed: int, invalid: int,
                  format_weight: float) -> None:
    """The rubric (module docstring) on the player's trace."""
    attempts = ep.turns + invalid
    trace.record_reward("success", float(ep.success))
    trace.record_reward("format", well_formed / attempts if attempts else 0.0, format_weight)
    trace.record_metric("steps_over_plan", ep.steps / plan_length if ep.success and plan_length else 0.0)
    trace.record_metrics({"steps": float(ep.steps), "turns": float(ep.turns), "env_reward": ep.env_reward,
                          "invalid_turns": float(invalid)})


def load_environment(**kwargs) -> vf.Env:
    """The verifiers env over svot: ``kwargs`` are the taskset's fields (``ids``, ``domains``, ``sizes``,
    ``splits``, ``seeds``) and the env's (``answer_format``, ``max_turns``, ``format_weight``,
    ``player``)."""
    env_fields = set(SVoTEnvConfig.model_fields) - set(vf.EnvConfig.model_fields)
    env_kwargs = {k: v for k, v in kwargs.items() if k in env_fields}
    taskset = {k: v for k, v in kwargs.items() if k not in env_fields}
    return vf.load_environment(SVoTEnvConfig(taskset={"id": TASKSET_ID, **taskset}, **env_kwargs))


__all__ = ["SVoTEnv", "SVoTEnvConfig", "SVoTTask", "SVoTTaskset", "SVoTTasksetConfig", "load_environment"]
