"""The agent-episode core (svot.agents.episode) on every registered id: reproducible resets, turns in the env's
wording and RAGEN's answer tags, reward terms, observations, bad input that changes nothing, JSON replay."""

from __future__ import annotations

import io

import gymnasium as gym
import pytest
from PIL import Image

from svot.agents import AgentEpisode, EpisodeConfig, parse_turn, resolve_row
from svot.agents.drivers import GridDriver, driver_class, make_driver
from svot.errors import ConfigError, ProblemError


def _snapshot(ep: AgentEpisode) -> tuple:
    return (ep.state_hash(), ep.steps, ep.turns, ep.reward, list(ep.actions), list(ep.log), ep.done)


def test_plan_wins_and_matches_plain_gymnasium(any_id):
    """The env's plan, played as text turns, wins with the env's reward; gym.make stepped alike ends in the same state."""
    ep = AgentEpisode(EpisodeConfig(observation="text"))
    first = ep.reset(id=any_id, seed=7)
    assert "Current state:" in first.text and first.image is None
    plan = ep.plan()
    assert plan, f"{any_id}: no plan for seed 7"
    for a in plan:
        out = ep.act(a)
        assert out.error is None, out.error
    assert ep.success and ep.terminated and ep.reward == 1.0 and out.info["success"]
    # plain Gymnasium, same seed and actions: the same state hash
    ref = make_driver(any_id, 128)
    ref.reset(7, {})
    for a in plan:
        ref.step(ref.parse(a))
    assert ref.state_hash() == ep.state_hash()


def test_same_seed_same_problem_other_seed_differs(any_id):
    a, b = AgentEpisode(), AgentEpisode()
    ta, tb = a.reset(id=any_id, seed=11), b.reset(id=any_id, seed=11)
    assert ta.text == tb.text and a.state_hash() == b.state_hash()
    hashes = {a.state_hash()}
    for seed in (12, 13, 14):
        a.reset(id=any_id, seed=seed)
        hashes.add(a.state_hash())
    assert len(hashes) > 1


def test_bad_input_changes_nothing(any_id):
    ep = AgentEpisode()
    ep.reset(id=any_id, seed=3)
    before = _snapshot(ep)
    for bad in (None, 5, ["move up"], {"a": 1}, "x" * 100_000, "fly north", "", "<answer></answer>",
                "move up, teleport", "<answer>a</answer><answer>b</answer>"):
        out = ep.turn(bad)
        assert out.error and out.text.startswith("Error:") and out.info["valid"] is False, bad
        assert _snapshot(ep) == before, bad
        assert ep.act(bad).error and _snapshot(ep) == before, bad
    assert len(ep.turn("x" * 100_000).text) < 200  # the error is short


def test_after_the_end_nothing_more():
    ep = AgentEpisode()
    ep.reset(id="SVoT/Maze-5x5-v0", seed=7)
    ep.turn(" || ".join(ep.plan()))
    assert ep.success and ep.done
    before = _snapshot(ep)
    out = ep.act("move up")
    assert out.error == "the episode is over; no more actions" and out.done and _snapshot(ep) == before


def test_answer_tags_format_reward_and_step_penalty():
    cfg = EpisodeConfig(answer_format="tags", format_reward=0.1, step_penalty=0.01)
    ep = AgentEpisode(cfg)
    ep.reset(id="SVoT/Gather-5x5-v0", seed=2)
    plan = ep.plan()
    assert len(plan) >= 2
    out = ep.turn(f"<think>first moves</think><answer>{plan[0]} || {plan[1]}</answer>")
    assert out.info["well_formed"] and out.info["actions"] == plan[:2]
    assert out.reward == pytest.approx(0.1 - 0.02)
    assert ep.turn(plan[2]).error  # tags required: plain text is refused, nothing stepped
    out = ep.turn(f"<answer>{' || '.join(plan[2:])}</answer>")  # no <think>: steps, no format reward
    assert out.info["well_formed"] is False and ep.success
    assert ep.reward == pytest.approx(0.1 + 1.0 - 0.01 * len(plan))


def test_parse_turn_formats():
    assert parse_turn("move up || move left 3").actions == ("move up", "move left 3")
    t = parse_turn("<think>go</think> <answer>Up, Right</answer>")
    assert t.actions == ("Up", "Right") and t.well_formed
    assert parse_turn("<think>x</think>", "tags").error
    assert parse_turn("up", "plain").well_formed


def test_turn_limit_truncates():
    ep = AgentEpisode(EpisodeConfig(max_turns=2))
    ep.reset(id="SVoT/Maze-5x5-v0", seed=1)
    ep.act("move up")
    out = ep.act("move up")
    assert out.truncated and ep.done and not ep.success
    assert ep.act("move down").error


@pytest.mark.parametrize("eid", ["SVoT/Maze-7x7-v0", "RuleMaze/QuestMaze-5x5-v1", "SVoT/Sokoban-4x4-v0"])
@pytest.mark.parametrize("size", [64, 128, 300])
def test_image_observation_size(eid, size):
    ep = AgentEpisode(EpisodeConfig(observation="image", image_size=size))
    first = ep.reset(id=eid, seed=0)
    img = Image.open(io.BytesIO(first.image))
    assert img.size == (size, size) and img.mode == "RGB"
    assert "Current state:" in first.text


def test_rows_by_domain_and_problem_pddl():
    ep = AgentEpisode()
    ep.reset(domain="sokoban", size=5, split="ood", seed=4)
    assert ep.row["id"] == "SVoT/Sokoban-5x5-OOD-v0"
    problem = ep.driver.base.problem.to_pddl()
    other = AgentEpisode()
    other.reset(id="SVoT/Sokoban-5x5-OOD-v0", problem_pddl=problem)
    assert other.state_hash() == ep.state_hash()
    with pytest.raises(ConfigError):
        ep.reset(id="SVoT/Nothing-5x5-v0", seed=1)
    with pytest.raises(ConfigError):
        ep.reset(size=5)


def test_rulemaze_rule_row():
    ep = AgentEpisode()
    ep.reset(id="RuleMaze/RegularMaze-3x3-v0", seed=1, rule="regular-medium-05")
    assert "blue-green zone" in ep.driver.text()


def test_an_env_class_names_its_driver_and_row_options():
    """The agents layer names no env: an env class's ``agent_driver`` entry point says how to play it (RuleMaze's
    lives in svot/rulemaze), every other id gets the grid driver; a row's extra fields are the driver's options."""
    assert driver_class("SVoT/Maze-5x5-v0") is GridDriver
    rule_driver = driver_class("RuleMaze/QuestMaze-5x5-v1")
    assert rule_driver.__module__ == "svot.rulemaze.agent_driver" and rule_driver.row_options == ("rule", "maze")
    grid = resolve_row({"id": "SVoT/Maze-5x5-v0", "seed": 1, "rule": "regular-medium-05", "maze": {}})
    assert grid["options"] == {}  # not a grid env's option: ignored like any other column
    ep = AgentEpisode()
    ep.reset(id="RuleMaze/RegularMaze-3x3-v0", seed=1, rule="regular-medium-05")
    maze = ep.driver.base.maze.to_dict()
    other = AgentEpisode()
    other.reset(id="RuleMaze/RegularMaze-3x3-v0", seed=2, rule="regular-medium-05", maze=maze)
    assert other.row["options"] == {"rule": "regular-medium-05", "maze": maze}
    assert other.driver.base.maze.to_dict() == maze
    replay = AgentEpisode.from_json(other.to_json())  # the options replay through the record
    assert replay.state_hash() == other.state_hash() and replay.row == other.row


def test_json_round_trip_replays_and_detects_tampering():
    ep = AgentEpisode(EpisodeConfig(observation="both", format_reward=0.5))
    ep.reset(id="SVoT/Pacman-5x5-v0", seed=9)
    ep.turn(f"<think>t</think><answer>{ep.plan()[0]}</answer>")
    ep.act("move sideways")  # an error: not part of the record
    ep.act(ep.plan()[1])
    data = ep.to_dict()
    back = AgentEpisode.from_json(ep.to_json())
    assert back.to_dict() == data and len(data["log"]) == 2
    data["state_hash"] = "0" * 16
    with pytest.raises(ProblemError):
        AgentEpisode.from_dict(data)


def test_gym_id_and_seed_drawn_when_missing():
    ep = AgentEpisode()
    ep.reset(id="SVoT/Maze-5x5-v0")
    again = AgentEpisode()
    again.reset(**{"id": ep.row["id"], "seed": ep.row["seed"]})
    assert again.state_hash() == ep.state_hash()
    assert gym.spec("SVoT/Maze-5x5-v0").max_episode_steps == ep.max_turns


def test_ragen_and_vagen_envs():
    from svot.agents.ragen import IMAGE_TOKEN, RagenEnv

    text = RagenEnv("SVoT/Maze-5x5-v0", format_reward=0.1)
    obs, info = text.reset(seed=7)
    assert isinstance(obs, str) and "Player:" in obs
    plan = text.episode.plan()
    obs, reward, done, info = text.step("<think>go</think><answer>" + " || ".join(plan) + "</answer>")
    assert done and info["success"] and info["action_is_valid"] and info["action_is_effective"]
    assert reward == pytest.approx(1.1)
    vis = RagenEnv("SVoT/Sokoban-5x5-v0", vision=True)
    obs, info = vis.reset(seed=1)
    assert obs["obs_str"].count(IMAGE_TOKEN) == len(obs["multi_modal_input"][IMAGE_TOKEN]) == 1
    obs, reward, done, info = vis.step("move up")  # no tags: refused, nothing stepped
    assert not info["action_is_valid"] and reward == 0.0 and vis.episode.steps == 0
