"""The jitted step of one env, read off the numpy vector engine's tables (vmap batches it).

Every function here takes one env's state row (``(width,)`` uint8, the numpy
engine's layout: atoms, FALSE, TRUE, complements) and its pivot code, and does
what :class:`~svot.engine.vector.VectorEngine` does for a batch, with the same
tables (see that module's docstring):

* :func:`apply_first`: the candidates of a cell, their literal columns gathered,
  the first whose columns are all 1 chosen (the dummy action if none), its write
  columns scattered and the code updated by ``(code & keep) | set``;
* :func:`settle`: internal literals while one applies (a bounded ``while_loop``);
* :func:`chain_step`: an agent step and its whole internal chain in one pass, from
  the compiled chains (:mod:`svot.engine.vector_chain`), where the engine has them.

The numpy engine's byte-packing tricks (pick tables, 8-byte words) are host
optimisations of the same choice; here a min over a boolean mask makes it.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from svot.jax.tables import HostTables


class Chains(NamedTuple):
    cell: jax.Array
    lits: jax.Array  # (M*S, W, L)
    cond: jax.Array  # (M*S*(W+1), C)
    cond_val: jax.Array
    cond_pad: jax.Array  # what an unwritten cond row holds (FALSE for zeros, TRUE for ones)
    det: jax.Array
    det_val: jax.Array
    code: jax.Array
    applied: jax.Array


class DeviceTables(NamedTuple):
    """The kernel's tables on device (int32 indices; a pytree, so it may be passed through jit)."""

    act_rows: jax.Array
    table: jax.Array
    lit_col: jax.Array
    write_col: jax.Array
    write_val: jax.Array
    keep: jax.Array
    set: jax.Array
    internal_table: jax.Array | None
    internal_possible: jax.Array | None
    chains: Chains | None
    pool_init: jax.Array
    pool_code: jax.Array
    pool_goal_cols: jax.Array
    pool_goal_static: jax.Array
    static_obs: jax.Array | None
    fail: jax.Array | None


def _i32(a) -> jax.Array:
    a = np.asarray(a)
    if a.size and (a.max() >= 2**31 or a.min() < -(2**31)):  # pragma: no cover - tables are far smaller
        raise OverflowError("table value outside int32")
    return jnp.asarray(a.astype(np.int32))


def device_tables(h: HostTables) -> DeviceTables:
    chains = None
    if h.chains is not None:
        ch = h.chains
        S, W, L = ch.steps, ch.width, ch.lit_width
        Cz = int((ch.cond_val == 0).sum())
        pad = np.array([h.engine.FALSE] * Cz + [h.engine.TRUE] * (len(ch.cond_val) - Cz), np.int32)
        chains = Chains(
            cell=_i32(ch.cell), lits=_i32(ch.lits.reshape(-1, W, L)), cond=_i32(ch.cond),
            cond_val=jnp.asarray(ch.cond_val, jnp.uint8), cond_pad=jnp.asarray(pad), det=_i32(ch.det),
            det_val=jnp.asarray(ch.det_val, jnp.uint8), code=_i32(ch.code), applied=jnp.asarray(ch.applied, bool),
        )
    internal = h.internal_table is not None
    return DeviceTables(
        act_rows=_i32(h.act_rows), table=_i32(h.table), lit_col=_i32(h.lit_col), write_col=_i32(h.write_col),
        write_val=jnp.asarray(h.write_val, jnp.uint8), keep=_i32(h.keep), set=_i32(h.set),
        internal_table=_i32(h.internal_table) if internal else None,
        internal_possible=jnp.asarray(h.internal_possible, bool) if internal else None,
        chains=chains, pool_init=jnp.asarray(h.pool_init, jnp.uint8), pool_code=_i32(h.pool_code),
        pool_goal_cols=_i32(h.pool_goal_cols), pool_goal_static=jnp.asarray(h.pool_goal_static, bool),
        static_obs=None if h.static_obs is None else jnp.asarray(h.static_obs),
        fail=None if h.fail is None else jnp.asarray(h.fail, bool),
    )


def apply_first(t: DeviceTables, rows, code, cand, dummy: int):
    """Apply the first candidate of ``cand`` (W,) whose literal columns are all 1; returns (chosen, rows, code)."""
    lits = t.lit_col[cand]  # (W, L)
    ok = jnp.all(rows[lits] == 1, axis=-1)
    chosen = jnp.min(jnp.where(ok, cand, dummy))
    rows = rows.at[t.write_col[chosen]].set(t.write_val, unique_indices=False)
    code = (code & t.keep[chosen]) | t.set[chosen]
    return chosen, rows, code


def settle(t: DeviceTables, rows, code, moved, limit: int, dummy: int):
    """Internal literals while one applies (``VectorEngine.settle``), at most ``limit`` passes."""

    def active(c, moved_):
        return moved_ & t.internal_possible[c]

    def cond(carry):
        _, c, go, i = carry
        return go & (i < limit)

    def body(carry):
        r, c, _, i = carry
        chosen, r, c = apply_first(t, r, c, t.internal_table[:, c], dummy)
        return r, c, active(c, chosen != dummy), i + 1

    rows, code, _, _ = jax.lax.while_loop(cond, body, (rows, code, active(code, moved), jnp.int32(0)))
    return rows, code


def make_chain_step(ch: Chains, steps: int, width: int):
    """An agent step and its internal chain from the compiled macros (``VectorEngine._step_chains``)."""
    S, W = steps, width
    s_idx = jnp.arange(S, dtype=jnp.int32)
    w_idx = jnp.arange(W, dtype=jnp.int32)

    def step(rows, tix):
        m = ch.cell[tix]
        lits = ch.lits[m * S + s_idx]  # (S, W, L)
        holds = jnp.all(rows[lits] == 1, axis=-1)  # (S, W)
        ok = jnp.any(holds, axis=-1)
        outcome = jnp.min(jnp.where(ok, S, s_idx))  # first step where no alternative holds (padding never does)
        alt = jnp.min(jnp.where(holds, w_idx, W), axis=-1)  # (S,) first alternative holding, W: none
        cond_rows = ch.cond[(m * S + s_idx) * (W + 1) + alt]  # (S, C)
        cond_rows = jnp.where((s_idx < outcome)[:, None], cond_rows, ch.cond_pad)
        rows = rows.at[cond_rows.reshape(-1)].set(jnp.tile(ch.cond_val, S))
        o = m * (S + 1) + outcome
        rows = rows.at[ch.det[o]].set(ch.det_val)
        return rows, ch.code[o], ch.applied[o]

    return step
