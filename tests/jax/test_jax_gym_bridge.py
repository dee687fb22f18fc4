"""svot.jax behind Gymnasium: the vector env through gymnasium.make_vec, and Gymnasium's own FunctionalJaxEnv."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax", reason="the JAX backend needs the 'jax' extra (pip install svot[jax])")

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.envs.functional_jax_env import FunctionalJaxEnv  # noqa: E402

import svot.jax  # noqa: E402
from svot.errors import ActionError  # noqa: E402


def test_make_vec_runs_episodes_from_the_pool():
    venv = gym.make_vec(svot.jax.vector_spec("SVoT/FrozenLake-4x4-v0"), num_envs=16, pool_size=32)
    assert isinstance(venv, svot.jax.JaxVectorEnv)
    numpy_venv = gym.make_vec("SVoT/FrozenLake-4x4-v0", num_envs=16, pool_size=32)
    assert venv.single_observation_space == numpy_venv.single_observation_space
    assert venv.single_action_space == numpy_venv.single_action_space
    obs, _ = venv.reset(seed=0)
    numpy_venv.reset(seed=0)
    assert venv.env.host.pool == numpy_venv.pool  # reset(seed) draws the numpy env's pool
    starts = {bytes(g) for g in np.asarray(venv.env.tables.pool_init)[:, :16]}  # first observations, packed
    rng = np.random.default_rng(0)
    ended = wins = 0
    after_end = np.zeros(16, bool)
    for _ in range(300):
        obs, rew, term, trunc, info = venv.step(rng.integers(4, size=16))
        assert obs.shape == (16, 4, 4) and obs in venv.observation_space
        for i in np.flatnonzero(after_end):  # NextStep: the step after an end shows a pool problem's start
            assert bytes(obs[i].reshape(-1)) in starts and rew[i] == 0 and not term[i]
        assert set(np.unique(rew)) <= {0.0, 1.0} and not (rew.astype(bool) & ~term).any()
        after_end = term | trunc
        ended += int(after_end.sum())
        wins += int(rew.sum())
    assert ended > 16 and wins > 0 and ended > wins  # FrozenLake ends in holes too
    with pytest.raises(ActionError):
        venv.step(np.full(16, 4))


def test_gymnasium_functional_jax_env_plays_it():
    env = FunctionalJaxEnv(svot.jax.SVoTFuncEnv("SVoT/Maze-5x5-v0", pool_size=8))
    obs, _ = env.reset(seed=0)
    assert obs.shape == (5, 5)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        obs, rew, term, trunc, _ = env.step(int(rng.integers(4)))
        if term:
            assert float(rew) == 1.0  # a maze ends only at its goal
            break
        assert float(rew) == 0.0
    else:
        pytest.fail("a random walk never reached a 5x5 maze's goal in 2000 steps")
