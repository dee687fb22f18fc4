"""svot.jax against the numpy vector env: same states, observations, rewards, ends and frames, step by step.

The numpy vector engine is the reference (it is itself checked against PDDLGym in
tests/envs and tests/engine); the JAX backend reads its compiled tables, so any
difference is a bug in the JAX kernel. Lockstep comparisons: ``lockstep.py``.
"""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax", reason="the JAX backend needs the 'jax' extra (pip install svot[jax])")

import gymnasium as gym  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import svot.jax  # noqa: E402
from svot.domains import registered_ids  # noqa: E402
from svot.errors import ConfigError  # noqa: E402
from svot.extend import register_domain, unregister_domain  # noqa: E402
from tests.jax.lockstep import lockstep  # noqa: E402
from tests.toy_domain.lamps import LampsGenerator, LampsSpec  # noqa: E402

# one id per domain, the smallest size: RegularMaze is the walled maze (passages per problem), OpenQuestMaze
# the open one; Gather has the compiled internal chains, FrozenLake the failure rule, Sokoban/QuestMaze pick cells
FAST_IDS = ["SVoT/Maze-5x5-v0", "SVoT/FrozenLake-4x4-v0", "SVoT/Sokoban-4x4-OOD-v0", "SVoT/Pacman-4x4-v0",
            "SVoT/Gather-4x4-v0", "SVoT/RegularMaze-3x3-v0", "SVoT/QuestMaze-3x3-v0", "SVoT/OpenQuestMaze-5x5-v0"]


@pytest.fixture(scope="module")
def lamp_ids():
    ids = register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield ids
    unregister_domain("lamps")


@pytest.mark.parametrize("env_id", FAST_IDS)
def test_lockstep_with_the_numpy_vector_env(env_id):
    counts = lockstep(env_id, num_envs=16, steps=60)
    assert counts["episodes"] > 0 and counts["applied"] > 0  # the walk ended episodes and moved


@pytest.mark.parametrize("env_id", ["SVoT/FrozenLake-4x4-v0"])
def test_same_step_autoreset_matches(env_id):
    counts = lockstep(env_id, num_envs=16, steps=60, autoreset_mode="SameStep")
    assert counts["episodes"] > 0


def test_toy_lamps_domain_runs_on_jax(lamp_ids):
    counts = lockstep(lamp_ids[0], num_envs=16, steps=60)
    assert counts["successes"] > 0


@pytest.mark.slow  # ~5 s per id (two compiles), 42 ids
@pytest.mark.parametrize("env_id", registered_ids())
def test_every_registered_id_in_lockstep(env_id):
    """2,048 envs for 60 steps per id: with the autoresets' new episodes, over 10,000 trajectories per domain
    (4 to 6 ids each), every state, observation, reward and end equal to the numpy vector env's."""
    counts = lockstep(env_id, num_envs=2048, steps=60, seed=5, pool_size=256, action_seed=7)
    assert counts["steps"] == 2048 * 60 and counts["applied"] > 0


def test_scan_and_keyed_resets_are_pure():
    """reset/step under jit(vmap) inside lax.scan: same keys, same trajectory; problems stay in the pool."""
    env = svot.jax.make("SVoT/Maze-5x5-v0", pool_size=32, seed=0)
    n = 8

    @jax.jit
    def rollout(key):
        k_reset, k_act = jax.random.split(key)
        state, ts = jax.vmap(env.reset)(jax.random.split(k_reset, n))

        def body(state, k):
            a = jax.random.randint(k, (n,), 0, env.num_actions)
            state, ts = jax.vmap(env.step)(state, a)
            return state, (ts.observation, ts.reward, state.problem)

        return jax.lax.scan(body, state, jax.random.split(k_act, 150))

    (s1, out1), (s2, out2) = rollout(jax.random.PRNGKey(4)), rollout(jax.random.PRNGKey(4))
    for a, b in zip(jax.tree.leaves(out1), jax.tree.leaves(out2)):
        np.testing.assert_array_equal(a, b)
    problems = np.asarray(out1[2])
    assert problems.min() >= 0 and problems.max() < 32
    assert len(np.unique(problems)) > n  # autoresets drew fresh problems
    assert float(out1[1].sum()) > 0


def test_disabled_autoreset_keeps_the_terminal_state():
    env = svot.jax.make("SVoT/FrozenLake-4x4-v0", pool_size=16, seed=0, autoreset_mode="Disabled")
    state, _ = env.reset(jax.random.PRNGKey(0))
    step = jax.jit(env.step)
    ended = None
    actions = np.random.default_rng(0).integers(env.num_actions, size=400)
    for t in range(400):
        state, ts = step(state, jnp.int32(actions[t]))
        if bool(ts.terminated):
            ended = state
            break
    assert ended is not None
    again, ts2 = step(ended, jnp.int32(0))
    np.testing.assert_array_equal(again.rows, ended.rows)  # absorbing: a hole or the goal
    assert bool(ts2.terminated) and int(again.problem) == int(ended.problem)


@pytest.mark.parametrize("env_id", ["SVoT/RegularMaze-3x3-v0"])  # walls from the static grid, agent and goal drawn
def test_rgb_frames_equal_the_numpy_renderer(env_id):
    env = svot.jax.make(env_id, pool_size=16, seed=0, observation="rgb", image_size=50)
    venv = gym.make_vec(env_id, num_envs=8, pool_size=16, image_size=50)
    venv.reset(seed=0)
    state, ts = jax.jit(jax.vmap(env.reset_to))(jax.random.split(jax.random.PRNGKey(0), 8),
                                                   jnp.asarray(venv._state.problem, jnp.int32))
    rng = np.random.default_rng(0)
    step_to = jax.jit(jax.vmap(env.step_to))
    for _ in range(6):
        np.testing.assert_array_equal(np.asarray(ts.observation), venv.render_batch())
        a = rng.integers(env.num_actions, size=8)
        venv.step(a)
        state, ts = step_to(state, jnp.asarray(a, jnp.int32), jnp.asarray(venv._state.problem, jnp.int32))
    assert ts.observation.shape == (8, 50, 50, 3)


def test_bad_arguments_are_refused():
    with pytest.raises(ConfigError, match="autoreset_mode"):
        svot.jax.make("SVoT/Maze-5x5-v0", pool_size=8, autoreset_mode="Sometimes")
    with pytest.raises(ConfigError, match="observation"):
        svot.jax.make("SVoT/Maze-5x5-v0", pool_size=8, observation="pixels")
