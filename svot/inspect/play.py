"""SVoT interactive (beyond the paper): the model plays one env episode through a ``move`` tool.

Each sample is an episode of ``SVoT/<Domain>-<n>x<n>[-OOD]-v0`` reset with its
own seed. The model sees the domain description, the state text and the
image; every ``move`` call steps the env and answers with the new state text
and image (or says the move was inapplicable). The episode ends at the goal,
at a failure (the spec's ``is_failure``, e.g. an absorbing hole), or after ``max_moves`` moves.

The env's plan (``env.plan``: BFS-shortest, or from the domain's solver (``GridDomain.solver``),
which may be greedy unless the env reports ``plan_optimal``) is the
yardstick for "steps over plan".
"""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ContentText
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolDef, ToolParam, ToolParams

from svot.dataset.prompts import IMAGE
from svot.dataset.wording import describe_domain
from svot.domains import get_domain, max_episode_steps
from svot.envs import SVoTEnv
from svot.inspect._content import image_content, user_message

EPISODE_KEY = "svot_episode"
ENV_SPLITS = ("id", "ood")


def make_env(domain: str, size: int, split: str):
    return SVoTEnv(domain=get_domain(domain), size=size, split=split, render_mode="rgb_array")


def state_colours(spec, state: dict) -> tuple[str, ...]:
    """The colours the domain description lists: those of the state's colour-keyed cells field, if any."""
    for f in spec.fields:
        if f.kind == "colour_cells":
            return tuple(state[f.key])
    return ()


def episode_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def intro_text(env, state_text: str, max_moves: int) -> str:
    s = env.state
    colours = state_colours(env.dspec, s)
    actions = ", ".join(f'"{env.action_text(a)}"' for a in range(env.action_space.n))
    return (
        f"{describe_domain(env.dspec.name, env.size, colours)}\n\n"
        f"You are playing this game. Current state (image: {IMAGE}):\n{state_text}\n\n"
        f"Reach the goal. Call the move tool with one action at a time; its argument is one of: {actions}. "
        f"The tool answers with the new state and image. You have at most {max_moves} moves."
    )


def episode_dataset(domain: str, size: int, split: str, *, episodes: int = 20, seed: int = 0,
                    max_moves: int | None = None, images: bool = True) -> MemoryDataset:
    samples = []
    for i in range(episodes):
        env = make_env(domain, size, split)
        es = episode_seed(seed, i)
        _obs, info = env.reset(seed=es)
        cap = max_moves if max_moves is not None else max_episode_steps(size)
        plan_text = [env.action_text(a) for a in env.plan]
        meta = {
            "task": "play", "instance_id": f"{domain}-{size}x{size}-{split}-ep{i:03d}", "domain": domain,
            "size": size, "split": split, "episode_seed": es, "max_moves": cap, "images": images,
            "plan_optimal": getattr(env, "plan_optimal", None),
            "truth": {"plan": plan_text, "max_moves": cap, "random": [env.action_text(a) for a in range(env.action_space.n)]},
        }
        samples.append(Sample(id=meta["instance_id"], input=[user_message(intro_text(env, info["state_text"], cap), [env.render()], images)],
                              target=", ".join(plan_text), metadata=meta))
        env.close()
    return MemoryDataset(samples, name=f"svot-play-{domain}-{size}x{size}-{split}")


def move_tool(env, episode: dict, max_moves: int, images: bool = True) -> ToolDef:
    async def move(action: str):
        if episode["done"]:
            return "The episode is over; no more moves. Say that you are done."
        if episode["moves"] >= max_moves:
            episode["done"] = True
            return f"No moves left (the limit is {max_moves}). The episode is over."
        try:
            a = env.parse_action(str(action))
        except Exception as exc:  # noqa: BLE001 - a bad argument is the model's error, reported back to it
            return f"Unknown action {action!r}: {exc}"
        _obs, _r, terminated, _t, info = env.step(a)
        episode["moves"] += 1
        episode["actions"].append(env.action_text(a))
        if not info["applicable"]:
            episode["inapplicable"] += 1
        episode["success"] = bool(_r > 0)  # the env's reward: 1 exactly when the goal holds
        episode["failed"] = bool(terminated and not episode["success"])
        episode["done"] = bool(terminated)
        head = f"Move {episode['moves']}: {env.action_text(a)}" + ("" if info["applicable"] else " (inapplicable: nothing changed)")
        tail = " The goal is reached; the episode is over." if episode["success"] else (
            " The episode is over (failure)." if episode["failed"] else "")
        text = ContentText(text=f"{head}\n{info['state_text']}{tail}")
        return [text, image_content(env.render())] if images else text.text

    params = ToolParams(properties={"action": ToolParam(type="string", description="One action, e.g. \"move up\".")},
                        required=["action"])
    return ToolDef(move, name="move", description="Apply one action in the game and see the new state and image.",
                   parameters=params)


@solver
def play_episode() -> Solver:
    """Reset the sample's env, give the model the ``move`` tool, loop until it stops calling it."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        m = state.metadata
        env = make_env(m["domain"], m["size"], m["split"])
        env.reset(seed=m["episode_seed"])
        episode = {"moves": 0, "inapplicable": 0, "actions": [], "success": False, "failed": False, "done": False}
        state.tools = [move_tool(env, episode, m["max_moves"], m.get("images", True)).as_tool()]
        try:
            state = await generate(state, tool_calls="loop")
        finally:
            state.store.set(EPISODE_KEY, dict(episode))
            env.close()
        return state

    return solve
