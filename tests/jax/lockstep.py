"""Run the JAX backend and the numpy vector env side by side, step by step, and compare everything.

Both sides play the same pool (``svot.jax.make(id, pool_size=K, seed=s)`` draws the
pool ``gym.make_vec(id, pool_size=K).reset(seed=s)`` draws). Which pool problem a
reset loads is the one choice each side makes with its own random generator
(numpy's ``np_random``, JAX's keys), so the JAX side is driven from the numpy
side's choices: ``reset_to`` with the problems the numpy env loaded, and
``step_to`` with the problem each numpy env holds after the step (used by the
JAX side only where it autoresets, which must be exactly where numpy did: the
compared rows and observations say so).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import svot.jax
from svot.jax.kernel import unpack_rows
from svot.jax.tables import numpy_vector_env


def lockstep(env_id: str, num_envs: int, steps: int, seed: int = 0, pool_size: int = 64,
             autoreset_mode: str = "NextStep", action_seed: int = 1) -> dict:
    """Random actions on both backends; asserts equality at every step; returns counts for the report."""
    venv = numpy_vector_env(env_id, pool_size, num_envs=num_envs, autoreset_mode=autoreset_mode)
    obs_np, _ = venv.reset(seed=seed)
    env = svot.jax.make(env_id, pool_size=pool_size, seed=seed, autoreset_mode=autoreset_mode)
    assert env.host.pool == venv.pool, "the two backends drew different pools"
    reset_to = jax.jit(jax.vmap(env.reset_to))
    step_to = jax.jit(jax.vmap(env.step_to))
    keys = jax.random.split(jax.random.PRNGKey(seed), num_envs)
    state, ts = reset_to(keys, jnp.asarray(venv._state.problem, jnp.int32))
    _compare(venv, state, ts.observation, obs_np, "reset")
    rng = np.random.default_rng(action_seed)
    counts = {"steps": 0, "episodes": 0, "successes": 0, "applied": 0}
    for t in range(steps):
        actions = rng.integers(venv.single_action_space.n, size=num_envs)
        obs_np, rew, term, trunc, info = venv.step(actions)
        state, ts = step_to(state, jnp.asarray(actions, jnp.int32), jnp.asarray(venv._state.problem, jnp.int32))
        where = f"step {t + 1}"
        _compare(venv, state, ts.observation, obs_np, where)
        np.testing.assert_array_equal(np.asarray(ts.reward), rew.astype(np.float32), err_msg=f"reward, {where}")
        np.testing.assert_array_equal(np.asarray(ts.terminated), term, err_msg=f"terminated, {where}")
        np.testing.assert_array_equal(np.asarray(ts.truncated), trunc, err_msg=f"truncated, {where}")
        np.testing.assert_array_equal(np.asarray(ts.applicable), info["applicable"], err_msg=f"applicable, {where}")
        np.testing.assert_array_equal(np.asarray(ts.is_success), rew > 0, err_msg=f"is_success, {where}")
        np.testing.assert_array_equal(np.asarray(ts.discount), np.where(term, 0, 1).astype(np.float32))
        if autoreset_mode == "SameStep" and "final_obs" in info:
            done = info["_final_obs"]
            final = np.asarray(ts.extras["final_observation"])
            for i in np.flatnonzero(done):
                np.testing.assert_array_equal(final[i], info["final_obs"][i], err_msg=f"final obs {i}, {where}")
        counts["steps"] += num_envs
        counts["episodes"] += int((term | trunc).sum())
        counts["successes"] += int((rew > 0).sum())
        counts["applied"] += int(info["applicable"].sum())
    venv.close()
    return counts


def _compare(venv, state, obs_jax, obs_np, where: str) -> None:
    st = venv._state
    np.testing.assert_array_equal(np.asarray(state.problem), st.problem, err_msg=f"problem, {where}")
    np.testing.assert_array_equal(unpack_rows(state.rows), st.rows, err_msg=f"state rows, {where}")
    np.testing.assert_array_equal(np.asarray(state.code), st.code, err_msg=f"pivot code, {where}")
    assert np.asarray(obs_jax).dtype == obs_np.dtype
    np.testing.assert_array_equal(np.asarray(obs_jax), obs_np, err_msg=f"observation, {where}")
