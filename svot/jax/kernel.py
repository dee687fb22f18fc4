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
    lit_byte: jax.Array  # (M*S, W, L)
    lit_mask: jax.Array
    cond: Writes  # rows (M*S*(W+1), C)
    det: Writes  # rows (M*(S+1), D)
    code: jax.Array
    applied: jax.Array


class Writes(NamedTuple):
    """Per row (an action, or a macro step/outcome): the bytes, bits and values its column writes set."""

    byte: jax.Array  # (R, K) int32
    bit: jax.Array  # (R, K) uint8
    val: jax.Array  # (R, K) uint8 (0/1)


class DeviceTables(NamedTuple):
    """The kernel's tables on device (int32 indices, columns as (byte, bit mask) of the packed row)."""

    act_rows: jax.Array
    table: jax.Array
    lit_byte: jax.Array  # (A+1, L)
    lit_mask: jax.Array
    writes: Writes  # per action
    keep: jax.Array
    set: jax.Array
    internal_table: jax.Array | None
    internal_possible: jax.Array | None
    chains: Chains | None
    pool_init: jax.Array  # (P, width/8) packed rows
    pool_code: jax.Array
    pool_goal_byte: jax.Array
    pool_goal_mask: jax.Array
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


def _cols(cols):
    cols = np.asarray(cols)
    return _i32(cols >> 3), jnp.asarray((1 << (cols & 7)).astype(np.uint8))


def _writes(cols, vals) -> Writes:
    cols = np.asarray(cols)
    vals = np.broadcast_to(np.asarray(vals, np.uint8), cols.shape)
    return Writes(byte=_i32(cols >> 3), bit=jnp.asarray((cols & 7).astype(np.uint8)), val=jnp.asarray(vals))


def device_tables(h: HostTables) -> DeviceTables:
    chains = None
    if h.chains is not None:
        ch = h.chains
        W, L = ch.width, ch.lit_width
        lb, lm = _cols(ch.lits.reshape(-1, W, L))
        chains = Chains(cell=_i32(ch.cell), lit_byte=lb, lit_mask=lm, cond=_writes(ch.cond, ch.cond_val),
                        det=_writes(ch.det, ch.det_val), code=_i32(ch.code), applied=jnp.asarray(ch.applied, bool))
    internal = h.internal_table is not None
    lb, lm = _cols(h.lit_col)
    gb, gm = _cols(h.pool_goal_cols)
    return DeviceTables(
        act_rows=_i32(h.act_rows), table=_i32(h.table), lit_byte=lb, lit_mask=lm,
        writes=_writes(h.write_col, h.write_val), keep=_i32(h.keep), set=_i32(h.set),
        internal_table=_i32(h.internal_table) if internal else None,
        internal_possible=jnp.asarray(h.internal_possible, bool) if internal else None,
        chains=chains, pool_init=jnp.asarray(pack_rows(h.pool_init)), pool_code=_i32(h.pool_code),
        pool_goal_byte=gb, pool_goal_mask=gm, pool_goal_static=jnp.asarray(h.pool_goal_static, bool),
        static_obs=None if h.static_obs is None else jnp.asarray(h.static_obs),
        fail=None if h.fail is None else jnp.asarray(h.fail, bool),
    )


def all_set(rows, byte, mask) -> jax.Array:
    """Along the last axis: are all the (byte, mask) columns 1?"""
    return jnp.all((rows[byte] & mask) != 0, axis=-1)


def write(rows, byte, bit, val):
    """Set the columns (byte, bit) to ``val``: one scatter-add of per-bit deltas.

    A row's columns are distinct apart from padding (FALSE written 0, TRUE written 1,
    already so), so the deltas of bits in one byte add up without carries.
    """
    cur = (rows[byte] >> bit) & 1
    delta = (val - cur) << bit  # uint8 arithmetic wraps: -d is 256 - d
    return rows.at[byte].add(delta)


def apply_first(t: DeviceTables, rows, code, cand, dummy: int):
    """Apply the first candidate of ``cand`` (W,) whose literal columns are all 1; returns (chosen, rows, code)."""
    ok = all_set(rows, t.lit_byte[cand], t.lit_mask[cand])
    chosen = jnp.min(jnp.where(ok, cand, dummy))
    w = t.writes
    rows = write(rows, w.byte[chosen], w.bit[chosen], w.val[chosen])
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
        holds = all_set(rows, ch.lit_byte[ms], ch.lit_mask[ms])  # (S, W)
        ok = jnp.any(holds, axis=-1)
        outcome = jnp.min(jnp.where(ok, S, s_idx))  # first step where no alternative holds (padding never does)
        alt = jnp.min(jnp.where(holds, w_idx, W), axis=-1)  # (S,) first alternative holding, W: none
        r = ms * (W + 1) + alt
        done = (s_idx < outcome)[:, None]  # only the completed steps write
        c = ch.cond
        val = jnp.where(done, c.val[r], (rows[c.byte[r]] >> c.bit[r]) & 1)  # an incomplete step rewrites what is
        rows = write(rows, c.byte[r].reshape(-1), c.bit[r].reshape(-1), val.reshape(-1))
        o = m * (S + 1) + outcome
        rows = write(rows, ch.det.byte[o], ch.det.bit[o], ch.det.val[o])
        return rows, ch.code[o], ch.applied[o]

    return step
