"""The TRL environment classes as TRL calls them (no-arg constructor, reset(**row), tools, get_reward), without
a trainer: bad tool input never raises and changes nothing; rows carry the seed, so a group shares a problem."""

from __future__ import annotations

import inspect

import pytest
from PIL import Image

from svot.agents.trl_env import (ENVIRONMENT_FACTORIES, RuleMazeToolEnv, SVoTImageToolEnv, SVoTToolEnv,
                                 prompt_rows)


def _tools(cls) -> list[str]:
    # what GRPOTrainer lists: public functions of the class other than reset / get_reward
    return sorted(n for n, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
                  if not n.startswith("_") and n not in ("reset", "get_reward"))


def test_tools_are_what_trl_sees():
    assert _tools(SVoTToolEnv) == ["move"]
    assert _tools(RuleMazeToolEnv) == ["execute_move", "inspect_grid", "locate_start", "verify_endpoint",
                                       "verify_rule"]
    assert "Args:" in SVoTToolEnv.move.__doc__ and "direction:" in SVoTToolEnv.move.__doc__


def test_group_rows_share_one_problem_and_the_plan_wins():
    rows = prompt_rows(domains=["gather", "sokoban"], sizes=[5], splits=["id", "ood"], seeds=[3, 4])
    assert len(rows) == 8 and {r["environment"] for r in rows} == {"svot"}
    a, b = SVoTToolEnv(), SVoTToolEnv()
    for row in rows:
        assert a.reset(**row) == b.reset(**row)
        for text in a.episode.plan():
            words = text.split()
            out = a.move(words[1], int(words[2]) if len(words) == 3 else 1)
            assert not out.startswith("Error"), out
        assert a.get_reward() == 1.0 and a.episode.success


@pytest.mark.parametrize("args", [(3,), ("up", "2"), ("up", True), ("north",), ("x" * 100_000,), (None, None),
                                  ("up", 2), ("up", -1)])
def test_bad_move_is_a_short_error_and_changes_nothing(args):
    env = SVoTToolEnv()
    env.reset(id="SVoT/Maze-5x5-v0", seed=1)  # moves are one cell: steps=2 is refused too
    before = (env.episode.state_hash(), env.episode.steps, env.get_reward())
    out = env.move(*args)
    assert out.startswith("Error") and len(out) < 300
    assert (env.episode.state_hash(), env.episode.steps, env.get_reward()) == before


def test_move_after_the_end():
    env = SVoTToolEnv()
    env.reset(id="SVoT/Maze-5x5-v0", seed=1)
    for text in env.episode.plan():
        env.move(text.split()[1])
    assert env.get_reward() == 1.0
    assert env.move("up").startswith("Error: the episode is over")
    assert env.get_reward() == 1.0


def test_image_tool_answers_with_a_pil_frame():
    env = SVoTImageToolEnv()
    env.reset(id="SVoT/Sokoban-5x5-v0", seed=2)
    image, text = env.move(env.episode.plan()[0].split()[1])
    assert isinstance(image["image"], Image.Image) and image["image"].size == (128, 128)
    assert text["type"] == "text" and "Sokoban" in text["text"]
    assert isinstance(env.move("sideways"), str)


def test_rulemaze_tools():
    env = ENVIRONMENT_FACTORIES["rulemaze"]()
    row = prompt_rows(["RuleMaze/RegularMaze-3x3-v0"], seeds=[5])[0]
    assert row["environment"] == "rulemaze"
    assert "Rule:" in env.reset(**row)
    start = env.locate_start()
    states = [env.inspect_grid()]
    actions = [t.split()[1] for t in env.episode.plan()]
    for a in actions:
        assert not env.execute_move(a).startswith("Error")
        states.append(env.inspect_grid())
    assert start.startswith("The start is at")
    assert env.verify_rule(actions, states) == "compliant" and env.verify_endpoint() == "yes"
    assert env.get_reward() == 1.0
    for bad in (("a", 3), ([1], ["x"]), (["up"] * 300, [])):
        assert env.verify_rule(*bad).startswith("Error")
    assert env.execute_move(["up"]).startswith("Error")


def test_warmup_conversations_replay_the_plan():
    from svot.agents.trl_env import warmup_conversations

    pytest.importorskip("transformers", reason="the train extra")
    rows = prompt_rows(["SVoT/Gather-5x5-v0", "RuleMaze/QuestMaze-3x3-v0"], seeds=[1])
    recs = warmup_conversations(rows[:1]) + warmup_conversations(rows[1:], RuleMazeToolEnv)
    for rec in recs:
        msgs = rec["messages"]
        calls = [m for m in msgs if m.get("tool_calls")]
        results = [m for m in msgs if m["role"] == "tool"]
        assert len(calls) == len(results) > 0 and "goal is reached" in results[-1]["content"]
        assert not any(r["content"].startswith("Error") for r in results)
    assert [t["function"]["name"] for t in recs[0]["tools"]] == ["move"]
    assert len(recs[1]["tools"]) == 5
