"""A batched numpy engine compiled from the parsed PDDL: many problems, one array.

Every problem of one (domain, size) has the same objects (cells, directions,
distances, colours) and the same size-dependent static atoms (``adj``, Gather's
``ray``). :class:`VectorEngine` grounds the domain once against those *shared*
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
cell) in every shipped domain, ``{heading, idle}`` in Gather. Such a group is a
finite-domain variable. Its value (which atom is true, or "none") lives in a bit
field of a per-env integer ``code``, updated from each ground action with one
``(code & keep) | set``. Ground actions are tabled by (action literal, code), so a
step checks a handful of candidates per env (one or two in most domains),
never all ground actions of the literal.

**A step** (one literal per env): look up the candidates, gather their
precondition columns (positive ones not implied by the code, and complements of
negative ones) from the flattened state, take the first candidate whose columns
are all 1, and write its delete and add columns (complements included) by flat
index (padding writes 0 to FALSE and 1 to TRUE, so a row stays canonical), and
"nothing applies" is the dummy action,
which never holds and changes nothing. Then the domain's *internal* literals
(Gather's ``advance``) are applied, for the envs that moved only, until none
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

import itertools
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from svot.engine.grounded import GroundTask
from svot.errors import ProblemError
from svot.pddl.domain import Domain
from svot.pddl.problem import Atom, Problem, atom_str

_MAX_TABLE_CELLS = 4_000_000  # table rows × codes × width, a cap on the candidate table
_MAX_CODE_BITS = 16
_MAX_GROUP_PREDICATES = 2


def _padded(n: int) -> int:
    """``n`` rounded up to 1, 2, 4 or a multiple of 8 (so byte rows view as whole words)."""
    for p in (1, 2, 4, 8):
        if n <= p:
            return p
    return -(-n // 8) * 8


def _word_of(width: int):
    """The unsigned dtype covering ``min(width, 8)`` bytes and its all-bytes-1 value."""
    nbytes = min(width, 8)
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[nbytes]
    return dtype, dtype(int.from_bytes(b"\x01" * nbytes, "little"))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


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

        template = Problem(domain=domain.name, name="vector-template", objects=self.objects, init=shared, goal=())
        task = GroundTask(domain, template, fold=self.fold)
        self.task = task

        # --- columns: every ground atom of every unfolded, non-action predicate -------------
        self._by_type: dict[str, list[str]] = {}
        for name, type_name in self.objects:
            self._by_type.setdefault(type_name, []).append(name)
        enumerated: list[Atom] = []
        for pred in sorted(domain.predicates):
            if pred in self.fold or pred in domain.action_predicates:
                continue
            enumerated.extend((pred,) + args for args in self._ground_args(pred))
        seen = set(enumerated)
        enumerated.extend(sorted(a for a in task.fluents if a not in seen))  # outside the typed enumeration
        columns: list[Atom | None] = []
        if layout is not None:
            columns = [None if a is None else tuple(a) for a in layout]
            placed = [a for a in columns if a is not None]
            unknown = sorted(set(placed) - set(enumerated))
            if unknown or len(set(placed)) != len(placed):
                what = f"unknown atom {atom_str(unknown[0])}" if unknown else "an atom twice"
                raise ProblemError(f"layout for {domain.name!r} names {what}")
            seen = set(placed)
            columns += [a for a in enumerated if a not in seen]
        else:
            columns = enumerated
        self.columns: list[Atom | None] = columns  # None: a padding column, always 0
        self.col: dict[Atom, int] = {a: i for i, a in enumerate(columns) if a is not None}
        M = self.n_atoms = len(columns)
        self.FALSE, self.TRUE, self.COMP = M, M + 1, M + 2
        self.width = -(-(2 * M + 2) // 8) * 8  # whole 8-byte words per row
        self._static_str = sorted(atom_str(a) for a in shared)
        self._col_str = [None if a is None else atom_str(a) for a in columns]

        # --- ground actions: internal ones sorted by key order (the table's min picks the first) ---
        all_keys = sorted({ga.key for ga in task.actions})
        self.internal_keys = tuple(k for k in all_keys if k[0] in self.internal)
        self.agent_keys = tuple(k for k in all_keys if k[0] not in self.internal)
        rank = {k: j for j, k in enumerate(self.internal_keys)}
        order = sorted(range(len(task.actions)), key=lambda i: (rank.get(task.actions[i].key, -1), i))
        self.actions = [task.actions[i] for i in order]
        bit_col = [self.col[a] for a in task.fluents]
        pos = [[bit_col[b] for b in _bits(ga.pos)] for ga in self.actions]
        neg = [[bit_col[b] for b in _bits(ga.neg)] for ga in self.actions]
        add = [[bit_col[b] for b in _bits(ga.add)] for ga in self.actions]
        dele = [[bit_col[b] for b in _bits(ga.delete)] for ga in self.actions]

        # --- pivot groups as bit fields of the code -------------------------------------------------
        self.groups: list[tuple[str, ...]] = self._choose_groups(reference)
        self.group_cols: list[list[int]] = [[i for i, a in enumerate(columns) if a is not None and a[0] in g] for g in self.groups]
        group_value = [{c: v for v, c in enumerate(gc)} for gc in self.group_cols]
        self.group_none = [len(gc) for gc in self.group_cols]  # the "none" value
        self.group_shift: list[int] = []
        shift = 0
        for gc in self.group_cols:
            self.group_shift.append(shift)
            shift += max(1, int(len(gc)).bit_length())  # values 0..len(gc) inclusive
        self.code_bits = shift
        self.n_codes = 1 << shift

        # --- per-action arrays; action A is the dummy --------------------------------------------------
        A = len(self.actions)
        self.DUMMY = A
        keep = np.full(A + 1, self.n_codes - 1, np.int64)
        setv = np.zeros(A + 1, np.int64)
        lits: list[list[int]] = []
        placement: list[list[int] | None] = []  # per action: value per group (-1 any); None = never
        forbid: list[list[set[int]]] = []  # per action: per group, values its negative preconditions exclude
        for i in range(A):
            vals, excl = [], []
            never = False
            for gi, gv in enumerate(group_value):
                req = sorted({gv[c] for c in pos[i] if c in gv})
                never |= len(req) > 1  # two atoms of an exactly-one group: never applicable
                vals.append(req[0] if req else -1)
                excl.append({gv[c] for c in neg[i] if c in gv})
                added = [gv[c] for c in add[i] if c in gv]
                deleted = [gv[c] for c in dele[i] if c in gv]
                if added or deleted:
                    new = added[-1] if added else self.group_none[gi]
                    field = ((1 << (self.group_shift[gi + 1] if gi + 1 < len(self.group_shift) else shift)) - 1) ^ (
                        (1 << self.group_shift[gi]) - 1
                    )
                    keep[i] &= ~field
                    setv[i] |= new << self.group_shift[gi]
            implied = {self.group_cols[gi][v] for gi, v in enumerate(vals) if v >= 0}
            lits.append([c for c in pos[i] if c not in implied] + [self.COMP + c for c in neg[i]])
            placement.append(None if never else vals)
            forbid.append(excl)
        self.keep, self.set = keep, setv

        L = _padded(max(1, max((len(x) for x in lits), default=1)))
        self._word, self._ones = _word_of(L)
        self.lit_col = np.full((A + 1, L), self.TRUE, np.int64)
        for i, x in enumerate(lits):
            self.lit_col[i, : len(x)] = x
        self.lit_col[A, 0] = self.FALSE  # the dummy never applies
        self.lit_width = L
        zeros, ones = [], []
        for i in range(A):
            net_del = [c for c in dele[i] if c not in add[i]]
            zeros.append(net_del + [self.COMP + c for c in add[i]])
            ones.append(add[i] + [self.COMP + c for c in net_del])
        Z = max(1, max(map(len, zeros), default=1))
        O = max(1, max(map(len, ones), default=1))
        # one put per step: Z columns set to 0, then O columns set to 1 (put repeats the value pattern)
        self.write_col = np.full((A + 1, Z + O), self.TRUE, np.int64)
        self.write_col[:, :Z] = self.FALSE
        for i in range(A):
            self.write_col[i, : len(zeros[i])] = zeros[i]
            self.write_col[i, Z : Z + len(ones[i])] = ones[i]
        self.write_val = np.array([0] * Z + [1] * O, np.uint8)

        # --- candidate tables: agent literals (one row block each), and the internal literals together ---
        self._key_id = {k: i for i, k in enumerate(self.agent_keys)}
        self.EMPTY = len(self.agent_keys)  # a literal no ground action has
        agent_cells: dict[tuple[int, int], list[int]] = {}
        internal_cells: dict[int, list[int]] = {}
        for i, ga in enumerate(self.actions):
            vals = placement[i]
            if vals is None:
                continue
            ranges = []
            for gi, v in enumerate(vals):
                ranges.append((v,) if v >= 0 else tuple(x for x in range(self.group_none[gi] + 1) if x not in forbid[i][gi]))
            for combo in itertools.product(*ranges):
                code = sum(v << s for v, s in zip(combo, self.group_shift))
                if ga.key in rank:
                    internal_cells.setdefault(code, []).append(i)
                else:
                    agent_cells.setdefault((self._key_id[ga.key], code), []).append(i)
        Wa = max(1, max(map(len, agent_cells.values()), default=1))
        Wi = max(1, max(map(len, internal_cells.values()), default=1))
        n_rows = len(self.agent_keys) + 1
        if n_rows * self.n_codes * Wa > _MAX_TABLE_CELLS or self.code_bits > _MAX_CODE_BITS:
            raise ProblemError(f"candidate table of {domain.name!r} would be too large ({n_rows}×{self.n_codes}×{Wa})")
        # tables are stored candidate-major, (W, rows): a lookup gives (W, n) and the first
        # applicable candidate is a min over axis 0 (ids in a cell ascend in trial order)
        self.table = np.full((Wa, n_rows * self.n_codes), A, np.int64)
        for (row, code), ids in agent_cells.items():
            self.table[: len(ids), row * self.n_codes + code] = sorted(ids)
        self.internal_table = np.full((Wi, self.n_codes), A, np.int64)
        for code, ids in internal_cells.items():
            self.internal_table[: len(ids), code] = sorted(ids)
        # codes under which no internal action can apply: such envs are settled without a look
        self.internal_possible = (self.internal_table != A).any(0)
        self.table_width, self.internal_width = Wa, Wi
        self._settle_limit = A + 1
        # does the pivot code determine the whole changing part of a state (given its problem)?
        changing = {c for i in range(A) for c in add[i] + dele[i]}
        grouped = {c for gc in self.group_cols for c in gc}
        self.code_covers_state = changing <= grouped

    # --- compile-time analysis --------------------------------------------------------------------
    def _ground_args(self, pred: str):
        return itertools.product(*(self._by_type.get(t, []) for t in self.domain.predicates[pred]))

    def _choose_groups(self, reference: Sequence[Problem]) -> list[tuple[str, ...]]:
        """Disjoint exactly-one groups of fluent predicates to index ground actions by."""
        dom = self.domain
        if not reference:
            return []
        fluents = sorted(dom.fluent_predicates - set(dom.action_predicates))
        inits = [frozenset(a for a in p.init) for p in reference]
        candidates = []
        for r in range(1, _MAX_GROUP_PREDICATES + 1):
            for g in itertools.combinations(fluents, r):
                gs = set(g)
                if not self._balanced(gs):
                    continue
                if any(sum(1 for a in init if a[0] in gs) != 1 for init in inits):
                    continue
                uses = sum(1 for op in dom.operators if any(a[0] in gs for a in op.pre_pos))
                if uses:
                    size = sum(1 for p in g for _ in self._ground_args(p))
                    candidates.append((-uses, -size, g))
        chosen: list[tuple[str, ...]] = []
        used: set[str] = set()
        bits = 0
        for _, neg_size, g in sorted(candidates):
            need = max(1, int(-neg_size).bit_length())
            if used & set(g) or bits + need > _MAX_CODE_BITS - 4:
                continue
            chosen.append(g)
            used |= set(g)
            bits += need
        return chosen

    def _balanced(self, group: set[str]) -> bool:
        for op in self.domain.operators:
            added = [a for a in op.add if a[0] in group]
            deleted = [a for a in op.delete if a[0] in group]
            if len(added) != len(deleted) or any(a not in op.pre_pos for a in deleted):
                return False
        return True

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
            row = init[i]
            for a in p.init:
                if a[0] in self.fold:
                    continue
                c = col.get(a)
                if c is None:
                    raise ProblemError(f"problem {p.name!r}: atom {atom_str(a)} is outside the vector engine's columns")
                row[c] = 1
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
        w = self.write_col.take(chosen, 0)
        w += base[:, None]
        flat.put(w, self.write_val)
        return chosen, (code & self.keep.take(chosen)) | self.set.take(chosen)

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
        chosen, state.code = self._apply(flat, state.base, state.code, self.table.take(tix, 1))
        applied = chosen != self.DUMMY
        if self.internal_keys:
            self.settle(state, np.flatnonzero(applied & self.internal_possible.take(state.code)))
        return applied

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
