"""Issue 13, class 7: stepping past the end follows Gymnasium; every env pickles and continues.

Gymnasium's own convention (``CartPole-v1``, ``gymnasium/envs/classic_control/cartpole.py``,
``steps_beyond_terminated``): a ``step()`` after ``terminated=True`` logs
"You are calling 'step()' even though this environment has already returned
terminated = True" once and pays reward 0 from then on.
"""

from __future__ import annotations

import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest

from svot.rulemaze.pool import generate_maze

SVOT_IDS = ["SVoT/Maze-5x5-v0", "SVoT/FrozenLake-4x4-v0", "SVoT/Sokoban-4x4-v0", "SVoT/Pacman-4x4-v0", "SVoT/Gather-4x4-v0"]
RULEMAZE_IDS = ["RuleMaze/RegularMaze-3x3-v0", "RuleMaze/QuestMaze-3x3-v0"]


def _run_to_the_end(env, seed: int = 0) -> None:
    """Reset, then follow the plan (SVoT) or the ground truth (RuleMaze) until terminated."""
    env.reset(seed=seed)
    if hasattr(env, "plan"):
        actions = list(env.plan)
    else:
        from svot.rulemaze import symbols as S

        actions = [S.DIRECTIONS.index(d) for d in env.ground_truth]
    terminated = False
    for a in actions:
        _, _, terminated, _, _ = env.step(a)
    assert terminated, "the plan should end the episode"


@pytest.mark.parametrize("eid", SVOT_IDS + RULEMAZE_IDS)
def test_steps_after_termination_pay_nothing_and_warn_once(eid):
    env = gym.make(eid).unwrapped
    _run_to_the_end(env)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [env.step(a % env.action_space.n) for a in range(8)]
    assert all(r[1] == 0.0 for r in results), [r[1] for r in results]
    assert all(r[2] is True for r in results)
    msgs = [str(w.message) for w in caught if "already returned terminated = True" in str(w.message)]
    assert len(msgs) == 1, msgs
    env.reset(seed=1)  # a new episode starts clean: its first steps are not "after the end"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(0)
    assert not [w for w in caught if "already returned terminated" in str(w.message)]


def test_the_env_docstrings_state_the_convention():
    from svot.envs.base import SVoTEnv
    from svot.rulemaze.env import RuleMazeEnv

    import svot.envs.base as base

    assert "reward 0.0" in base.__doc__ and "terminated" in base.__doc__
    assert "Gymnasium's convention" in RuleMazeEnv.__doc__
    assert SVoTEnv.step is not None


def _trajectory(env, actions):
    out = []
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        out.append((obs.tobytes() if isinstance(obs, np.ndarray) else obs, r, term, trunc, repr(sorted(info.items()))))
    return out


_REF = pytest.mark.pddlgym  # the reference engine: skipped with the reason where PDDLGym is not installed
ENGINES = [pytest.param(eid, "pddlgym", marks=_REF) for eid in SVOT_IDS] + [
    pytest.param(eid, kind, marks=_REF if kind == "pddlgym" else ()) for eid in RULEMAZE_IDS for kind in ("grounded", "pddlgym")
]


@pytest.mark.parametrize("eid,engine", ENGINES)
def test_every_env_pickles_and_continues_identically(eid, engine):
    env = gym.make(eid, engine=engine).unwrapped
    if eid.startswith("RuleMaze"):
        maze = generate_maze(eid.split("/")[1].split("-")[0], 3, np.random.default_rng(5), layout=env.layout)
        env.reset(seed=5, options={"maze": maze})
    else:
        env.reset(seed=5)
    rng = np.random.default_rng(0)
    _trajectory(env, [int(a) for a in rng.integers(env.action_space.n, size=3)])
    copy = pickle.loads(pickle.dumps(env))
    rest = [int(a) for a in rng.integers(env.action_space.n, size=25)]
    assert _trajectory(copy, rest) == _trajectory(env, rest)
    copy.reset(seed=9)
    env.reset(seed=9)
    assert _trajectory(copy, rest) == _trajectory(env, rest)


def test_a_compiled_rule_pickles():
    from svot.rulemaze.rules import compile_rule
    from svot.rulemaze.trajectory import Trajectory

    v = compile_rule('Zone(t, "blue") -> Move(t, "right")')
    w = pickle.loads(pickle.dumps(v))
    traj = Trajectory(("white", "blue", "white"), ("up", "right"))
    assert w.text == v.text and w.check(traj) == v.check(traj) and w.violations(traj) == v.violations(traj)
