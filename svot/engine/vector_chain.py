"""The vector engine's compiled internal chains: one agent step and its whole chain in a single pass.

Without this, :class:`~svot.engine.vector.VectorEngine` settles a macro move as
stepping does, one internal step per pass over the batch (up to six
passes for a five-cell move). Here every (agent ground action, pivot code)
that the candidate table can select becomes a *macro*
(:class:`svot.engine.chain.Macro`, compiled from the parsed PDDL with the code's
group values and the problems' at-most-one invariants as knowledge). A macro's
open literals were written by no earlier step of its chain, so all of them are
read from the state before the step in one indexed lookup, and the outcome follows:

* per read step (the agent action, if its literals are not all implied by the
  code, then the chain's open steps), the first alternative whose literals
  hold; the steps completed are those before the first with none (``o``, the
  *outcome*);
* the writes that every alternative of the completed steps makes alike, the
  pivot code after and whether the agent's action applied, per (macro, ``o``);
* per completed step, the writes its chosen alternative makes on its own (its
  *cond* bits: written by no other step, read by no later one).

Empty candidate cells point to a per-code dummy macro whose single step never
holds. The compiled form exists only when every cell has at most one
candidate, every macro compiles, and the chains have fewer than 8 read steps of
at most 8 alternatives (so the tests pack into words); otherwise the engine
settles step by step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svot.engine.chain import ChainCompiler, Macro

_MAX_MACRO_CELLS = 8_000_000  # macros × read slots, a cap on the tables
_MAX_ALTERNATIVES = 8  # a step's alternatives are tested as the bytes of one uint64
_MAX_STEPS = 8  # read steps below this: whether each held packs into one byte (the outcome is a lookup)


@dataclass
class ChainTables:
    """Lookup tables of the compiled chains (``M`` macros, ``S`` read steps of ``W`` alternatives of ``L`` literals).

    ``cell``: per candidate-table cell (``row * n_codes + code``) its macro;
    ``lits`` ``(M*S, W*L)`` the columns each (macro, read step)'s alternatives
    test (TRUE pads, FALSE for an absent alternative); ``n_steps`` the read steps
    of each macro; ``writes`` whether a (macro, step, alternative) writes
    anything on its own; ``cond`` ``(M*S*(W+1), C)`` the columns each
    (macro, step, alternative) writes on its own (alternative ``W``: none) and
    ``cond_val`` their values; ``det`` ``(M*(S+1), D)`` and ``det_val`` the writes
    per (macro, outcome), ``code`` and ``applied`` the pivot code after and
    whether the agent's action applied.
    """

    cell: np.ndarray
    lits: np.ndarray
    cond: np.ndarray
    cond_val: np.ndarray
    det: np.ndarray
    det_val: np.ndarray
    code: np.ndarray
    applied: np.ndarray
    n_steps: np.ndarray  # (M,) read steps per macro
    writes: np.ndarray  # (M*S*(W+1),) bool: does (macro, step, alternative) write anything on its own
    det_writes: np.ndarray  # (M*(S+1),) bool: does (macro, outcome) write anything
    steps: int
    width: int
    lit_width: int
    n_macros: int


def _padded(n: int) -> int:
    """``n`` rounded up to 1, 2, 4 or a multiple of 8 (a row of literals views as whole words)."""
    for p in (1, 2, 4, 8):
        if n <= p:
            return p
    return -(-n // 8) * 8


def _columns(engine, mask: int) -> list[int]:
    """The state columns of the task bits in ``mask``."""
    out = []
    while mask:
        low = mask & -mask
        out.append(engine._bit_col[low.bit_length() - 1])
        mask ^= low
    return out


def _writes(engine, ones: int, zeros: int, skip_true: int = 0, skip_false: int = 0) -> tuple[list[int], list[int]]:
    """Columns to set to 0 and to 1 (complements included) for bits set to 1 (``ones``) and to 0 (``zeros``).

    Bits whose value before is known to equal what is written (``skip_*``) are left out.
    """
    zeros &= ~ones & ~skip_false
    ones &= ~skip_true
    one_cols, zero_cols = _columns(engine, ones), _columns(engine, zeros)
    return zero_cols + [engine.COMP + c for c in one_cols], one_cols + [engine.COMP + c for c in zero_cols]


def _code_of(engine, k1: int) -> int:
    """The pivot code of a state whose group atoms true are the task bits ``k1`` has among them."""
    code = 0
    for gi, gcols in enumerate(engine.group_cols):
        value = engine.group_none[gi]
        for v, c in enumerate(gcols):
            b = engine._col_bit.get(c)
            if b is not None and k1 >> b & 1:
                value = v
                break
        code |= value << engine.group_shift[gi]
    return code


def _code_knowledge(engine, code: int) -> tuple[int, int]:
    """Task bits known true and known false in every state with pivot code ``code``."""
    k1 = k0 = 0
    for gi, gcols in enumerate(engine.group_cols):
        value = (code >> engine.group_shift[gi]) & ((1 << max(1, int(len(gcols)).bit_length())) - 1)
        for v, c in enumerate(gcols):
            b = engine._col_bit.get(c)
            if b is not None:
                if v == value:
                    k1 |= 1 << b
                else:
                    k0 |= 1 << b
    return k1, k0


def compile_chain_tables(engine, cells: dict[tuple[int, int], list[int]], groups) -> ChainTables | None:
    """The macro tables of ``engine`` (a :class:`~svot.engine.vector.VectorEngine` being built), or None.

    ``cells`` maps (agent literal row, code) to its candidate action ids (the
    engine's action order); ``groups`` are the at-most-one invariants every
    problem the engine encodes satisfies. None when a cell has several
    candidates or a chain does not compile (the engine then settles step by step).
    """
    if any(len(ids) > 1 for ids in cells.values()):
        return None
    task = engine.task
    task_index = {id(ga): i for i, ga in enumerate(task.actions)}
    compiler = ChainCompiler(task, engine.internal_keys, groups)
    n_codes = engine.n_codes
    macros: list[tuple[Macro | None, int]] = []  # (macro, pre-code); None: the dummy of that code
    macro_of: dict[tuple[int, int], int] = {}
    for code in range(n_codes):
        macros.append((None, code))
    cell = np.array([c % n_codes for c in range(engine.EMPTY * n_codes + n_codes)], np.int64)
    for (row, code), ids in sorted(cells.items()):
        i = ids[0]
        key = (i, code)
        if key not in macro_of:
            k1, k0 = _code_knowledge(engine, code)
            m = compiler.macro(task_index[id(engine.actions[i])], k1, k0)
            if m is None:
                return None
            macro_of[key] = len(macros)
            macros.append((m, code))
        cell[row * n_codes + code] = macro_of[key]

    # read steps per macro: (alternatives as (lit cols, cond zeros, cond ones)), and det effects per outcome
    plans = []
    for m, code in macros:
        if m is None:
            plans.append(([[None]], [([], [])], [code], [False]))
            continue
        reads: list[list] = []
        effects = []  # (add, delete) composed, per outcome
        agent_open = bool(m.open_pos or m.open_neg)
        eff = (m.add, m.delete)
        if agent_open:
            reads.append([(_columns(engine, m.open_pos) + [engine.COMP + c for c in _columns(engine, m.open_neg)], [], [])])
            effects.append(None)  # outcome 0: nothing happened
        effects.append(eff)
        for alts, (ones, zeros), differ in zip(m.steps, m.common, m.cond):
            step = []
            for a in alts:
                lits = _columns(engine, a.pos) + [engine.COMP + c for c in _columns(engine, a.neg)]
                z, o = _writes(engine, a.add & differ, a.delete & differ)
                step.append((lits, z, o))
            reads.append(step)
            eff = ((eff[0] & ~zeros) | ones, eff[1] | zeros)
            effects.append(eff)
        writes, codes, applied = [], [], []
        for e in effects:
            if e is None:
                writes.append(([], []))
                codes.append(code)
                applied.append(False)
                continue
            writes.append(_writes(engine, e[0], e[1], m.known_true, m.known_false))
            codes.append(_code_of(engine, (m.known_true & ~e[1]) | e[0]))
            applied.append(True)
        plans.append((reads, writes, codes, applied))

    M = len(macros)
    alts_all = [a for p in plans for s in p[0] for a in s if a is not None]
    S = max(1, max(len(p[0]) for p in plans))
    W = max(1, max(len(s) for p in plans for s in p[0]))
    L = _padded(max([1] + [len(a[0]) for a in alts_all]))
    if S >= _MAX_STEPS or W > _MAX_ALTERNATIVES or M * S * _MAX_ALTERNATIVES * L > _MAX_MACRO_CELLS:
        return None
    W = _MAX_ALTERNATIVES  # a step's alternatives are one 8-byte word (see VectorEngine._step_chains)
    Cz = max([1] + [len(a[1]) for a in alts_all])
    Co = max([1] + [len(a[2]) for a in alts_all])
    Dz = max(1, max(len(w[0]) for p in plans for w in p[1]))
    Do = max(1, max(len(w[1]) for p in plans for w in p[1]))
    TRUE, FALSE = engine.TRUE, engine.FALSE

    lits = np.full((M, S, W, L), TRUE, np.int64)
    lits[:, :, :, 0] = FALSE  # absent alternatives and steps never hold
    cond = np.full((M, S, W + 1, Cz + Co), TRUE, np.int64)
    cond[..., :Cz] = FALSE
    det = np.full((M, S + 1, Dz + Do), TRUE, np.int64)
    det[..., :Dz] = FALSE
    code_after = np.zeros((M, S + 1), np.int64)
    applied_after = np.zeros((M, S + 1), bool)
    for mi, (reads, writes, codes, applied) in enumerate(plans):
        for s, step in enumerate(reads):
            for w, alt in enumerate(step):
                if alt is None:
                    continue
                cols, z, o = alt
                lits[mi, s, w, :] = TRUE
                lits[mi, s, w, : len(cols)] = cols
                cond[mi, s, w, : len(z)] = z
                cond[mi, s, w, Cz : Cz + len(o)] = o
        for o_, (z, o) in enumerate(writes):
            det[mi, o_, : len(z)] = z
            det[mi, o_, Dz : Dz + len(o)] = o
            code_after[mi, o_] = codes[o_]
            applied_after[mi, o_] = applied[o_]
        # outcomes beyond a macro's read steps cannot occur (its padding steps never hold)
    return ChainTables(
        cell=cell,
        lits=lits.reshape(M * S, W * L),
        cond=cond.reshape(M * S * (W + 1), Cz + Co),
        cond_val=np.array([0] * Cz + [1] * Co, np.uint8),
        det=det.reshape(M * (S + 1), Dz + Do),
        det_val=np.array([0] * Dz + [1] * Do, np.uint8),
        code=code_after.reshape(-1),
        applied=applied_after.reshape(-1),
        n_steps=np.array([len(p[0]) if p[0] != [[None]] else 0 for p in plans], np.int64),
        writes=(cond != np.array([FALSE] * Cz + [TRUE] * Co)).any(-1).reshape(-1),
        det_writes=(det != np.array([FALSE] * Dz + [TRUE] * Do)).any(-1).reshape(-1),
        steps=S,
        width=W,
        lit_width=L,
        n_macros=M,
    )
