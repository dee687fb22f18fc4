"""The jitted step of one env, read off the numpy vector engine's tables (vmap batches it).

Every function here takes one env's state row and its pivot code, and does what
:class:`~svot.engine.vector.VectorEngine` does for a batch, with the same tables
(see that module's docstring). The row is the numpy engine's (atoms, FALSE, TRUE,
complements) packed to bits, column c being bit c % 8 of byte c // 8: an eighth of
the bytes to copy on a reset, and the observation's slots are its first bytes.

* :func:`apply_first`: the candidates of a cell, their literal columns gathered,
  the first whose columns are all 1 chosen (the dummy action if none), its write
  columns scattered and the code updated by ``(code & keep) | set``;
* :func:`settle`: internal literals while one applies (a bounded ``while_loop``);
* :func:`make_chain_step`: an agent step and its whole internal chain in one pass, from
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
    lits: jax.Array  # (M*S, W, L) literal columns
    cond: jax.Array  # (M*S*(W+1), C) write codes
    det: jax.Array  # (M*(S+1), D) write codes
    code: jax.Array
    applied: jax.Array


class DeviceTables(NamedTuple):
    """The kernel's tables on device: int32 ids, state columns and write codes (a pytree)."""

    act_rows: jax.Array
    table: jax.Array
    lits: jax.Array  # (A+1, L) literal columns
    writes: jax.Array  # (A+1, Z+O) write codes (see write_codes)
    keep: jax.Array
    set: jax.Array
    internal_table: jax.Array | None
    internal_possible: jax.Array | None
    chains: Chains | None
    pool_init: jax.Array  # (P, width/8) packed rows
    pool_code: jax.Array
    pool_goal: jax.Array  # (P, Gm) goal columns
    pool_goal_static: jax.Array
    static_obs: jax.Array | None
    fail: jax.Array | None


def _i32(a) -> jax.Array:
    a = np.asarray(a)
    if a.size and (a.max() >= 2**31 or a.min() < -(2**31)):  # pragma: no cover - tables are far smaller
        raise OverflowError("table value outside int32")
    return jnp.asarray(a.astype(np.int32))


def pack_rows(rows: np.ndarray) -> np.ndarray:
    """Byte rows (0/1 per column, the numpy engine's layout) as bits: column c is bit c % 8 of byte c // 8."""
    return np.packbits(np.asarray(rows, np.uint8), axis=-1, bitorder="little")


def unpack_rows(packed) -> np.ndarray:
    """The numpy engine's byte rows of packed rows (any leading shape)."""
    return np.unpackbits(np.asarray(packed, np.uint8), axis=-1, bitorder="little")


def write_codes(cols, vals) -> jax.Array:
    """Column writes as one int32 each: ``column * 2 + value`` (one gather per write in the kernel)."""
    cols = np.asarray(cols, np.int64)
    return _i32(cols * 2 + np.broadcast_to(np.asarray(vals, np.int64), cols.shape))


def device_tables(h: HostTables) -> DeviceTables:
    chains = None
    if h.chains is not None:
        ch = h.chains
        W, L = ch.width, ch.lit_width
        lits = ch.lits.reshape(-1, W, L)
        Wu = h.chain_width
        cond = ch.cond.reshape(-1, W + 1, ch.cond.shape[-1])[:, list(range(Wu)) + [W]]
        chains = Chains(cell=_i32(ch.cell), lits=_i32(lits[:, :Wu]), cond=write_codes(cond.reshape(-1, cond.shape[-1]), ch.cond_val),
                        det=write_codes(ch.det, ch.det_val), code=_i32(ch.code), applied=jnp.asarray(ch.applied, bool))
    internal = h.internal_table is not None
    return DeviceTables(
        act_rows=_i32(h.act_rows), table=_i32(h.table), lits=_i32(h.lit_col),
        writes=write_codes(h.write_col, h.write_val), keep=_i32(h.keep), set=_i32(h.set),
        internal_table=_i32(h.internal_table) if internal else None,
        internal_possible=jnp.asarray(h.internal_possible, bool) if internal else None,
        chains=chains, pool_init=jnp.asarray(pack_rows(h.pool_init)), pool_code=_i32(h.pool_code),
        pool_goal=_i32(h.pool_goal_cols), pool_goal_static=jnp.asarray(h.pool_goal_static, bool),
        static_obs=None if h.static_obs is None else jnp.asarray(h.static_obs),
        fail=None if h.fail is None else jnp.asarray(h.fail, bool),
    )


def bits_at(rows, cols) -> jax.Array:
    """The 0/1 values of columns ``cols`` (any shape) of a packed row."""
    return (rows[cols >> 3] >> (cols & 7).astype(jnp.uint8)) & 1


def all_set(rows, cols) -> jax.Array:
    """Along the last axis: are all the columns ``cols`` 1?"""
    return jnp.all(bits_at(rows, cols) != 0, axis=-1)


def write(rows, codes, keep=None):
    """Apply write codes (``column * 2 + value``): one scatter-add of per-bit deltas.

    A row's columns are distinct apart from padding (FALSE written 0, TRUE written 1,
    already so), so the deltas of bits in one byte add up without carries. Where
    ``keep`` is False a write is skipped (its delta is 0).
    """
    cols = codes >> 1
    byte, bit = cols >> 3, (cols & 7).astype(jnp.uint8)
    cur = (rows[byte] >> bit) & 1
    val = (codes & 1).astype(jnp.uint8)
    if keep is not None:
        val = jnp.where(keep, val, cur)
    delta = (val - cur) << bit  # uint8 arithmetic wraps: -d is 256 - d
    return rows.at[byte].add(delta)


def apply_first(t: DeviceTables, rows, code, cand, dummy: int):
    """Apply the first candidate of ``cand`` (W,) whose literal columns are all 1; returns (chosen, rows, code)."""
    ok = all_set(rows, t.lits[cand])
    chosen = jnp.min(jnp.where(ok, cand, dummy))
    rows = write(rows, t.writes[chosen])
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
        ms = m * S + s_idx
        holds = all_set(rows, ch.lits[ms])  # (S, W)
        ok = jnp.any(holds, axis=-1)
        outcome = jnp.min(jnp.where(ok, S, s_idx))  # first step where no alternative holds (padding never does)
        alt = jnp.min(jnp.where(holds, w_idx, W), axis=-1)  # (S,) first alternative holding, W: none
        c = ch.cond[ms * (W + 1) + alt]  # (S, C)
        done = jnp.broadcast_to((s_idx < outcome)[:, None], c.shape)  # only the completed steps write
        rows = write(rows, c.reshape(-1), done.reshape(-1))
        o = m * (S + 1) + outcome
        rows = write(rows, ch.det[o])
        return rows, ch.code[o], ch.applied[o]

    return step
