"""A batched numpy engine compiled from the parsed PDDL: many problems, one array.

Every problem of one (domain, size) has the same objects (cells, directions,
distances, colours) and the same size-dependent static atoms (``adj``, and
any other, e.g. a ``ray``). :class:`VectorEngine` grounds the domain once against those *shared*
statics (through :class:`~svot.engine.grounded.GroundTask` with a ``fold`` set,
so grounding has a single implementation) and keeps everything else, the
problem-specific statics included (walls, holes, goal squares), as columns of a
state array that no action changes. A batch of envs is one ``uint8`` array of
shape ``(num_envs, width)``. Nothing here knows a domain and there is no
per-domain transition code: every table below is derived from the operators.

Layout of a state row (``M`` atom columns, ``width`` = ``2*M + 2`` rounded up to 8)::

    [ atoms 0..M-1 | FALSE (0) | TRUE (1) | complements: not atom 0..M-1 | pad ]

Atom columns are grouped by predicate (sorted by name) and follow the objects'
declaration order within one (cells row-major), so e.g. all ``(at ?c)`` columns
form one contiguous block (:attr:`VectorEngine.columns`). A caller may put chosen
atoms first in an order of its own, with padding (``layout=``): the vector env
lays out the atoms its observation shows as 8 bytes per cell, so the bit-flag
grid is one multiply of those words. The complement block makes every
precondition and goal literal a "this column is 1" test.

**Pivot groups.** A set of fluent predicates is an *exactly-one group* when every
operator that deletes one of its atoms has that atom among its positive
preconditions and adds as many of the group's atoms as it deletes, and every
reference problem starts with exactly one of them true: ``{at}`` (the player's
cell) in every shipped domain, more where a domain has more (e.g. ``{heading, idle}``). Such a group is a
finite-domain variable. Its value (which atom is true, or "none") lives in a bit
field of a per-env integer ``code``, updated from each ground action with one
``(code & keep) | set``. Ground actions are tabled by (action literal, code), so a
step checks a handful of candidates per env (one or two in most domains),
never all ground actions of the literal.

**A step** (one literal per env): look up the candidates, index out their
precondition columns (positive ones not implied by the code, and complements of
negative ones) from the flattened state, take the first candidate whose columns
are all 1, and write its delete and add columns (complements included) by flat
index (padding writes 0 to FALSE and 1 to TRUE, so a row stays canonical), and
"nothing applies" is the dummy action,
which never holds and changes nothing. Where a cell holds several candidates
(one operator per thing the next cell may hold), their literal columns
together fit one 8-byte word: the step reads that word, packs it into a byte and
looks the first applicable candidate up (:func:`~svot.engine.vector_compile._pick_tables`). Then the domain's *internal* literals
(``DomainSpec.internal``, e.g. an ``advance`` chain) are applied, for the envs that moved only, until none
applies, so a macro move completes within one agent step as in
:meth:`GroundedEngine.settle <svot.engine.grounded.GroundedEngine.settle>`.
Envs whose code leaves no internal candidate drop out without another pass.

**Goal** per env: a padded list of flat indices of the columns its goal atoms
need (complements for negative goals), and a flag for goal atoms over shared
statics.

Like :class:`~svot.engine.grounded.GroundedEngine`, the engine assumes a literal
selects at most one applicable ground action (the shipped domains are
deterministic; ``tests/test_engine.py`` checks it). Were several to hold, the
first in grounding order would apply (internal literals: in key order first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from svot.engine.vector_chain import ChainTables
from svot.engine.vector_compile import compile_vector, padded, word_of
from svot.errors import ProblemError
from svot.pddl.domain import Domain
from svot.pddl.problem import Atom, Problem, atom_str

# Σ_k 2^(56-7k): 8 bytes of 0/1 multiplied by it carry byte k to bit 56+k (the top byte packs them)
_PACK_BYTES = np.uint64(0x0102040810204080)
_FIRST_BIT = np.array([8] + [(x & -x).bit_length() - 1 for x in range(1, 256)], np.int64)  # 8: no bit
_TRAILING_ONES = np.array([(~x & (x + 1)).bit_length() - 1 for x in range(256)], np.int64)
_padded, _word_of = padded, word_of


@dataclass
class ProblemBatch:
    """Problems encoded for one :class:`VectorEngine` (row ``i`` is ``problems[i]``)."""

    problems: list[Problem]
    init: np.ndarray  # (P, width) uint8 initial rows
    codes: np.ndarray  # (P,) int64 initial pivot codes
    goal_cols: np.ndarray  # (P, Gm) int32 columns that must be 1 (padded with TRUE)
    goal_static: np.ndarray  # (P,) bool: the goal's atoms over shared statics hold

    def __len__(self) -> int:
        return len(self.problems)


class BatchState:
    """The mutable state of ``n`` envs.

    ``rows`` ``(n, width)`` uint8, C-contiguous (the engine indexes it flat);
    ``code`` ``(n,)`` pivot codes; ``goal_flat`` ``(n, Gm)`` flat indices into
    ``rows`` of the columns each env's goal needs; ``goal_static`` whether the
    statically checked part of its goal holds; ``problem`` the index into the
    :class:`ProblemBatch` each env was last loaded from.
    """

    def __init__(self, engine: "VectorEngine", n: int, goal_width: int = 1):
        self.n = n
        self.width = engine.width
        self.rows = np.zeros((n, engine.width), np.uint8)
        self.rows[:, engine.TRUE] = 1
        self.rows[:, engine.COMP : engine.COMP + engine.n_atoms] = 1
        self.code = np.zeros(n, np.int64)
        self.base = np.arange(n, dtype=np.int64) * engine.width
        self._set_goal_width(engine, _padded(goal_width))
        self.goal_static = np.ones(n, bool)
        self.problem = np.zeros(n, np.int64)

    def _set_goal_width(self, engine: "VectorEngine", width: int, keep: int = 0) -> None:
        grown = np.empty((self.n, width), np.int64)
        grown[:] = (self.base + engine.TRUE)[:, None]
        if keep:
            grown[:, :keep] = self.goal_flat[:, :keep]
        self.goal_flat = grown
        self.goal_word, self.goal_ones = _word_of(width)

    def copy(self) -> "BatchState":
        new = object.__new__(BatchState)
        new.__dict__.update({k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()})
        return new


class VectorEngine:
    """Batched successor function for all problems sharing objects and some static atoms.

    Build it with :meth:`for_problems` (the shared statics found by comparing the
    problems) or directly from the shared static atoms (e.g. the static part of
    a spec's ``base_atoms(size)``). ``reference`` problems decide which pivot
    groups are exactly-one (none given: no pivots, every candidate of a literal
    is checked). :meth:`encode` refuses a problem that breaks an assumption made
    at compile time (other objects, other shared statics, a pivot group that is
    not exactly-one) with a :class:`~svot.errors.ProblemError` saying which.
    """

    def __init__(
        self,
        domain: Domain,
        objects: Sequence[tuple[str, str]],
        shared_static: Iterable[Atom],
        internal: tuple[str, ...] = (),
        reference: Sequence[Problem] = (),
        layout: Sequence[Atom | None] | None = None,
    ):
        self.domain = domain
        self.objects = tuple(objects)
        self._object_set = frozenset(self.objects)
        shared = frozenset(tuple(a) for a in shared_static)
        bad = sorted({a[0] for a in shared} - domain.static_predicates)
        if bad:
            raise ProblemError(f"shared static atoms use non-static predicate(s) {', '.join(bad)} of {domain.name!r}")
        self.fold = frozenset(a[0] for a in shared)
        self.shared_static = shared
        self.internal = tuple(internal)

        self.chains: ChainTables | None = None  # set by the compiler for domains with internal actions
        vars(self).update(vars(compile_vector(domain, self.objects, shared, self.internal, reference, layout)))
        self._aranges = np.arange(0, dtype=np.int64)
        self._patterns: dict = {}

    @classmethod
    def for_problems(
        cls, domain: Domain, problems: Sequence[Problem], internal: tuple[str, ...] = (), fold: Iterable[str] | None = None
    ) -> "VectorEngine":
        """An engine for ``problems``, folding the static predicates whose atoms all of them share.

        ``fold`` limits folding to those predicates (which must still agree across problems).
        """
        if not problems:
            raise ProblemError("VectorEngine.for_problems needs at least one problem")
        first = problems[0]
        for p in problems[1:]:
            if frozenset(p.objects) != frozenset(first.objects):
                raise ProblemError(f"problems {first.name!r} and {p.name!r} have different objects; a batch shares them")
        allowed = domain.static_predicates if fold is None else frozenset(fold) & domain.static_predicates

        def atoms_of(p, pred):
            return frozenset(a for a in p.init if a[0] == pred)

        shared_preds = {pred for pred in allowed if all(atoms_of(p, pred) == atoms_of(first, pred) for p in problems[1:])}
        shared = [a for a in first.init if a[0] in shared_preds]
        return cls(domain, first.objects, shared, internal, reference=problems)

    # --- keys ---------------------------------------------------------------------------------------
    def key_ids(self, keys: Sequence[tuple]) -> np.ndarray:
        """Table row blocks of agent action literals (a literal without ground actions never applies)."""
        return np.array([self._key_id.get(tuple(k), self.EMPTY) for k in keys], np.int64)

    # --- problems --------------------------------------------------------------------------------------
    def check(self, problem: Problem) -> None:
        """Raise :class:`ProblemError` if ``problem`` cannot be played by this engine."""
        self.encode([problem])

    def encode(self, problems: Sequence[Problem]) -> ProblemBatch:
        """Initial rows, pivot codes and goals of ``problems``."""
        problems = list(problems)
        P = len(problems)
        M = self.n_atoms
        init = np.zeros((P, self.width), np.uint8)
        codes = np.zeros(P, np.int64)
        goals: list[list[int]] = []
        goal_static = np.ones(P, bool)
        col = self.col
        for i, p in enumerate(problems):
            if p.domain != self.domain.name:
                raise ProblemError(f"problem {p.name!r} is for domain {p.domain!r}, not {self.domain.name!r}")
            if frozenset(p.objects) != self._object_set:
                raise ProblemError(f"problem {p.name!r} has other objects than this vector engine was compiled for")
            folded = frozenset(a for a in p.init if a[0] in self.fold)
            if folded != self.shared_static:
                raise ProblemError(
                    f"problem {p.name!r}: its {'/'.join(sorted(self.fold))} atoms differ from the shared ones "
                    "this vector engine folded away"
                )
            unseen = self.unseen_statics.intersection(p.init)
            if unseen:
                raise ProblemError(
                    f"problem {p.name!r} holds {atom_str(min(unseen))}, which no problem this vector engine was "
                    "compiled for held (the actions that need it were left out)"
                )
            row = init[i]
            for a in p.init:
                if a[0] in self.fold:
                    continue
                c = col.get(a)
                if c is None:
                    raise ProblemError(f"problem {p.name!r}: atom {atom_str(a)} is outside the vector engine's columns")
                row[c] = 1
            if self.invariants:
                counts: dict[str, int] = {}
                for a in p.init:
                    counts[a[0]] = counts.get(a[0], 0) + 1
                for g in self.invariants:
                    if sum(counts.get(q, 0) for q in g) > 1:
                        raise ProblemError(
                            f"problem {p.name!r} starts with several atoms of {'/'.join(g)}, of which this vector "
                            "engine assumes at most one (build it with this problem among its references)"
                        )
            code = 0
            for gi, gcols in enumerate(self.group_cols):
                on = np.flatnonzero(row[gcols])
                if len(on) > 1:
                    raise ProblemError(
                        f"problem {p.name!r} starts with {len(on)} atoms of {'/'.join(self.groups[gi])}, which this "
                        "vector engine treats as exactly-one (build it with this problem among its references)"
                    )
                code |= (int(on[0]) if len(on) else self.group_none[gi]) << self.group_shift[gi]
            codes[i] = code
            lits: list[int] = []
            ok = True
            for a in p.goal:
                if a[0] in self.fold:
                    ok &= a in self.shared_static
                else:
                    lits.append(col.get(a, self.FALSE))  # an atom outside the columns never holds
            for a in p.negative_goal:
                if a[0] in self.fold:
                    ok &= a not in self.shared_static
                elif a in col:
                    lits.append(self.COMP + col[a])
            goals.append(lits)
            goal_static[i] = ok
        init[:, self.TRUE] = 1
        init[:, self.COMP : self.COMP + M] = 1 - init[:, :M]
        Gm = _padded(max(1, max(map(len, goals), default=1)))
        goal_cols = np.full((P, Gm), self.TRUE, np.int64)
        for i, g in enumerate(goals):
            goal_cols[i, : len(g)] = g
        return ProblemBatch(problems, init, codes, goal_cols, goal_static)

    def new_state(self, n: int, batch: ProblemBatch | None = None) -> BatchState:
        return BatchState(self, n, batch.goal_cols.shape[1] if batch is not None else 1)

    def load(self, state: BatchState, rows, batch: ProblemBatch, which) -> None:
        """Put problems ``batch[which]`` (in their initial states) into envs ``rows``."""
        rows = np.arange(state.n)[rows] if isinstance(rows, slice) else np.asarray(rows, np.int64)
        which = np.asarray(which, np.int64)
        gw = batch.goal_cols.shape[1]
        if gw > state.goal_flat.shape[1]:
            state._set_goal_width(self, _padded(gw), keep=state.goal_flat.shape[1])
        state.rows[rows] = batch.init[which]
        state.code[rows] = batch.codes[which]
        base = state.base[rows][:, None]
        state.goal_flat[rows, :gw] = batch.goal_cols[which] + base
        if gw < state.goal_flat.shape[1]:  # pad a narrower batch's goals with TRUE
            state.goal_flat[rows, gw:] = base + self.TRUE
        state.goal_static[rows] = batch.goal_static[which]
        state.problem[rows] = which

    # --- stepping ---------------------------------------------------------------------------------------
    def _apply(self, flat: np.ndarray, base: np.ndarray, code: np.ndarray, cand: np.ndarray):
        """Apply, per env, the first applicable of its candidates ``cand`` (W, n).

        Returns the chosen action ids (``DUMMY`` where none applies) and the new codes.
        """
        if cand.shape[0] == 1:
            c = cand[0]
            lits = self.lit_col.take(c, 0)  # (n, Lp)
            lits += base[:, None]
            chosen = np.where(self._all_ones(flat.take(lits)), c, self.DUMMY)
        else:
            lits = self.lit_col.take(cand, 0)  # (W, n, Lp)
            lits += base[None, :, None]
            chosen = np.where(self._all_ones(flat.take(lits)), cand, self.DUMMY).min(0)
        return chosen, self._write(flat, base, code, chosen)

    def _write(self, flat: np.ndarray, base: np.ndarray, code: np.ndarray, chosen: np.ndarray) -> np.ndarray:
        """Write each env's chosen action's effect (the dummy writes nothing); returns the new codes."""
        w = self.write_col.take(chosen, 0)
        w += base[:, None]
        flat[w] = self._ones_like_pattern(self.write_val, len(w))  # much faster than flat.put(w, write_val)
        return (code & self.keep.take(chosen)) | self.set.take(chosen)

    def _pick(self, flat: np.ndarray, base: np.ndarray, tix: np.ndarray) -> np.ndarray:
        """Per env the first applicable candidate of table cell ``tix`` (``DUMMY`` if none), by the pick table.

        The cell's literal columns are one word of the state (``pick_cols``); packed
        into a byte (bit j: column j is 1), they index the cell's row of ``pick``
        (:func:`svot.engine.vector_compile._pick_tables`).
        """
        cols = self.pick_cols.take(tix, 0)
        cols += base[:, None]
        bits = flat.take(cols).view(np.uint64).reshape(-1)
        bits *= _PACK_BYTES
        bits >>= np.uint64(56)
        at = tix << 8
        at += bits.view(np.int64)
        return self.pick.take(at)

    def _all_ones(self, vals: np.ndarray) -> np.ndarray:
        """Along the last axis (padded to 1, 2, 4 or a multiple of 8 bytes): are all bytes 1?"""
        words = vals.view(self._word)
        ok = words[..., 0] == self._ones
        for j in range(1, words.shape[-1]):
            ok &= words[..., j] == self._ones
        return ok

    def step(self, state: BatchState, key_rows: np.ndarray) -> np.ndarray:
        """Apply one agent literal per env (``key_rows`` from :meth:`key_ids`), then settle.

        Returns per env whether the agent's literal applied.
        """
        flat = state.rows.reshape(-1)
        tix = key_rows * self.n_codes
        tix += state.code
        if self.chains is not None:
            return self._step_chains(state, flat, tix)
        if self.pick is not None:
            chosen = self._pick(flat, state.base, tix)
            state.code = self._write(flat, state.base, state.code, chosen)
        else:
            chosen, state.code = self._apply(flat, state.base, state.code, self.table.take(tix, 1))
        applied = chosen != self.DUMMY
        if self.internal_keys:
            self.settle(state, np.flatnonzero(applied & self.internal_possible.take(state.code)))
        return applied

    def _step_chains(self, state: BatchState, flat: np.ndarray, tix: np.ndarray) -> np.ndarray:
        """:meth:`step` through the compiled chains (:mod:`svot.engine.vector_chain`).

        Only the read steps macros have are looked at: one row per (env, step),
        flattened. A step's (up to 8) alternatives are the bytes of one word;
        packed into a byte of bits, a lookup gives the first that holds. An
        env's outcome (steps completed) is the first of its steps where none
        holds. Then the completed steps' own writes and, per (macro, outcome),
        the shared writes, the pivot code and whether the agent's action applied.
        """
        ch = self.chains
        n = len(tix)
        S, W = ch.steps, ch.width
        m = ch.cell.take(tix)
        base = state.base
        count = ch.n_steps.take(m)
        ends = np.cumsum(count)
        total = int(ends[-1]) if n else 0
        outcome = count  # no read steps anywhere: every outcome is 0
        if total:
            # rows ends[e]-count[e] .. ends[e]-1 are env e's steps; row r's (macro, step) is r + m*S - starts[e]
            starts = ends - count
            ms = m * S
            ms -= starts
            ms = np.repeat(ms, count)
            rows = self._arange(total)
            ms += rows
            idx = ch.lits.take(ms, 0)
            env_base = np.repeat(base, count)
            idx += env_base[:, None]
            vals = flat.take(idx)
            if ch.lit_width > 1:
                vals = self._all_ones_of(vals.reshape(total, W, ch.lit_width))
            words = vals.view(np.uint64).reshape(total)
            words *= _PACK_BYTES
            words >>= np.uint64(56)  # bit w: alternative w holds
            # per env the first step where no alternative holds, else all its steps (count): a minimum over
            # the few failing rows only (ufunc.at is unbuffered, so repeated envs reduce correctly)
            fail = np.flatnonzero(words == 0)
            outcome = count
            if fail.size:
                outcome = count.copy()
                env = np.searchsorted(ends, fail, side="right")  # the env of each failing row
                np.minimum.at(outcome, env, fail - starts.take(env))
            alt = _FIRST_BIT.take(words)
            ms *= W + 1
            ms += alt
            sel = ch.writes.take(ms)
            if fail.size:  # only the steps before an env's failing one complete
                sel &= rows < np.repeat(starts + outcome, count)
            sel = np.flatnonzero(sel)
            if sel.size:
                w = ch.cond.take(ms.take(sel), 0)
                w += env_base.take(sel)[:, None]
                flat[w] = self._ones_like_pattern(ch.cond_val, len(sel))
        outcome += m * (S + 1)
        sel = np.flatnonzero(ch.det_writes.take(outcome))
        w = ch.det.take(outcome.take(sel), 0)
        w += base.take(sel)[:, None]
        flat[w] = self._ones_like_pattern(ch.det_val, len(sel))
        state.code = ch.code.take(outcome)
        return ch.applied.take(outcome)

    def _arange(self, n: int) -> np.ndarray:
        a = self._aranges
        if len(a) < n:
            a = self._aranges = np.arange(max(n, 2 * len(a)), dtype=np.int64)
        return a[:n]

    def _ones_like_pattern(self, pattern: np.ndarray, n: int) -> np.ndarray:
        """``pattern`` repeated in ``n`` rows (cached: a contiguous value array makes fancy assignment fast)."""
        key = id(pattern)
        rows = self._patterns.get(key)
        if rows is None or len(rows) < n:
            rows = self._patterns[key] = np.ascontiguousarray(np.broadcast_to(pattern, (max(n, 1024), len(pattern))))
        return rows[:n]

    @staticmethod
    def _all_ones_of(vals: np.ndarray) -> np.ndarray:
        """Along the last axis (1, 2, 4 or a multiple of 8 bytes): are all bytes 1?"""
        L = vals.shape[-1]
        dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32}.get(L, np.uint64)
        words = np.ascontiguousarray(vals).view(dtype)
        one = dtype(int.from_bytes(b"\x01" * min(L, 8), "little"))
        ok = words[..., 0] == one
        for j in range(1, words.shape[-1]):
            ok &= words[..., j] == one
        return ok

    def settle(self, state: BatchState, rows: np.ndarray) -> None:
        """Apply internal literals in envs ``rows`` while one applies (a macro action completing)."""
        flat = state.rows.reshape(-1)
        code = state.code.take(rows)
        base = rows * self.width
        for _ in range(self._settle_limit):
            if rows.size == 0:
                return
            chosen, code = self._apply(flat, base, code, self.internal_table.take(code, 1))
            state.code[rows] = code
            keep = self.internal_possible.take(code)
            keep &= chosen != self.DUMMY
            rows, code, base = rows[keep], code[keep], base[keep]
        if rows.size:
            raise ProblemError(f"internal actions of {self.domain.name!r} did not settle: the domain loops")

    def applicable(self, state: BatchState, key_rows: Sequence[int], rows: np.ndarray | None = None) -> np.ndarray:
        """``(n, len(key_rows))`` bool: would each agent literal apply in each env (nothing changes)."""
        flat = state.rows.reshape(-1)
        code = state.code if rows is None else state.code[rows]
        base = state.base if rows is None else state.base[rows]
        out = np.zeros((len(code), len(key_rows)), bool)
        for j, k in enumerate(key_rows):
            cand = self.table.take(int(k) * self.n_codes + code, 1)  # (W, n)
            out[:, j] = self._all_ones(flat.take(self.lit_col.take(cand, 0) + base[None, :, None])).any(0)
        return out

    def is_goal(self, state: BatchState) -> np.ndarray:
        vals = state.rows.reshape(-1).take(state.goal_flat)
        words = vals.view(state.goal_word)
        ok = words[:, 0] == state.goal_ones
        for j in range(1, words.shape[1]):
            ok &= words[:, j] == state.goal_ones
        return ok & state.goal_static

    # --- reading states -----------------------------------------------------------------------------------
    def true_atoms(self, row: np.ndarray) -> frozenset[Atom]:
        """The true atoms of one state row, shared statics included (as ``GroundedEngine.true_atoms``)."""
        cols = self.columns
        return self.shared_static.union(cols[i] for i in np.flatnonzero(row[: self.n_atoms]))

    def atom_strings(self, row: np.ndarray) -> list[str]:
        """Sorted atom strings of one state row (as ``GroundedEngine.atom_strings``)."""
        cs = self._col_str
        return sorted(self._static_str + [cs[i] for i in np.flatnonzero(row[: self.n_atoms])])

    def row_of(self, atoms: Iterable[Atom]) -> np.ndarray:
        """The state row holding exactly ``atoms`` (shared statics are skipped; unknown atoms raise)."""
        row = np.zeros(self.width, np.uint8)
        for a in atoms:
            if a[0] in self.fold:
                continue
            c = self.col.get(a)
            if c is None:
                raise ProblemError(f"atom {atom_str(a)} is outside the vector engine's columns")
            row[c] = 1
        row[self.TRUE] = 1
        row[self.COMP : self.COMP + self.n_atoms] = 1 - row[: self.n_atoms]
        return row

    def describe(self) -> str:
        return (
            f"VectorEngine({self.domain.name}: {self.n_atoms} atom columns, {len(self.actions)} ground actions, "
            f"folded {sorted(self.fold)}, pivot groups {[list(g) for g in self.groups]} ({self.code_bits} code bits), "
            f"{len(self.agent_keys)} agent literals, candidate width {self.table_width} "
            f"(internal {self.internal_width if self.internal_keys else 0}), literal width {self.lit_width})"
        )
