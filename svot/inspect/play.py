"""SVoT interactive (beyond the paper): the model plays one env episode through a ``move`` tool.

Each sample is an episode of ``SVoT/<Domain>-<n>x<n>[-OOD]-v0`` reset with its
own seed. The model sees the domain description, the state text and the
image; every ``move`` call steps the env and answers with the new state text
and image (or says the move was inapplicable). The episode ends at the goal,
at a failure (the spec's ``is_failure``, e.g. an absorbing hole), or after ``max_moves`` moves.

The episode is :class:`svot.agents.AgentEpisode`, the core every agent adapter (TRL, OpenEnv) plays through:
an action it cannot read, or a move after the episode ended, is an Inspect :class:`~inspect_ai.tool.ToolError`
(the model sees the error and may try again; nothing is stepped).

The env's plan (``env.plan``: BFS-shortest, or from the domain's solver (``GridDomain.solver``),
which may be greedy unless the env reports ``plan_optimal``) is the
yardstick for "steps over plan".
"""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef, ToolError, ToolParam, ToolParams

from svot.agents import AgentEpisode, EpisodeConfig
from svot.dataset.prompts import IMAGE
from svot.domains import get_domain, max_episode_steps
from svot.envs import SVoTEnv
from svot.inspect._content import image_content, user_message

EPISODE_KEY = "svot_episode"
ENV_SPLITS = ("id", "ood")
IMAGE_SIZE = 256  # the frames the model sees (the env's default image size)


def make_env(domain: str, size: int, split: str):
    return SVoTEnv(domain=get_domain(domain), size=size, split=split, render_mode="rgb_array")


def episode_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def new_episode(images: bool, max_moves: int) -> AgentEpisode:
    """One tool call is one turn; the tool takes the env's own wording."""
    return AgentEpisode(EpisodeConfig(observation="both" if images else "text", image_size=IMAGE_SIZE,
                                      answer_format="plain", max_turns=max_moves, max_actions_per_turn=1))


def intro_text(ep: AgentEpisode, max_moves: int) -> str:
    d = ep.driver
    actions = ", ".join(f'"{w}"' for w in d.action_words())
    return (
        f"{d.intro()}\n\n"
        f"You are playing this game. Current state (image: {IMAGE}):\n{d.text()}\n\n"
        f"Reach the goal. Call the move tool with one action at a time; its argument is one of: {actions}. "
        f"The tool answers with the new state and image. You have at most {max_moves} moves."
    )


def episode_dataset(domain: str, size: int, split: str, *, episodes: int = 20, seed: int = 0,
                    max_moves: int | None = None, images: bool = True) -> MemoryDataset:
    samples = []
    cap = max_moves if max_moves is not None else max_episode_steps(size)
    ep = new_episode(images, cap)
    for i in range(episodes):
        es = episode_seed(seed, i)
        ep.reset(domain=domain, size=size, split=split, seed=es)
        plan_text = ep.plan()
        meta = {
            "task": "play", "instance_id": f"{domain}-{size}x{size}-{split}-ep{i:03d}", "domain": domain,
            "size": size, "split": split, "episode_seed": es, "max_moves": cap, "images": images,
            "plan_optimal": getattr(ep.driver.base, "plan_optimal", None),
            "truth": {"plan": plan_text, "max_moves": cap, "random": ep.driver.action_words()},
        }
        samples.append(Sample(id=meta["instance_id"], input=[user_message(intro_text(ep, cap), [ep.frame()], images)],
                              target=", ".join(plan_text), metadata=meta))
    ep.close()
    return MemoryDataset(samples, name=f"svot-play-{domain}-{size}x{size}-{split}")


def episode_summary(ep: AgentEpisode) -> dict:
    """What the episode scorer reads (svot.inspect.scorers.episode_scorer)."""
    return {"moves": ep.steps, "inapplicable": ep.inapplicable, "actions": list(ep.actions), "success": ep.success,
            "failed": bool(ep.terminated and not ep.success), "done": ep.done, "reward": ep.reward}


def move_tool(ep: AgentEpisode, images: bool = True) -> ToolDef:
    """The ``move`` tool of a reset episode: its example action is one the domain accepts."""
    async def move(action: str):
        out = ep.act(action)
        if out.error is not None:
            raise ToolError(out.error)  # the model reads it and may try again; nothing was stepped
        return [ContentText(text=out.text), image_content(out.image)] if images else out.text

    example = ep.driver.action_text(0)  # the domain's own wording of an action it accepts (with a distance where moves carry one)
    params = ToolParams(properties={"action": ToolParam(type="string", description=f"One action, e.g. \"{example}\".")},
                        required=["action"])
    return ToolDef(move, name="move", description="Apply one action in the game and see the new state and image.",
                   parameters=params)


@solver
def play_episode() -> Solver:
    """Reset the sample's episode, give the model the ``move`` tool, loop until it stops calling it."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        m = state.metadata
        images = m.get("images", True)
        ep = new_episode(images, m["max_moves"])
        ep.reset(domain=m["domain"], size=m["size"], split=m["split"], seed=m["episode_seed"])
        state.tools = [move_tool(ep, images).as_tool()]
        try:
            state = await generate(state, tool_calls="loop")
        finally:
            state.store.set(EPISODE_KEY, episode_summary(ep))
            ep.close()
        return state

    return solve
