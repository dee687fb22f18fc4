"""Every registered env id: Gymnasium's checker, info contents, PDDLGym agreement, errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from svot.domains.maze.env import MazeEnv
from svot.domains.sokoban.env import SokobanEnv
import svot
from svot.domains import get_domain, registered_ids
from svot.errors import ActionError, ConfigError, PDDLError, ProblemError

ALL_IDS = registered_ids()


def test_registry_has_every_domain_size_and_split():
    # SVoT's five domains x 3 Table 5 sizes x (ID, OOD), RuleMaze's two walled mazes and its open grid x 2 sizes x 2
    assert len(ALL_IDS) == 5 * 3 * 2 + 3 * 2 * 2
    assert "SVoT/RegularMaze-3x3-v0" in ALL_IDS and "SVoT/RegularMaze-4x4-OOD-v0" in ALL_IDS
    assert "SVoT/QuestMaze-3x3-v0" in ALL_IDS and "SVoT/QuestMaze-4x4-OOD-v0" in ALL_IDS
    assert "SVoT/OpenQuestMaze-5x5-v0" in ALL_IDS and "SVoT/OpenQuestMaze-7x7-OOD-v0" in ALL_IDS
    assert "SVoT/Sokoban-5x5-v0" in ALL_IDS and "SVoT/Sokoban-5x5-OOD-v0" in ALL_IDS
    assert "SVoT/Maze-7x7-v0" in ALL_IDS and "SVoT/Maze-4x4-v0" not in ALL_IDS
    for eid in ALL_IDS:
        assert eid in gym.registry


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_check_env(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_info_and_plan(env_id):
    env = gym.make(env_id)
    obs, info = env.reset(seed=3)
    assert set(info) >= {"state", "state_text", "atoms", "applicable"}
    assert info["atoms"] == sorted(info["atoms"])
    u = env.unwrapped
    # one bit per kind: uint8 up to 8 kinds, uint16 beyond (RegularMaze's 11)
    assert obs.shape == (u.size, u.size) and obs.dtype == (np.uint8 if len(u.dspec.kinds) <= 8 else np.uint16)
    assert info["state"]["player"] == [int(x) for x in np.argwhere(obs & 1)[0]]
    assert u.plan is not None
    terminated = False
    reward = 0.0
    for a in u.plan:
        obs, reward, terminated, truncated, info = env.step(a)
        assert info["applicable"]
    assert terminated and reward == 1.0


def test_svot_prefix_make():
    env = gym.make("svot:SVoT/Maze-5x5-v0")
    env.reset(seed=0)
    assert env.unwrapped.size == 5


@pytest.mark.pddlgym
@pytest.mark.parametrize("domain", ["maze", "frozenlake", "sokoban", "pacman", "gather"])
def test_env_agrees_with_pddlgym_engine(domain):
    """Same seed, same problem; a random action sequence gives the same atoms at every step."""
    size = svot.domains.get_spec(domain).sizes[0]
    eid = svot.domains.env_id(domain, size)
    fast = gym.make(eid).unwrapped
    ref = gym.make(eid, engine="pddlgym").unwrapped
    _, fi = fast.reset(seed=11)
    _, ri = ref.reset(seed=11)
    assert fi["atoms"] == ri["atoms"]
    rng = np.random.default_rng(5)
    for _ in range(60):
        a = int(rng.integers(fast.action_space.n))
        fo, fr, ft, _, fi = fast.step(a)
        ro, rr, rt, _, ri = ref.step(a)
        assert fi == ri and fr == rr and ft == rt and np.array_equal(fo, ro)
        if ft:
            _, fi = fast.reset(seed=int(rng.integers(1000)))
            ref.reset(options={"problem": fast.problem.to_pddl()})


def test_reset_with_problem_text_and_path(tmp_path):
    env = gym.make("SVoT/Sokoban-5x5-v0").unwrapped
    env.reset(seed=1)
    text = env.problem.to_pddl()
    path = tmp_path / "p.pddl"
    path.write_text(text)
    _, a = env.reset(options={"problem": text})
    _, b = env.reset(options={"problem": str(path)})
    _, c = env.reset(options={"problem": path})
    assert a == b == c
    # a given problem is solved as the sampled ones are: the plan reaches the goal
    assert env.plan
    for action in env.plan:
        _, reward, terminated, _, info = env.step(action)
    assert terminated and reward == 1.0 and info["is_success"] is True


def test_same_seed_same_problem():
    a = gym.make("SVoT/Gather-5x5-v0").unwrapped
    b = gym.make("SVoT/Gather-5x5-v0").unwrapped
    assert a.reset(seed=42)[1] == b.reset(seed=42)[1]
    assert a.reset(seed=43)[1] != b.reset(seed=42)[1]


def test_action_text_round_trip():
    for eid in ["SVoT/Maze-5x5-v0", "SVoT/Gather-6x6-v0"]:
        env = gym.make(eid).unwrapped
        for a in range(env.action_space.n):
            assert env.parse_action(env.action_text(a)) == a
    assert gym.make("SVoT/Gather-6x6-v0").unwrapped.action_text(9) == "move down 3"


def test_ansi_render():
    env = gym.make("SVoT/Maze-5x5-v0", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "P" in text


# --- bad input -------------------------------------------------------------------------
def test_unknown_id_and_size():
    with pytest.raises(gym.error.Error):
        gym.make("SVoT/Sokoban-9x9-v0")
    with pytest.raises(ConfigError, match="sokoban has no size 9; Table 5 sizes are 4, 5, 6"):
        SokobanEnv(size=9)


@pytest.mark.parametrize("bad,error,match", [
    (4, ActionError, "out of range 0..3"),
    (-1, ActionError, "out of range"),
    ("up", ActionError, "integers in 0..3"),
    (1.5, ActionError, "integers in 0..3"),
    (True, ActionError, "integers"),
])
def test_bad_actions(bad, error, match):
    env = gym.make("SVoT/Maze-5x5-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(error, match=match):
        env.step(bad)


def test_numpy_integer_actions_accepted():
    env = gym.make("SVoT/Maze-5x5-v0").unwrapped
    env.reset(seed=0)
    env.step(np.int64(1))
    env.step(np.array(2))


def test_bad_reset_options(tmp_path):
    env = gym.make("SVoT/Maze-5x5-v0").unwrapped
    with pytest.raises(ConfigError, match="unknown reset option.*'level'"):
        env.reset(options={"level": 3})
    with pytest.raises(ProblemError, match="does not exist"):
        env.reset(options={"problem": str(tmp_path / "missing.pddl")})
    bad = tmp_path / "bad.pddl"
    bad.write_text("(define (problem p) (:domain maze)\n (:objects c_0_0 - cell)\n (:init (at c_0_0)\n (:goal (at c_0_0)))")
    with pytest.raises(PDDLError, match=r"bad.pddl:1: unbalanced"):
        env.reset(options={"problem": bad})
    other = gym.make("SVoT/Sokoban-5x5-v0").unwrapped
    other.reset(seed=0)
    with pytest.raises(PDDLError, match="problem is for domain 'sokoban', not 'maze'"):
        env.reset(options={"problem": other.problem.to_pddl()})
    small = gym.make("SVoT/Maze-6x6-v0").unwrapped
    small.reset(seed=0)
    with pytest.raises(ProblemError, match="is 6x6, but this env is 5x5"):
        env.reset(options={"problem": small.problem.to_pddl()})


def test_bad_constructor_arguments():
    with pytest.raises(ConfigError, match="unknown split"):
        MazeEnv(size=5, split="hard")
    with pytest.raises(ConfigError, match="unknown engine"):
        MazeEnv(size=5, engine="fast")
    with pytest.raises(ConfigError, match="unknown render_mode"):
        MazeEnv(size=5, render_mode="video")


def test_problem_pool_draws_from_seeded_pool():
    a = gym.make("SVoT/FrozenLake-4x4-v0", pool_size=8).unwrapped
    b = gym.make("SVoT/FrozenLake-4x4-v0", pool_size=8).unwrapped
    names = set()
    a.reset(seed=7)
    b.reset(seed=7)
    for _ in range(40):
        _, ia = a.reset()
        _, ib = b.reset()
        assert ia == ib and a.problem == b.problem
        names.add(a.problem.name)
        assert a.plan is not None
    assert 2 <= len(names) <= 8  # draws repeat: they come from the 8-problem pool
    from svot.envs.pool import generated_pool

    assert names <= {g.problem.name for g in generated_pool(get_domain("frozenlake"), 4, "id", 7, 8)}
    # a pooled episode plays exactly like the same problem given explicitly
    c = gym.make("SVoT/FrozenLake-4x4-v0").unwrapped
    _, ic = c.reset(options={"problem": a.problem})
    _, ia = a.reset(seed=7)
    c.reset(options={"problem": a.problem})
    for act in a.plan:
        ra, rc = a.step(act), c.step(act)
        assert ra[1:] == rc[1:]
    with pytest.raises(ConfigError, match="pool_size"):
        MazeEnv(size=5, pool_size=0)
