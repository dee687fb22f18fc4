"""The single env's fast path (shared grounding, faster reads) gives exactly what the per-problem engine gave."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import svot  # noqa: F401
from svot.engine import make_engine
from svot.engine.grounded import SharedGroundedEngine

IDS = ["SVoT/Maze-6x6-v0", "SVoT/FrozenLake-5x5-OOD-v0", "SVoT/Sokoban-6x6-v0", "SVoT/Pacman-5x5-v0", "SVoT/Gather-6x6-OOD-v0",
       "SVoT/RegularMaze-4x4-v0", "SVoT/QuestMaze-4x4-OOD-v0"]


def _per_problem_engine(env):
    u = env.unwrapped
    u._make_engine = lambda problem: make_engine(u.engine_kind, u.pddl_domain, problem, u.dspec.internal)
    return env


@pytest.mark.parametrize("env_id", IDS)
def test_single_env_identical_with_per_problem_engine(env_id):
    fast = gym.make(env_id)
    slow = _per_problem_engine(gym.make(env_id))
    a = fast.reset(seed=5)
    b = slow.reset(seed=5)
    assert isinstance(fast.unwrapped.engine, SharedGroundedEngine)
    assert not isinstance(slow.unwrapped.engine, SharedGroundedEngine)
    rng = np.random.default_rng(0)
    n = fast.action_space.n
    for t in range(400):
        if t % 3 == 0:
            action = int(rng.integers(n))
        else:
            action = np.int64(rng.integers(n))  # the non-int path of step() too
        a = fast.step(action)
        b = slow.step(action)
        assert np.array_equal(a[0], b[0])
        assert a[1:4] == b[1:4]
        assert a[4] == b[4]
        if a[2] or a[3]:
            a = fast.reset()
            b = slow.reset()
            assert np.array_equal(a[0], b[0]) and a[1] == b[1]
