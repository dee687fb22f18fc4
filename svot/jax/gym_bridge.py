"""Gymnasium over the JAX backend: a ``VectorEnv`` with numpy in and out, and a ``FuncEnv``.

* :class:`JaxVectorEnv`: ``svot.jax.make_vec(id, num_envs=N)``, or through Gymnasium,
  ``gymnasium.make_vec(svot.jax.vector_spec(id), num_envs=N)`` (the id's spec with this
  class as its vector entry point). Same spaces, rewards, ends, autoreset modes and
  ``info["applicable"]`` as the numpy vector env; one jitted ``vmap`` step per call, the
  arrays copied back to numpy. ``reset(seed=s)`` draws the pool from ``s`` as the numpy
  env does (a new seed: a new pool, so a recompile); which pool problem each env gets
  is drawn with JAX keys, so trajectories are the numpy env's only when driven through
  :meth:`~svot.jax.env.SVoTJaxEnv.reset_to`/``step_to`` with its choices.
* :class:`SVoTFuncEnv`: Gymnasium's functional API (``gymnasium.experimental.functional.FuncEnv``:
  ``initial``, ``transition``, ``observation``, ``reward``, ``terminal``) over the same
  functions, without autoreset (Gymnasium's wrappers do that part).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import gymnasium as gym
import jax
import jax.numpy as jnp
import numpy as np
from gymnasium import spaces
from gymnasium.experimental.functional import FuncEnv
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from svot.errors import ActionError, ConfigError
from svot.jax.env import SVoTJaxEnv, State, make


class JaxVectorEnv(VectorEnv):
    """``num_envs`` SVoT envs stepped by the JAX backend, behind Gymnasium's ``VectorEnv`` interface."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, *, env_id: str, pool_size: int | None = None,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP, max_episode_steps="registered",
                 **make_kwargs):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive int, got {num_envs!r}")
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ConfigError(f"unknown autoreset_mode {autoreset_mode!r}") from None
        self.num_envs = int(num_envs)
        self.env_id = env_id
        self.pool_size = int(pool_size) if pool_size is not None else min(1024, max(64, 2 * self.num_envs))
        self._make_kwargs = dict(make_kwargs, max_episode_steps=max_episode_steps)
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        self.env: SVoTJaxEnv | None = None
        self.pool_seed: int | None = None
        self._build(0)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n_kinds, N = self.env.host.n_kinds, self.env.size
        self.single_observation_space = spaces.Box(0, (1 << n_kinds) - 1, (N, N), self.env.obs_dtype)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._state: State | None = None

    def _build(self, seed: int) -> None:
        if self.env is not None and seed == self.pool_seed:
            return
        self.env = make(self.env_id, pool_size=self.pool_size, seed=seed, autoreset_mode=self.autoreset_mode.value,
                        **self._make_kwargs)
        self.pool_seed = seed
        self._reset = jax.jit(jax.vmap(self.env.reset))
        self._step = jax.jit(jax.vmap(self.env.step))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if options:
            raise ConfigError(f"JaxVectorEnv.reset takes no options, got {sorted(options)}")
        super().reset(seed=seed)
        if seed is not None:
            self._build(int(seed))
        key = jax.random.PRNGKey(int(self.np_random.integers(2**31 - 1)))
        self._state, ts = self._reset(jax.random.split(key, self.num_envs))
        return np.asarray(ts.observation), {"applicable": np.ones(self.num_envs, bool),
                                            "_applicable": np.ones(self.num_envs, bool)}

    def step(self, actions):
        if self._state is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        a = np.asarray(actions)
        n = self.single_action_space.n
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu" or (a.size and (a.min() < 0 or a.max() >= n)):
            raise ActionError(f"{self.env_id} takes an integer array of shape ({self.num_envs},) in 0..{n - 1}")
        self._state, ts = self._step(self._state, jnp.asarray(a, jnp.int32))
        term, trunc = np.asarray(ts.terminated), np.asarray(ts.truncated)
        info = {"applicable": np.asarray(ts.applicable), "_applicable": np.ones(self.num_envs, bool)}
        if self.autoreset_mode is AutoresetMode.SAME_STEP and (term | trunc).any():
            done = term | trunc
            final = np.asarray(ts.extras["final_observation"])
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(done):
                final_obs[i] = final[i]
            info.update(final_obs=final_obs, _final_obs=done, final_info={}, _final_info=done)
        return (np.asarray(ts.observation), np.asarray(ts.reward, np.float64), term, trunc, info)

    def __repr__(self) -> str:
        return f"JaxVectorEnv({self.env_id}, num_envs={self.num_envs})"


def make_vec(env_id: str, num_envs: int = 1, **kwargs) -> JaxVectorEnv:
    """A Gymnasium vector env of ``env_id`` on the JAX backend (see :class:`JaxVectorEnv`)."""
    return JaxVectorEnv(num_envs, env_id=env_id, **kwargs)


def vector_spec(env_id: str) -> gym.envs.registration.EnvSpec:
    """``env_id``'s Gymnasium spec with :class:`JaxVectorEnv` as its vector entry point (for ``gymnasium.make_vec``)."""
    spec = gym.spec(env_id)

    def entry(num_envs: int = 1, **kwargs):
        kwargs.pop("size", None), kwargs.pop("split", None)  # the id fixes them
        return JaxVectorEnv(num_envs, env_id=env_id, **kwargs)

    return dataclasses.replace(spec, vector_entry_point=entry)


class SVoTFuncEnv(FuncEnv):
    """Gymnasium's functional API over one :class:`~svot.jax.env.SVoTJaxEnv` (no autoreset)."""

    def __init__(self, env_id: str, pool_size: int = 1024, seed: int = 0, **kwargs):
        self.env = make(env_id, pool_size=pool_size, seed=seed, autoreset_mode="Disabled",
                        max_episode_steps=None, **kwargs)
        super().__init__()
        N = self.env.size
        self.observation_space = spaces.Box(0, (1 << self.env.host.n_kinds) - 1, (N, N), self.env.obs_dtype)
        self.action_space = spaces.Discrete(self.env.num_actions)

    def initial(self, rng, params=None) -> State:
        return self.env.reset(rng)[0]

    def transition(self, state: State, action, rng=None, params=None) -> State:
        return self.env.transition(state, action)[0]._replace(elapsed=state.elapsed + 1)

    def observation(self, state: State, rng=None, params=None):
        return self.env.observe(state)

    def reward(self, state: State, action, next_state: State, rng=None, params=None):
        return self.env.is_goal(next_state).astype(jnp.float32)

    def terminal(self, state: State, rng=None, params=None):
        return self.env.is_goal(state) | self.env.is_failure(state)

    def state_info(self, state: State, params=None) -> dict:
        return {}

    def transition_info(self, state: State, action, next_state: State, params=None) -> dict:
        return {}
