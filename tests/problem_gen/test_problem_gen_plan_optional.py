"""generate(..., plan=False): the same problems and random draws, the plan left to solve().

The env draws its problems this way and computes ``env.plan`` only when read;
both must agree with the planned generator.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import svot  # noqa: F401  (registers the ids)
from svot.engine import make_engine
from svot.domains import generate, solve

CASES = [(d, n, split) for d in ("maze", "frozenlake", "pacman", "gather") for n in (4, 6) for split in ("id", "ood")]
CASES = [c for c in CASES if not (c[0] == "maze" and c[1] == 4)] + [("maze", 5, "id"), ("sokoban", 6, "ood"), ("sokoban", 5, "id")]


@pytest.mark.parametrize("domain,size,split", CASES)
def test_plan_false_draws_the_same_problems(domain, size, split):
    planned_rng, lazy_rng = np.random.default_rng(7), np.random.default_rng(7)
    for _ in range(3):
        planned = generate(domain, size, split, planned_rng)
        lazy = generate(domain, size, split, lazy_rng, plan=False)
        assert lazy.problem.to_pddl() == planned.problem.to_pddl()
        assert lazy.state == planned.state and lazy.params == planned.params
        assert lazy.plan is None or lazy.plan == planned.plan  # maze always plans
        assert solve(domain, lazy.problem) == planned.plan
    assert planned_rng.integers(1 << 62) == lazy_rng.integers(1 << 62)  # the same number of draws


@pytest.mark.parametrize(
    "env_id", ["SVoT/FrozenLake-5x5-v0", "SVoT/Pacman-5x5-v0", "SVoT/Gather-5x5-OOD-v0", "SVoT/Maze-6x6-v0", "SVoT/Sokoban-5x5-v0"]
)
def test_env_plan_is_computed_on_read_and_reaches_the_goal(env_id):
    env = gym.make(env_id)
    env.reset(seed=4)
    for _ in range(3):
        env.reset()
        u = env.unwrapped
        plan = u.plan
        assert plan is u.plan and len(plan) >= 1
        engine = make_engine("grounded", u.pddl_domain, u.problem, u.dspec.internal)
        state = engine.initial()
        for a in plan:
            state, applied = engine.step(state, u._keys[a])
            assert applied
        assert engine.is_goal(state)
