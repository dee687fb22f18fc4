"""Functional SVoT environments on JAX: ``state, timestep = env.reset(key)``; ``env.step(state, action)``.

In the style of Jumanji and gymnax: the state is a pytree separate from the
observation, and ``reset``/``step`` are pure functions of their arguments, so
``jax.jit``, ``jax.vmap`` and ``jax.lax.scan`` take them; one env's functions
are batched with ``jax.vmap``. The env object holds only constants: the
compiled tables of the numpy vector engine and a problem pool on device.

**Problems.** ``make(id, pool_size=K, seed=s)`` draws the same pool as
``gymnasium.make_vec(id, pool_size=K)`` reset with seed ``s`` (problem ``j`` is
the ``j``-th draw of :func:`svot.problem_gen.generate` from that seed) and
encodes it once; a reset picks a problem of the pool with its key, an autoreset
inside ``step`` with a counter hash the reset key seeded, so neither leaves ``jit``.
:meth:`SVoTJaxEnv.reset_to` and :meth:`SVoTJaxEnv.step_to` take the problem index
instead of a key: driving them with the numpy env's own choices replays its
trajectories exactly (this is how ``tests/jax`` compares the two backends).

**Autoreset** (``autoreset_mode``), as the numpy vector env's modes:
``"NextStep"`` (default, Gymnasium's): the step after an episode ends loads a
fresh problem and returns its first observation with reward 0,
``terminated=truncated=False`` and ``applicable=True`` (the action is ignored);
``"SameStep"``: the terminal step itself loads the fresh problem, returns its
observation, and the terminal one in ``timestep.extras["final_observation"]``;
``"Disabled"``: an ended env stays as it is until you call ``reset``.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from svot.envs.observation import spec_observation
from svot.errors import ConfigError
from svot.jax.render import AtlasRenderer
from svot.jax.kernel import DeviceTables, all_set, apply_first, device_tables, make_chain_step, settle, unpack_rows
from svot.jax.tables import HostTables, host_tables

log = logging.getLogger(__name__)
AUTORESET_MODES = ("NextStep", "SameStep", "Disabled")


class State(NamedTuple):
    """One env's state: its engine row and pivot code, the pool problem it plays, steps taken, its draws."""

    rows: jax.Array  # (width/8,) uint8: the numpy engine's row, column c as bit c % 8 of byte c // 8
    code: jax.Array  # int32 pivot code
    problem: jax.Array  # int32 index into the pool
    elapsed: jax.Array  # int32 steps since the reset
    needs_reset: jax.Array  # bool: NextStep mode resets on the next step
    rng: jax.Array  # uint32 counter of the autoreset draws (see SVoTJaxEnv.step)


class TimeStep(NamedTuple):
    observation: jax.Array  # (N, N) bit-flag grid (bit i = spec.kinds[i]); (H, W, 3) uint8 with observation="rgb"
    reward: jax.Array  # float32: 1.0 on reaching the goal
    terminated: jax.Array  # bool: goal or failure
    truncated: jax.Array  # bool: max_episode_steps reached
    discount: jax.Array  # float32: 0.0 when terminated, else 1.0
    is_success: jax.Array  # bool: the goal holds
    applicable: jax.Array  # bool: the action changed the state (the numpy env's info["applicable"])
    extras: dict  # SameStep mode: {"final_observation": ...}


def draw(x: jax.Array) -> jax.Array:
    """A 32-bit integer hash (murmur3's finaliser): well-mixed bits from a counter."""
    x = x ^ (x >> 16)
    x = x * jnp.uint32(0x85EBCA6B)
    x = x ^ (x >> 13)
    x = x * jnp.uint32(0xC2B2AE35)
    return x ^ (x >> 16)


class SVoTJaxEnv:
    """One SVoT env as pure JAX functions (see the module docstring); build it with :func:`svot.jax.make`."""

    def __init__(self, host: HostTables, autoreset_mode: str = "NextStep", observation: str = "grid",
                 image_size: int = 64):
        if autoreset_mode not in AUTORESET_MODES:
            raise ConfigError(f"unknown autoreset_mode {autoreset_mode!r}; choose one of {', '.join(AUTORESET_MODES)}")
        if observation not in ("grid", "rgb"):
            raise ConfigError(f"unknown observation {observation!r}; choose 'grid' (bit flags) or 'rgb'")
        self.host = host
        self.id = host.env_id
        self.size = host.size
        self.num_actions = host.n_actions
        self.pool_size = len(host.pool)
        self.max_episode_steps = host.max_episode_steps
        self.autoreset_mode = autoreset_mode
        self.observation_kind = observation
        self.obs_dtype = host.obs_dtype
        self.tables: DeviceTables = device_tables(host)
        self._dummy = host.dummy
        self._n_codes = host.n_codes
        self._chain = None
        if host.chains is not None:
            self._chain = make_chain_step(self.tables.chains, host.chains.steps, host.chain_width)
        N = host.size
        if host.obs_fallback:
            log.warning("%s: observations computed per env by the spec on the host (slow), as the numpy env does: "
                        "the predicate-name map disagrees with spec.cell_kinds", self.id)
        self.renderer = None
        if observation == "rgb":
            self.renderer = AtlasRenderer(host.dspec, N, image_size)

    def __repr__(self) -> str:
        return f"SVoTJaxEnv({self.id}, pool_size={self.pool_size}, autoreset_mode={self.autoreset_mode!r})"

    # --- observations ---------------------------------------------------------------------------
    def grid(self, state: State) -> jax.Array:
        """The bit-flag grid of ``state`` (the numpy vector env's observation)."""
        N = self.size
        if self.host.obs_fallback:
            out = jax.ShapeDtypeStruct((N, N), jnp.dtype(self.obs_dtype))
            return jax.pure_callback(self._spec_grids, out, state.rows, vmap_method="expand_dims")
        # slot i of a cell is bit i of its observation: the packed row's first bytes are the grid
        if self.host.slots == 8:
            obs = state.rows[: N * N].reshape(N, N)
        else:  # uint16 grids: two bytes per cell, low byte first
            obs = jax.lax.bitcast_convert_type(state.rows[: 2 * N * N].reshape(N, N, 2), jnp.uint16)
        if self.tables.static_obs is not None:
            obs = obs | self.tables.static_obs[state.problem]
        return obs

    def _spec_grids(self, rows: np.ndarray) -> np.ndarray:
        """The spec's own grids of state rows of any leading shape (on the host: the slow path)."""
        h, N = self.host, self.size
        flat = unpack_rows(np.asarray(rows).reshape(-1, rows.shape[-1]))
        out = [spec_observation(h.dspec, h.dspec.state_dict(h.engine.true_atoms(r), N), N) for r in flat]
        return np.stack(out).reshape(rows.shape[:-1] + (N, N)) if out else np.zeros(rows.shape[:-1] + (N, N), self.obs_dtype)

    def observe(self, state: State) -> jax.Array:
        grid = self.grid(state)
        return grid if self.renderer is None else self.renderer.render(grid)

    def is_goal(self, state: State) -> jax.Array:
        t = self.tables
        goal = all_set(state.rows, t.pool_goal[state.problem])
        return goal & t.pool_goal_static[state.problem]

    def is_failure(self, state: State) -> jax.Array:
        if self.tables.fail is None:
            return jnp.bool_(False)
        return self.tables.fail[state.problem * self._n_codes + state.code]

    # --- reset ---------------------------------------------------------------------------------
    def _load(self, problem, rng) -> State:
        t = self.tables
        problem = jnp.asarray(problem, jnp.int32)
        return State(rows=t.pool_init[problem], code=t.pool_code[problem], problem=problem,
                     elapsed=jnp.int32(0), needs_reset=jnp.bool_(False), rng=rng)

    def _first_timestep(self, state: State) -> TimeStep:
        extras = {"final_observation": self.observe(state)} if self.autoreset_mode == "SameStep" else {}
        return TimeStep(observation=self.observe(state), reward=jnp.float32(0), terminated=jnp.bool_(False),
                        truncated=jnp.bool_(False), discount=jnp.float32(1), is_success=self.is_goal(state),
                        applicable=jnp.bool_(True), extras=extras)

    def reset(self, key: jax.Array) -> tuple[State, TimeStep]:
        """A problem drawn from the pool with ``key``, which also seeds the state's autoreset draws."""
        key, sub = jax.random.split(key)
        return self.reset_to(key, jax.random.randint(sub, (), 0, self.pool_size, jnp.int32))

    def reset_to(self, key: jax.Array, problem) -> tuple[State, TimeStep]:
        """Pool problem ``problem`` (an int index) in its initial state; ``key`` seeds the autoreset draws."""
        state = self._load(problem, jax.random.bits(key, (), jnp.uint32))
        return state, self._first_timestep(state)

    # --- step ----------------------------------------------------------------------------------
    def transition(self, state: State, action) -> tuple[State, jax.Array]:
        """The engine step alone: the action's ground action (if one applies) and its internal chain."""
        t = self.tables
        tix = t.act_rows[action] * self._n_codes + state.code
        if self._chain is not None:
            rows, code, applied = self._chain(state.rows, tix)
        else:
            chosen, rows, code = apply_first(t, state.rows, state.code, t.table[:, tix], self._dummy)
            applied = chosen != self._dummy
            if t.internal_table is not None:
                rows, code = settle(t, rows, code, applied, self.host.settle_limit, self._dummy)
        return state._replace(rows=rows, code=code), applied

    def step(self, state: State, action) -> tuple[State, TimeStep]:
        """One step; an autoreset loads pool problem ``hash(rng) % pool_size`` (see :func:`draw`).

        The draw is a counter hash, not a ``jax.random`` split: a key split per env and
        step cost more than the step itself on a CPU, and is computed whether or not
        the env resets (``vmap`` evaluates both sides of a select).
        """
        rng = state.rng + jnp.uint32(0x9E3779B9)  # a Weyl sequence, hashed below
        fresh = (draw(rng) % jnp.uint32(self.pool_size)).astype(jnp.int32)
        return self.step_to(state._replace(rng=rng), action, fresh)

    def step_to(self, state: State, action, fresh_problem) -> tuple[State, TimeStep]:
        """:meth:`step`, with the problem an autoreset would load given (an int index into the pool)."""
        nxt, applied = self.transition(state, action)
        goal = self.is_goal(nxt)
        terminated = goal | self.is_failure(nxt)
        elapsed = state.elapsed + 1
        truncated = jnp.bool_(False) if self.max_episode_steps is None else elapsed >= self.max_episode_steps
        reward = goal.astype(jnp.float32)
        nxt = nxt._replace(elapsed=elapsed)
        mode = self.autoreset_mode
        extras: dict = {}
        if mode == "NextStep":
            fresh = self._load(fresh_problem, nxt.rng)
            again = state.needs_reset
            nxt = jax.tree.map(lambda a, b: jnp.where(again, a, b), fresh, nxt)
            terminated = terminated & ~again
            truncated = truncated & ~again
            reward = jnp.where(again, jnp.float32(0), reward)
            applied = applied | again
            goal = goal & ~again
            nxt = nxt._replace(needs_reset=terminated | truncated)
            obs = self.observe(nxt)
        elif mode == "SameStep":
            final = self.observe(nxt)
            done = terminated | truncated
            fresh = self._load(fresh_problem, nxt.rng)
            nxt = jax.tree.map(lambda a, b: jnp.where(done, a, b), fresh, nxt)
            applied = applied | done
            obs = jnp.where(done, self.observe(nxt), final)
            extras = {"final_observation": final}
        else:
            obs = self.observe(nxt)
        ts = TimeStep(observation=obs, reward=reward, terminated=terminated, truncated=truncated,
                      discount=jnp.where(terminated, jnp.float32(0), jnp.float32(1)), is_success=goal,
                      applicable=applied, extras=extras)
        return nxt, ts

    # --- reading states back (host side) -------------------------------------------------------
    def atoms(self, state: State) -> list[str]:
        """Sorted ground-atom strings of one (unbatched) state, as the numpy env's ``atoms(i)``."""
        return self.host.engine.atom_strings(unpack_rows(state.rows))

    def problem(self, state: State):
        """The :class:`~svot.pddl.Problem` one (unbatched) state plays."""
        return self.host.pool[int(state.problem)]


def make(env_id: str, pool_size: int = 1024, seed: int = 0, *, autoreset_mode: str = "NextStep",
         observation: str = "grid", image_size: int = 64, problems=None,
         max_episode_steps: int | None | str = "registered") -> SVoTJaxEnv:
    """A functional JAX env for a registered SVoT id (``gymnasium.make_vec``'s tables and pool).

    ``pool_size`` problems drawn from ``seed`` (or the fixed ``problems``, Problems or PDDL
    texts); ``observation="rgb"`` renders ``image_size`` frames from the tile atlas on device;
    ``max_episode_steps`` defaults to the registration's (4·N²), None for no truncation.
    """
    host = host_tables(env_id, pool_size=pool_size, seed=seed, problems=problems, max_episode_steps=max_episode_steps)
    return SVoTJaxEnv(host, autoreset_mode=autoreset_mode, observation=observation, image_size=image_size)
