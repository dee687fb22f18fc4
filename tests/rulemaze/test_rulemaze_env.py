"""RuleMaze environments: registration, spaces, walls, termination, reward and `violated`."""

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import svot  # noqa: F401  (registers the ids)
from svot.errors import ActionError, ConfigError
from svot.rulemaze import symbols as S
from svot.rulemaze.env import RuleMazeEnv, RuleTextObservation, env_ids
from svot.rulemaze.maze import Maze
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.rules import builtin_rules
from svot.rulemaze.trajectory import path_to_actions
from svot.rulemaze.vision import find_marker, read_cells

IDS = ["RuleMaze/RegularMaze-3x3-v0", "RuleMaze/QuestMaze-3x3-v0", "RuleMaze/QuestMaze-5x5-v1"]
A = {d: i for i, d in enumerate(S.DIRECTIONS)}


def test_ids_are_registered_on_import():
    assert env_ids() == IDS
    for eid in IDS:
        assert eid in gym.registry
        assert gym.registry[eid].max_episode_steps == (100 if "5x5" in eid else 36)  # 4 N^2


@pytest.mark.parametrize("eid", IDS)
def test_check_env_plain_and_text_wrapper(eid):
    env = gym.make(eid, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    wrapped = RuleTextObservation(env.unwrapped)
    check_env(wrapped)
    obs, info = wrapped.reset(seed=3)
    assert wrapped.observation_space.contains(obs)
    assert obs["rule"] == info["rule"] and obs["image"].shape == (256, 256, 3)
    logic = RuleTextObservation(gym.make(eid).unwrapped, field="logic")
    obs, info = logic.reset(seed=3)
    assert obs["rule"] == info["rule_logic"] and logic.observation_space.contains(obs)


@pytest.mark.parametrize("eid", IDS)
def test_ground_truth_complies_and_the_other_path_does_not(eid):
    env = gym.make(eid)
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        assert find_marker(obs) == tuple(info["position"])
        inner = env.unwrapped
        paths = solution_paths(inner.maze)
        gt = info["ground_truth"]
        other = next(path_to_actions(p) for p in paths if path_to_actions(p) != gt)
        for actions, reward_wanted in ((gt, 1.0), (other, 0.0)):
            obs, info = env.reset(seed=seed)
            violated_at = None
            for i, a in enumerate(actions):
                obs, reward, terminated, truncated, info = env.step(A[a])
                assert info["applicable"] and find_marker(obs) == tuple(info["position"])
                if info["violated"] and violated_at is None:
                    violated_at = i
                assert terminated == (i == len(actions) - 1)
            assert reward == reward_wanted
            assert info["target"] in S.goal_symbols(inner.scenario)
            assert info["actions"] == list(actions)
            assert info["compliant"] == (reward_wanted == 1.0)
            if reward_wanted:
                assert violated_at is None


def test_walls_block_and_violated_is_reported_at_once():
    # green (0,0) -> yellow (0,1) -> red (0,2); a wall between (0,0) and (1,0)
    passages = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 1), (1, 1)), ((1, 1), (1, 2)), ((0, 2), (1, 2)),
                ((1, 0), (1, 1)), ((1, 0), (2, 0)), ((2, 0), (2, 1)), ((2, 1), (2, 2))]
    cells = (("green", "yellow", "red"), ("white", "white", "white"), ("white", "white", "white"))
    maze = Maze("RegularMaze", 3, (0, 0), ((0, 2),), passages, cells)
    env = RuleMazeEnv("RegularMaze")
    obs, info = env.reset(seed=0, options={"maze": maze, "rule": "Never enter a yellow cell."})
    obs, r, term, trunc, info = env.step(A["down"])  # wall
    assert not info["applicable"] and info["position"] == [0, 0] and info["actions"] == []
    obs, r, term, trunc, info = env.step(A["up"])  # edge
    assert not info["applicable"] and not term
    obs, r, term, trunc, info = env.step(A["right"])  # into yellow
    assert info["violated"] and info["symbols"] == ["green", "yellow"] and not term
    obs, r, term, trunc, info = env.step(A["right"])
    assert term and r == 0.0 and info["violated"] and info["target"] == "red"
    with pytest.raises(ActionError):
        env.step(7)


@pytest.mark.pddlgym
def test_quest_items_vanish_and_read_normal_on_return():
    passages = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (1, 2)), ((1, 2), (2, 2)), ((0, 0), (1, 0)),
                ((1, 0), (2, 0)), ((2, 0), (2, 1)), ((2, 1), (2, 2)), ((1, 1), (2, 1))]
    cells = (("prince", "key", "grass"), ("food", "grass", "grass"), ("grass", "heart", "princess"))
    maze = Maze("QuestMaze", 3, (0, 0), ((1, 1), (2, 2)), passages,
                tuple(tuple("treasure" if (r, c) == (1, 1) else s for c, s in enumerate(row))
                      for r, row in enumerate(cells)))
    env = RuleMazeEnv("QuestMaze", engine="pddlgym", layout="walls")
    obs0, _ = env.reset(seed=0, options={"maze": maze, "rule": 'Count("Key",==,1)'})
    obs, r, term, trunc, info = env.step(A["right"])
    obs, r, term, trunc, info = env.step(A["left"])
    obs, r, term, trunc, info = env.step(A["right"])
    assert info["symbols"] == ["prince", "key", "prince", "normal"]
    assert read_cells(obs0)[0][1] == "key" and read_cells(obs)[0][1] == "grass"  # the key is gone
    for a in ("right", "down", "down"):
        obs, r, term, trunc, info = env.step(A[a])
    assert term and info["target"] == "princess" and r == 1.0  # exactly one key


def test_rule_sets_and_bad_arguments():
    env = RuleMazeEnv("QuestMaze", rules="unseen")
    assert {r.id for r in env.rules} == {r.id for r in builtin_rules("QuestMaze", split="unseen")}
    _, info = env.reset(seed=1)
    assert info["rule_id"] in {r.id for r in env.rules}
    with pytest.raises(ConfigError, match="rules must be"):
        RuleMazeEnv("QuestMaze", rules="some")
    with pytest.raises(ConfigError, match="unknown reset option"):
        env.reset(options={"seed": 1})
    with pytest.raises(ConfigError, match="RegularMaze rule"):
        RuleMazeEnv("QuestMaze", rules=builtin_rules("RegularMaze")[:1])
    ansi = RuleMazeEnv("RegularMaze", render_mode="ansi")
    ansi.reset(seed=0)
    assert "@" in ansi.render() and "Rule:" in ansi.render()
