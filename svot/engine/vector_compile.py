"""The vector engine's compiler: state columns, pivot codes and lookup tables from the parsed PDDL.

:func:`compile_vector` derives everything :class:`~svot.engine.vector.VectorEngine`
steps with (see that module's docstring for the layout and the step), in
sections: ground the domain against the shared statics, lay out the state
columns, order the ground actions, choose the pivot groups and their code bit
fields, build the per-action literal and write arrays, the candidate tables and,
for domains with internal actions, the compiled chains
(:mod:`svot.engine.vector_chain`). Nothing here names a domain.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Sequence

import numpy as np

from svot.engine.chain import at_most_one_groups, balanced
from svot.engine.grounded import GroundTask, bit_indices
from svot.engine.vector_chain import ChainTables, compile_chain_tables
from svot.errors import ProblemError
from svot.pddl.domain import Domain
from svot.pddl.problem import Atom, Problem, atom_str

_MAX_TABLE_CELLS = 4_000_000  # table rows × codes × width, a cap on the candidate table
_MAX_PICK_CELLS = 2_000_000  # table rows × codes × 256, a cap on the pick table
_PICK_WORD = 8  # a cell's literal columns read as one uint64 (the bytes of 8 columns)
_MAX_CODE_BITS = 16
_MAX_GROUP_PREDICATES = 2


def padded(n: int) -> int:
    """``n`` rounded up to 1, 2, 4 or a multiple of 8 (so byte rows view as whole words)."""
    for p in (1, 2, 4, 8):
        if n <= p:
            return p
    return -(-n // 8) * 8


def word_of(width: int):
    """The unsigned dtype covering ``min(width, 8)`` bytes and its all-bytes-1 value."""
    nbytes = min(width, 8)
    dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[nbytes]
    return dtype, dtype(int.from_bytes(b"\x01" * nbytes, "little"))


class VectorTables:
    """What :func:`compile_vector` derives; :class:`~svot.engine.vector.VectorEngine` takes these as its attributes.

    Grounding: ``unseen_statics`` (per-problem static atoms that no reference problem
    holds, whose actions were left out). Columns: ``columns`` (atom or None for padding), ``col``, ``n_atoms``,
    ``FALSE``/``TRUE``/``COMP``, ``width``. Actions: ``task`` (the grounding),
    ``actions`` (internal ones last, in key order), ``agent_keys``,
    ``internal_keys``. Pivots: ``groups``, ``group_cols``, ``group_none``,
    ``group_shift``, ``code_bits``, ``n_codes``. Per action (``DUMMY`` last):
    ``keep``/``set`` (code update), ``lit_col``, ``write_col``/``write_val``.
    Candidates: ``table``, ``internal_table``, ``internal_possible``,
    ``table_width``, ``internal_width``; ``pick_cols``/``pick`` (or None, see
    :func:`_pick_tables`). Chains: ``invariants``, ``chains``.
    """


def compile_vector(
    domain: Domain,
    objects: tuple,
    shared: frozenset,
    internal: tuple[str, ...],
    reference: Sequence[Problem],
    layout: Sequence[Atom | None] | None,
) -> VectorTables:
    """Compile the vector engine's tables (see :class:`VectorTables`)."""
    t = VectorTables()
    t.fold = frozenset(a[0] for a in shared)
    template = Problem(domain=domain.name, name="vector-template", objects=objects, init=shared, goal=())
    t.task = GroundTask(domain, template, fold=t.fold)
    t.unseen_statics = _drop_unseen_static_actions(t, domain, reference, layout)
    t._by_type = {}
    for name, type_name in objects:
        t._by_type.setdefault(type_name, []).append(name)
    _columns(t, domain, layout)
    t._static_str = sorted(atom_str(a) for a in shared)
    cols = _order_actions(t, internal)
    t.groups = choose_groups(domain, t._by_type, reference)
    _pivot_fields(t)
    placement, forbid = _action_arrays(t, cols)
    agent_cells = _candidate_tables(t, domain, placement, forbid)
    _pick_tables(t, agent_cells)
    # at-most-one invariants of the reference problems (encode checks them); the compiled chains rest on them
    inits = [[a for a in p.init if a[0] not in t.fold] for p in reference]
    t.invariants = at_most_one_groups(domain, inits) if inits else []
    t.chains: ChainTables | None = None
    if t.internal_keys:
        t.chains = compile_chain_tables(t, agent_cells, t.invariants)
    # does the pivot code determine the whole changing part of a state (given its problem)?
    _, _, add, dele = cols
    changing = {c for i in range(len(t.actions)) for c in add[i] + dele[i]}
    grouped = {c for gc in t.group_cols for c in gc}
    t.code_covers_state = changing <= grouped
    return t


def ground_args(by_type: dict, domain: Domain, pred: str):
    return itertools.product(*(by_type.get(ty, []) for ty in domain.predicates[pred]))


def _drop_unseen_static_actions(t: VectorTables, domain: Domain, reference: Sequence[Problem], layout) -> frozenset:
    """Leave out the ground actions that need a per-problem static atom no reference problem holds.

    A static predicate that is not folded (a walled maze's ``(open ?from ?dir ?to)`` passages)
    differs per problem, so the template grounds every typed combination: all 16 x 16 cell pairs
    of a 4x4 grid, where only neighbours are ever open, and each step would test them all. An
    action that needs an atom no reference problem's init holds can apply in none of them.
    Returns those atoms: :meth:`~svot.engine.vector.VectorEngine.encode` refuses a problem that
    holds one (the vector env then compiles again with it among the references).
    """
    per_problem = domain.static_predicates - t.fold
    t._never_held = None  # (predicates, atoms held): per-problem static atoms outside it get no column
    if not reference or not per_problem:
        return frozenset()
    seen = {a for p in reference for a in p.init if a[0] in per_problem}
    placed = frozenset(tuple(a) for a in layout or () if a is not None)
    t._never_held = (per_problem, seen, placed)
    fluents = t.task.fluents
    unseen = no_column = 0
    for i, a in enumerate(fluents):
        if a[0] in per_problem and a not in seen:
            unseen |= 1 << i
            if a not in placed:
                no_column |= 1 << i
    kept, used = [], 0
    for ga in t.task.actions:
        if ga.pos & unseen:
            used |= ga.pos & unseen
        elif ga.neg & no_column:
            # a negative literal on an atom without a column (see _columns) always holds: encode refuses
            # a problem that holds the atom (it has no column), so every problem the engine plays lacks it
            kept.append(replace(ga, neg=ga.neg & ~no_column))
        else:
            kept.append(ga)
    t.task.actions = kept
    return frozenset(a for i, a in enumerate(fluents) if used >> i & 1)


def _columns(t: VectorTables, domain: Domain, layout) -> None:
    """Every ground atom of every unfolded, non-action predicate, ``layout``'s first (padding: None)."""
    enumerated: list[Atom] = []
    for pred in sorted(domain.predicates):
        if pred in t.fold or pred in domain.action_predicates:
            continue
        enumerated.extend((pred,) + args for args in ground_args(t._by_type, domain, pred))
    seen = set(enumerated)
    enumerated.extend(sorted(a for a in t.task.fluents if a not in seen))  # outside the typed enumeration
    # per-problem static atoms no reference problem holds (a maze's passages between cells that are not
    # neighbours): always 0 in every problem encode accepts and read by no kept action, so no column
    # (unless the layout places them); rows get narrower, and every copy and take with them
    t._dropped = frozenset()
    if t._never_held is not None:
        preds, held, placed = t._never_held
        t._dropped = frozenset(a for a in enumerated if a[0] in preds and a not in held and a not in placed)
        enumerated = [a for a in enumerated if a not in t._dropped]
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
    t.columns = columns  # None: a padding column, always 0
    t.col = {a: i for i, a in enumerate(columns) if a is not None}
    M = t.n_atoms = len(columns)
    t.FALSE, t.TRUE, t.COMP = M, M + 1, M + 2
    t.width = -(-(2 * M + 2) // 8) * 8  # whole 8-byte words per row
    t._col_str = [None if a is None else atom_str(a) for a in columns]


def _order_actions(t: VectorTables, internal: tuple[str, ...]):
    """Internal ground actions last, by key order (a cell's min picks the first); returns their column lists."""
    task = t.task
    all_keys = sorted({ga.key for ga in task.actions})
    t.internal_keys = tuple(k for k in all_keys if k[0] in internal)
    t.agent_keys = tuple(k for k in all_keys if k[0] not in internal)
    t._rank = {k: j for j, k in enumerate(t.internal_keys)}
    order = sorted(range(len(task.actions)), key=lambda i: (t._rank.get(task.actions[i].key, -1), i))
    t.actions = [task.actions[i] for i in order]
    # an atom without a column (see _columns) is always 0, as the FALSE column is; no kept action names it
    bit_col = [t.FALSE if a in t._dropped else t.col[a] for a in task.fluents]
    t._bit_col = bit_col
    t._col_bit = {c: b for b, c in enumerate(bit_col) if c != t.FALSE}
    return tuple([[bit_col[b] for b in bit_indices(getattr(ga, f))] for ga in t.actions] for f in ("pos", "neg", "add", "delete"))


def choose_groups(domain: Domain, by_type: dict, reference: Sequence[Problem]) -> list[tuple[str, ...]]:
    """Disjoint exactly-one groups of fluent predicates to index ground actions by (none without references)."""
    if not reference:
        return []
    fluents = sorted(domain.fluent_predicates - set(domain.action_predicates))
    inits = [frozenset(a for a in p.init) for p in reference]
    candidates = []
    for r in range(1, _MAX_GROUP_PREDICATES + 1):
        for g in itertools.combinations(fluents, r):
            gs = set(g)
            if not balanced(domain, gs):
                continue
            if any(sum(1 for a in init if a[0] in gs) != 1 for init in inits):
                continue
            uses = sum(1 for op in domain.operators if any(a[0] in gs for a in op.pre_pos))
            if uses:
                size = sum(1 for p in g for _ in ground_args(by_type, domain, p))
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


def _pivot_fields(t: VectorTables) -> None:
    """Each pivot group's columns and its bit field in the code (values 0..len-1, and len for "none")."""
    t.group_cols = [[i for i, a in enumerate(t.columns) if a is not None and a[0] in g] for g in t.groups]
    t.group_none = [len(gc) for gc in t.group_cols]
    t.group_shift = []
    shift = 0
    for gc in t.group_cols:
        t.group_shift.append(shift)
        shift += max(1, int(len(gc)).bit_length())  # values 0..len(gc) inclusive
    t.code_bits = shift
    t.n_codes = 1 << shift


def _action_arrays(t: VectorTables, cols):
    """Per action (the dummy ``A`` last): code update, literal columns, write columns.

    Returns per action its required value per group (-1 any; None: never
    applicable) and per group the values its negative preconditions exclude.
    """
    pos, neg, add, dele = cols
    A = len(t.actions)
    t.DUMMY = A
    group_value = [{c: v for v, c in enumerate(gc)} for gc in t.group_cols]
    keep = np.full(A + 1, t.n_codes - 1, np.int64)
    setv = np.zeros(A + 1, np.int64)
    lits: list[list[int]] = []
    placement: list[list[int] | None] = []
    forbid: list[list[set[int]]] = []
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
                new = added[-1] if added else t.group_none[gi]
                top = t.group_shift[gi + 1] if gi + 1 < len(t.group_shift) else t.code_bits
                field = ((1 << top) - 1) ^ ((1 << t.group_shift[gi]) - 1)
                keep[i] &= ~field
                setv[i] |= new << t.group_shift[gi]
        implied = {t.group_cols[gi][v] for gi, v in enumerate(vals) if v >= 0}
        lits.append([c for c in pos[i] if c not in implied] + [t.COMP + c for c in neg[i]])
        placement.append(None if never else vals)
        forbid.append(excl)
    t.keep, t.set = keep, setv

    L = padded(max(1, max((len(x) for x in lits), default=1)))
    t._word, t._ones = word_of(L)
    t.lit_col = np.full((A + 1, L), t.TRUE, np.int64)
    for i, x in enumerate(lits):
        t.lit_col[i, : len(x)] = x
    t.lit_col[A, 0] = t.FALSE  # the dummy never applies
    t.lit_width = L
    zeros, ones = [], []
    for i in range(A):
        net_del = [c for c in dele[i] if c not in add[i]]
        zeros.append(net_del + [t.COMP + c for c in add[i]])
        ones.append(add[i] + [t.COMP + c for c in net_del])
    Z = max(1, max(map(len, zeros), default=1))
    O = max(1, max(map(len, ones), default=1))
    # one write per step: Z columns set to 0, then O columns set to 1
    t.write_col = np.full((A + 1, Z + O), t.TRUE, np.int64)
    t.write_col[:, :Z] = t.FALSE
    for i in range(A):
        t.write_col[i, : len(zeros[i])] = zeros[i]
        t.write_col[i, Z : Z + len(ones[i])] = ones[i]
    t.write_val = np.array([0] * Z + [1] * O, np.uint8)
    return placement, forbid


def _candidate_tables(t: VectorTables, domain: Domain, placement, forbid) -> dict[tuple[int, int], list[int]]:
    """Agent literals (one row block each) and the internal literals together; returns the agent cells."""
    A = t.DUMMY
    t._key_id = {k: i for i, k in enumerate(t.agent_keys)}
    t.EMPTY = len(t.agent_keys)  # a literal no ground action has
    agent_cells: dict[tuple[int, int], list[int]] = {}
    internal_cells: dict[int, list[int]] = {}
    for i, ga in enumerate(t.actions):
        vals = placement[i]
        if vals is None:
            continue
        ranges = []
        for gi, v in enumerate(vals):
            ranges.append((v,) if v >= 0 else tuple(x for x in range(t.group_none[gi] + 1) if x not in forbid[i][gi]))
        for combo in itertools.product(*ranges):
            code = sum(v << s for v, s in zip(combo, t.group_shift))
            if ga.key in t._rank:
                internal_cells.setdefault(code, []).append(i)
            else:
                agent_cells.setdefault((t._key_id[ga.key], code), []).append(i)
    Wa = max(1, max(map(len, agent_cells.values()), default=1))
    Wi = max(1, max(map(len, internal_cells.values()), default=1))
    n_rows = len(t.agent_keys) + 1
    if n_rows * t.n_codes * Wa > _MAX_TABLE_CELLS or t.code_bits > _MAX_CODE_BITS:
        raise ProblemError(f"candidate table of {domain.name!r} would be too large ({n_rows}×{t.n_codes}×{Wa})")
    # tables are stored candidate-major, (W, rows): a lookup gives (W, n) and the first
    # applicable candidate is a min over axis 0 (ids in a cell ascend in trial order)
    t.table = np.full((Wa, n_rows * t.n_codes), A, np.int64)
    for (row, code), ids in agent_cells.items():
        t.table[: len(ids), row * t.n_codes + code] = sorted(ids)
    t.internal_table = np.full((Wi, t.n_codes), A, np.int64)
    for code, ids in internal_cells.items():
        t.internal_table[: len(ids), code] = sorted(ids)
    # codes under which no internal action can apply: such envs are settled without a look
    t.internal_possible = (t.internal_table != A).any(0)
    t.table_width, t.internal_width = Wa, Wi
    t._settle_limit = A + 1
    return agent_cells


def _pick_tables(t: VectorTables, agent_cells: dict[tuple[int, int], list[int]]) -> None:
    """Per agent table cell, the union of its candidates' literal columns and a pick table over their values.

    A step then reads one 8-byte word per env (the cell's columns, TRUE-padded),
    packs it into a byte and looks up the first candidate whose literals are all
    among the 1s: the same choice as testing every candidate's literals and
    taking the first that holds (``VectorEngine._apply``), in one read instead of
    ``width`` of them. None (``pick``) when cells hold one candidate each (then
    reading its literals directly is cheaper), a cell's candidates test more than 8
    columns, or the table would exceed :data:`_MAX_PICK_CELLS`.
    """
    t.pick_cols = t.pick = None
    n_cells = t.table.shape[1]
    if t.table_width < 2 or n_cells * 256 > _MAX_PICK_CELLS:
        return
    TRUE, A = t.TRUE, t.DUMMY
    cols = np.full((n_cells, _PICK_WORD), TRUE, np.int64)
    pick = np.full((n_cells, 256), A, np.int64)
    patterns = np.arange(256)
    for (row, code), ids in agent_cells.items():
        union = sorted({int(c) for i in ids for c in t.lit_col[i] if c != TRUE})
        if len(union) > _PICK_WORD:
            return
        cell = row * t.n_codes + code
        cols[cell, : len(union)] = union
        slot = {c: 1 << j for j, c in enumerate(union)}
        chosen = pick[cell]
        for i in sorted(ids, reverse=True):  # the first in trial order wins: write it last
            need = sum(slot[int(c)] for c in t.lit_col[i] if c != TRUE)
            chosen[(patterns & need) == need] = i
    t.pick_cols, t.pick = cols, pick.reshape(-1)
