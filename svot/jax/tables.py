"""Host side of the JAX backend: the numpy vector env's compiled tables and problem pool, as plain arrays.

Nothing here is compiled again or restated: :class:`HostTables` reads the
:class:`~svot.engine.vector.VectorEngine` that ``gymnasium.make_vec(id, ...)``
builds for a pool (its candidate, literal, write and chain tables, and the
pool's encoded initial rows and goals) and adds the two per-problem arrays the
numpy env computes lazily in Python:

* ``static_obs``: the observation bits of kinds no atom draws (a RuleMaze wall
  that is the absence of a passage), from :func:`svot.envs.observation.static_grid`;
* ``fail``: for a domain with a failure rule (``DomainSpec.is_failure``, asked in
  Python), its answer per (problem, pivot code). The numpy env caches the same
  table lazily when the pivot code determines the state (``code_covers_state``);
  here it is filled up front, since a jitted step cannot call Python. The spec is
  asked only in states where no agent action applies (failures are absorbing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import gymnasium as gym
import numpy as np

from svot.domains import env_id as env_id_of, get_domain, names
from svot.envs.observation import observation_dtype, slots_per_cell, static_grid, undrawn_kinds
from svot.envs.vector import SVoTVectorEnv
from svot.errors import ConfigError
from svot.kernel import DomainSpec


@dataclass
class HostTables:
    """Everything the jitted kernel reads, as numpy arrays (``kernel.DeviceTables`` puts them on device)."""

    env_id: str
    domain: str
    size: int
    split: str
    n_actions: int
    max_episode_steps: int | None
    obs_dtype: type
    n_kinds: int
    slots: int  # observation slots per cell (8 or 16): the first slots*N*N state columns
    width: int
    n_codes: int
    dummy: int
    act_rows: np.ndarray  # (n_actions,) table row block of each action
    table: np.ndarray  # (W, rows*n_codes) candidates, candidate-major
    lit_col: np.ndarray  # (A+1, L)
    write_col: np.ndarray  # (A+1, Z+O)
    write_val: np.ndarray  # (Z+O,) uint8
    keep: np.ndarray
    set: np.ndarray
    internal_table: np.ndarray | None  # (Wi, n_codes) or None without internal actions
    internal_possible: np.ndarray | None
    settle_limit: int
    chains: object | None  # svot.engine.vector_chain.ChainTables
    pool_init: np.ndarray  # (P, width) uint8
    pool_code: np.ndarray  # (P,)
    pool_goal_cols: np.ndarray  # (P, Gm)
    pool_goal_static: np.ndarray  # (P,) bool
    static_obs: np.ndarray | None  # (P, N, N) or None
    fail: np.ndarray | None  # (P * n_codes,) bool or None
    pool: tuple  # the Problems, for reading back (pool[i] is problem i)
    engine: object  # the numpy VectorEngine (for reading rows back as atoms)
    dspec: object
    obs_fallback: bool  # observations through the spec on the host (slow; see SVoTJaxEnv.grid)
    chain_width: int  # alternatives per chain step the kernel keeps (0 without chains)


def numpy_vector_env(env_id: str, pool_size: int, seed: int | None = None, num_envs: int = 1, **kwargs):
    """The numpy vector env of ``env_id`` (reset with ``seed``, which draws its pool, unless None).

    ``gymnasium.make_vec`` where the id has a native vector env; a domain registered
    without one (``svot.extend.register_domain`` with no ``vector_entry_point``, like the
    toy domain of the tests) gets :class:`~svot.envs.vector.SVoTVectorEnv` built directly.
    """
    registered = gym.spec(env_id)  # Gymnasium's EnvSpec of the id
    if registered.vector_entry_point is not None:
        venv = gym.make_vec(env_id, num_envs=num_envs, pool_size=pool_size, **kwargs)
    else:
        size, split = registered.kwargs["size"], registered.kwargs.get("split", "id")
        domain = next((d for d in names() if env_id_of(d, size, split) == env_id), None)
        if domain is None:
            raise ConfigError(f"{env_id} is not an SVoT id (no registered domain makes it)")
        venv = SVoTVectorEnv(num_envs, size, split, domain=get_domain(domain), pool_size=pool_size,
                             max_episode_steps=registered.max_episode_steps, **kwargs)
    if seed is not None:
        venv.reset(seed=seed)
    return venv


def host_tables(env_id: str, pool_size: int = 1024, seed: int = 0, problems: Sequence | None = None,
                max_episode_steps: int | None | str = "registered") -> HostTables:
    """Read the compiled tables and the encoded pool of ``env_id`` (pool drawn from ``seed``)."""
    venv = numpy_vector_env(env_id, pool_size, seed, problems=problems)
    eng, dspec, size = venv.engine, venv.dspec, venv.size
    pool = venv.pool
    batch = eng.encode(pool)
    n_actions = int(venv.single_action_space.n)
    act_rows = eng.key_ids([dspec.action_key(a, size) for a in range(n_actions)])
    slots = slots_per_cell(dspec)
    layout = eng.columns[: slots * size * size]
    undrawn = undrawn_kinds(dspec, size, layout)
    static_obs = None
    if undrawn:
        static_obs = np.stack([static_grid(dspec, dspec.state_dict(p.init, size), size, undrawn) for p in pool])
    if max_episode_steps == "registered":
        max_episode_steps = venv.max_episode_steps
    # the numpy env checked its bit projection against the spec's cell_kinds on pool states; where it
    # disagrees (a kind that hides another, as the toy lamps' lit lamp), both backends ask the spec per env
    obs_fallback = bool(getattr(venv, "_obs_fallback", False))
    fail = None
    if type(dspec).is_failure is not DomainSpec.is_failure:
        fail = failure_table(eng, batch, dspec, size, act_rows, env_id)
    internal = bool(eng.internal_keys)
    chain_width = 0
    if eng.chains is not None:  # the numpy engine pads a step to 8 alternatives (one word); keep those some macro uses
        ch = eng.chains
        used = (ch.lits.reshape(-1, ch.width, ch.lit_width)[:, :, 0] != eng.FALSE).any(0)
        chain_width = int(np.flatnonzero(used).max(initial=0)) + 1
    return HostTables(
        env_id=env_id, domain=dspec.name, size=size, split=venv.split, n_actions=n_actions,
        max_episode_steps=max_episode_steps, obs_dtype=observation_dtype(dspec), n_kinds=len(dspec.kinds),
        slots=slots, width=eng.width, n_codes=eng.n_codes, dummy=eng.DUMMY, act_rows=act_rows,
        table=eng.table, lit_col=eng.lit_col, write_col=eng.write_col, write_val=eng.write_val,
        keep=eng.keep, set=eng.set,
        internal_table=eng.internal_table if internal else None,
        internal_possible=eng.internal_possible if internal else None,
        settle_limit=int(eng._settle_limit), chains=eng.chains,
        pool_init=batch.init, pool_code=batch.codes, pool_goal_cols=batch.goal_cols,
        pool_goal_static=batch.goal_static, static_obs=static_obs, fail=fail, pool=tuple(pool),
        engine=eng, dspec=dspec, obs_fallback=obs_fallback, chain_width=chain_width,
    )


def failure_table(eng, batch, dspec, size: int, act_rows: np.ndarray, env_id: str) -> np.ndarray:
    """``(P * n_codes,)`` bool: is (problem, code) a failure (the spec's ``is_failure``, where nothing applies)?

    Needs the pivot code to fix every changing column (``code_covers_state``); a state
    is then its problem's initial row with the group columns set from the code.
    """
    if not eng.code_covers_state:
        raise ConfigError(f"{env_id}: its failure rule depends on more than the pivot code; the JAX backend "
                          "tabulates failures per (problem, code) and cannot run it")
    P, C = len(batch), eng.n_codes
    out = np.zeros(P * C, bool)
    codes = []
    for code in range(C):  # codes naming an atom in every group (exactly-one groups are never "none")
        vals = [(code >> s) & ((1 << max(1, len(gc).bit_length())) - 1) for s, gc in zip(eng.group_shift, eng.group_cols)]
        if all(v < len(gc) for v, gc in zip(vals, eng.group_cols)):
            codes.append((code, vals))
    M = eng.n_atoms
    agent_rows = np.arange(len(eng.agent_keys))
    for code, vals in codes:
        st = eng.new_state(P, batch)
        eng.load(st, slice(None), batch, np.arange(P))
        for gc, v in zip(eng.group_cols, vals):
            st.rows[:, gc] = 0
            st.rows[:, gc[v]] = 1
        st.rows[:, eng.COMP : eng.COMP + M] = 1 - st.rows[:, :M]
        st.code[:] = code
        dead = np.flatnonzero(~eng.applicable(st, agent_rows).any(1))
        for p in dead:
            sd = dspec.state_dict(eng.true_atoms(st.rows[p]), size)
            out[p * C + code] = bool(dspec.is_failure(sd))
    return out
