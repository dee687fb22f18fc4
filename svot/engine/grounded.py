"""The grounded engine: operators instantiated once per problem, stepped on bitsets.

Grounding joins each operator's static preconditions (adjacency, walls...)
against the problem's static atoms, so those predicates are folded away; what
remains per ground action is four bitmasks over the fluent atoms: positive and
negative preconditions, add and delete effects. A state is one Python ``int``.

Ground actions are indexed by the agent's action literal and, within it, by a
small decision index over their positive preconditions (the player's position
first, typically; then, where that leaves many candidates, the heading of a
move under way, a ball's colour...). A step looks only at the ground actions
whose pivot atoms are true.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from operator import itemgetter
from typing import Iterable

import numpy as np

from svot.engine.chain import ChainCompiler, at_most_one_groups, balanced_groups
from svot.errors import PDDLError, ProblemError
from svot.pddl.domain import Domain, Operator, match_atom
from svot.pddl.problem import Atom, Problem, atom_str


class _Split:
    """An index node: candidates bucketed by which of their pivot atoms is true.

    ``table`` maps the bit of a pivot atom to the sub-index of the candidates
    that need it; ``pmask`` is the union of those bits; ``loose`` holds the
    candidates with no atom of the pivot predicate. A leaf is a plain tuple of
    ground actions.
    """

    __slots__ = ("pmask", "table", "loose")

    def __init__(self, pmask: int, table: dict, loose):
        self.pmask, self.table, self.loose = pmask, table, loose


def _select(node, state: int):
    """The first applicable ground action under an index node (see :func:`_build_index`), or None.

    Only buckets whose pivot atom is true in ``state`` are looked into. The last
    bucket to visit is descended into without recursion: typically one pivot
    atom is true per node (the player stands on one cell).
    """
    while type(node) is _Split:
        x = state & node.pmask
        table = node.table
        if not node.loose:  # one pivot atom true (the usual case: the player's cell) is a key of the table
            sub = table.get(x)
            if sub is not None:
                node = sub
                continue
        while x:
            low = x & -x
            x ^= low
            if not x and not node.loose:
                node = table[low]
                break
            ga = _select(table[low], state)
            if ga is not None:
                return ga
        else:
            node = node.loose
    for ga in node:
        if state & ga.pos == ga.pos and not state & ga.neg:
            return ga
    return None


_LEAF = 3  # a bucket this small is scanned rather than split again
_SCAN = 0.25  # cost of visiting one bucket bit, relative to testing one ground action


def _build_index(actions, pred_bits: dict[str, int], counts: dict[str, int]):
    """A decision index over ``actions`` (ground actions of one action literal).

    At each node the predicate that splits the candidates best is chosen
    greedily: the cost of a lookup is the bits to visit (for a predicate in
    ``counts``, whose number of true atoms is known, such as the player's
    ``at``, that number; otherwise a quarter per distinct pivot atom) plus the
    largest bucket left to scan. Any predicate of the candidates' positive
    preconditions may serve, so the index is sound whatever the state: an
    applicable action's pivot atom is true, so its bucket is visited.
    """
    actions = tuple(actions)
    if len(actions) <= _LEAF:
        return actions
    best = None
    for cost, buckets, loose in _splits(actions, pred_bits, counts):
        # looking one level further: the largest bucket is itself split as well as it can be (a
        # predicate whose atoms are cheap to visit may leave large buckets that split cheaply next)
        cost += min(_split_cost(group, pred_bits, counts) for group in _largest(buckets, loose))
        if best is None or cost < best[0]:
            best = (cost, buckets, loose)
    if best is None or best[0] >= len(actions):
        return actions
    _, buckets, loose = best
    table = {b: _build_index(v, pred_bits, counts) for b, v in buckets.items()}
    return _Split(sum(table), table, _build_index(loose, pred_bits, counts))


def _splits(actions: tuple, pred_bits: dict[str, int], counts: dict[str, int]):
    """Each way to split ``actions`` by one predicate: ``(visit cost, buckets, loose)`` (see :func:`_build_index`)."""
    for pred in sorted({p for ga in actions for p, m in pred_bits.items() if ga.pos & m}):
        m = pred_bits[pred]
        buckets: dict[int, list] = {}
        loose = []
        for ga in actions:
            b = ga.pos & m
            if b:
                buckets.setdefault(b & -b, []).append(ga)  # the lowest of its atoms of pred
            else:
                loose.append(ga)
        if len(buckets) < 2 and not loose:
            continue  # every candidate needs the same atom: no split
        yield min(counts.get(pred, len(buckets)), _SCAN * len(buckets)), buckets, loose


def _largest(buckets: dict, loose: list) -> list:
    """The largest of the buckets and the loose candidates (all of that size: the cost of the worst one counts)."""
    top = max([len(loose)] + [len(v) for v in buckets.values()])
    groups = [v for v in buckets.values() if len(v) == top] + ([loose] if len(loose) == top else [])
    return [max(groups, key=len)] if groups else [[]]


def _split_cost(group: list, pred_bits: dict[str, int], counts: dict[str, int]) -> float:
    """The cost of a lookup in ``group`` split once more by its best predicate (or scanned)."""
    if len(group) <= _LEAF:
        return len(group)
    best = float(len(group))
    for visit, buckets, loose in _splits(tuple(group), pred_bits, counts):
        best = min(best, visit + max([len(loose)] + [len(v) for v in buckets.values()]))
    return best


def _lifted_balanced(domain: Domain, pred: str) -> bool:
    """Every operator that deletes a ``pred`` atom needs it and adds as many as it deletes."""
    for op in domain.operators:
        added = [a for a in op.add if a[0] == pred]
        deleted = [a for a in op.delete if a[0] == pred]
        if len(added) != len(deleted) or any(a not in op.pre_pos for a in deleted):
            return False
    return True


def _balanced_fluents(domain: Domain) -> list[str]:
    """Predicates that actions change but never create or destroy: their number of true atoms never changes."""
    touched = {p for op in domain.operators for p, _ in op.add + op.delete}
    return sorted(p for p in touched if _lifted_balanced(domain, p))


def pivot_predicate(domain: Domain) -> str | None:
    """A balanced predicate (:func:`_balanced_fluents`) that every operator needs an atom of, or None.

    Its true atoms are as many in every reachable state as in the initial one
    (one, for a player's cell), and every ground action needs one of them: so
    bucketing ground actions by that atom leaves a step a handful to test. The
    first such predicate by name when several qualify.
    """
    for pred in _balanced_fluents(domain):
        if domain.operators and all(any(a[0] == pred for a in op.pre_pos) for op in domain.operators):
            return pred
    return None


def _predicate_bits(bit: dict) -> dict[str, int]:
    out: dict[str, int] = {}
    for atom, b in bit.items():
        out[atom[0]] = out.get(atom[0], 0) | b
    return out


def _index_by_key(actions, pred_bits: dict[str, int], counts: dict[str, int]) -> dict:
    by_key: dict[tuple, list] = {}
    for ga in actions:
        by_key.setdefault(ga.key, []).append(ga)
    return {key: _build_index(v, pred_bits, counts) for key, v in by_key.items()}


@dataclass(frozen=True)
class GroundAction:
    name: str
    args: tuple[str, ...]
    key: tuple  # the action literal, e.g. ("move", "up")
    pos: int
    neg: int
    add: int
    delete: int

    def applies(self, state: int) -> bool:
        return state & self.pos == self.pos and not state & self.neg

    def apply(self, state: int) -> int:
        return (state & ~self.delete) | self.add


def _bind(op: Operator, static: dict[str, list], fold: frozenset, objects: dict[str, list[str]]) -> Iterable[dict]:
    """Every binding of ``op``'s parameters that satisfies its folded static preconditions.

    ``static`` maps a predicate to the sorted argument tuples of its true atoms.
    """
    static_sets = {p: set(v) for p, v in static.items()}
    types = dict(op.params)
    static_pos = [a for a in op.pre_pos if a[0] in fold]
    static_neg = [a for a in op.pre_neg if a[0] in fold]

    def args_of(atom, binding):
        return tuple(binding.get(v, v) if v.startswith("?") else v for v in atom[1])

    def rec(binding: dict, todo: list):
        if todo:
            # the static atom with the most variables bound first: the join stays narrow
            best = max(range(len(todo)), key=lambda i: sum(v in binding for v in todo[i][1]))
            atom = todo[best]
            rest = todo[:best] + todo[best + 1 :]
            for fact in static.get(atom[0], ()):
                new = match_atom(atom[1], fact, binding)
                if new is not None:
                    yield from rec(new, rest)
            return
        free = [v for v, _ in op.params if v not in binding]
        yield from free_vars(binding, free)

    def free_vars(binding, free):
        if not free:
            if all(args_of(a, binding) not in static_sets.get(a[0], ()) for a in static_neg):
                yield binding
            return
        var = free[0]
        for obj in objects.get(types[var], ()):
            yield from free_vars({**binding, var: obj}, free[1:])

    yield from rec({}, static_pos)


class GroundTask:
    """A problem grounded against its domain.

    ``fold`` names the static predicates to fold away (default: every static
    predicate). Unfolded statics stay as fluent bits that no action changes,
    which lets problems that differ only in them share one grounding.
    """

    def __init__(self, domain: Domain, problem: Problem, fold: Iterable[str] | None = None):
        if problem.domain != domain.name:
            raise ProblemError(f"problem {problem.name!r} is for domain {problem.domain!r}, not {domain.name!r}")
        if domain.unsupported is not None:
            raise PDDLError(f"the compiled engine cannot run {domain.unsupported} (use PDDLGym's engine)", source=domain.source)
        self.domain = domain
        self.problem = problem
        self.fold = frozenset(domain.static_predicates if fold is None else fold)
        objects: dict[str, list[str]] = {}
        for name, type_name in problem.objects:
            objects.setdefault(type_name, []).append(name)
        static_sets: dict[str, set] = {}
        for atom in problem.init:
            if atom[0] in self.fold:
                static_sets.setdefault(atom[0], set()).add(tuple(atom[1:]))
        static = {p: sorted(s) for p, s in static_sets.items()}
        self.static_atoms = frozenset(a for a in problem.init if a[0] in self.fold)

        raw = []  # (op, binding) in a deterministic order
        for op in domain.operators:
            for binding in _bind(op, static, self.fold, objects):
                raw.append((op, binding))

        def ground(atoms, binding):
            return [(p,) + tuple(binding.get(v, v) for v in args) for p, args in atoms]

        universe = {a for a in problem.init if a[0] not in self.fold}
        grounded = []
        for op, binding in raw:
            parts = [ground(x, binding) for x in (op.pre_pos, op.pre_neg, op.add, op.delete)]
            parts[0] = [a for a in parts[0] if a[0] not in self.fold]
            parts[1] = [a for a in parts[1] if a[0] not in self.fold]
            for group in parts:
                universe.update(group)
            grounded.append((op, binding, parts))
        # a fluent of the init or the goal that no action touches (a player walled in, a goal cut off)
        # still needs its bit: it simply never changes
        universe.update(a for a in (*problem.init, *problem.goal) if a[0] not in self.fold)
        self.fluents: list[Atom] = sorted(universe)
        self.bit = {a: 1 << i for i, a in enumerate(self.fluents)}
        self._fluent_str = [atom_str(a) for a in self.fluents]
        self._static_str = sorted(atom_str(a) for a in self.static_atoms)

        def mask(atoms) -> int:
            m = 0
            for a in atoms:
                m |= self.bit[a]
            return m

        self.actions: list[GroundAction] = []
        for op, binding, (pos, neg, add, delete) in grounded:
            args = tuple(binding[v] for v, _ in op.params)
            key = (op.action[0],) + tuple(binding.get(v, v) for v in op.action[1])
            self.actions.append(GroundAction(op.name, args, key, mask(pos), mask(neg), mask(add), mask(delete)))
        self.init = mask(a for a in problem.init if a[0] not in self.fold)
        init_counts: dict[str, int] = {}
        for a in problem.init:
            init_counts[a[0]] = init_counts.get(a[0], 0) + 1
        counts = {p: init_counts.get(p, 0) for p in _balanced_fluents(domain)}
        self._index = _index_by_key(self.actions, _predicate_bits(self.bit), counts)
        goal_static = [a for a in problem.goal if a[0] in self.fold]
        self.goal_reachable_statically = all(a in self.static_atoms for a in goal_static) and not any(
            a in self.static_atoms for a in problem.negative_goal if a[0] in self.fold
        )
        self.goal_pos = mask(a for a in problem.goal if a[0] not in self.fold)
        self.goal_neg = mask(a for a in problem.negative_goal if a[0] not in self.fold and a in self.bit)

    # --- stepping -------------------------------------------------------------
    def find(self, state: int, key: tuple) -> GroundAction | None:
        """The ground action ``key`` selects in ``state``, or None."""
        return _select(self._index.get(key, ()), state)

    def applicable_all(self, state: int, key: tuple) -> list[GroundAction]:
        """Every ground action ``key`` could select (more than one means the domain is nondeterministic)."""
        return [ga for ga in self.actions if ga.key == key and ga.applies(state)]

    def keys(self) -> list[tuple]:
        return sorted(self._index)

    # --- reading states -------------------------------------------------------
    def fluent_atoms(self, state: int) -> list[Atom]:
        out = []
        fl = self.fluents
        i = 0
        while state:
            if state & 1:
                out.append(fl[i])
            state >>= 1
            i += 1
        return out

    def true_atoms(self, state: int) -> frozenset[Atom]:
        return self.static_atoms.union(self.fluent_atoms(state))

    def atom_strings(self, state: int) -> list[str]:
        fs = self._fluent_str
        strs = [fs[i] for i in range(state.bit_length()) if state >> i & 1]
        return sorted(self._static_str + strs)

    def is_goal(self, state: int) -> bool:
        return (
            self.goal_reachable_statically
            and state & self.goal_pos == self.goal_pos
            and not state & self.goal_neg
        )


_MAX_OUTCOMES = 256  # outcomes kept per compiled chain (each a pair of ints); a full table starts over


class TaskChains:
    """The compiled internal chains of one task under one set of invariants, as int programs (built on first use).

    A program is ``(reads, outcomes, macro)``: the chain's outcome depends only on
    the state's bits ``reads`` (the open literals of its steps, which no earlier
    step writes: :class:`svot.engine.chain.Macro`), so the net (add, delete) of
    the whole step is computed once per value of those bits and kept in
    ``outcomes``. False: the chain is not compilable, so it is stepped.
    """

    def __init__(self, task: "GroundTask", internal_keys: tuple, groups):
        self.compiler = ChainCompiler(task, internal_keys, groups)
        self.programs: dict[int, tuple | bool] = {}
        self._index = {id(ga): i for i, ga in enumerate(task.actions)}

    def program(self, ga: GroundAction) -> tuple | bool:
        m = self.compiler.macro(self._index[id(ga)])
        prog: tuple | bool = False
        if m is not None:
            reads = 0
            for alts in m.steps:
                for a in alts:
                    reads |= a.pos | a.neg
            prog = (reads, {}, m)
            if not m.steps:
                prog[1][0] = (m.add, ~m.delete)
        self.programs[id(ga)] = prog
        return prog

    @staticmethod
    def outcome(prog: tuple, seen: int) -> tuple[int, int]:
        """``(add, keep)`` of a chain given the values ``seen`` of its read bits (kept for the next time).

        The state after is ``(state & keep) | add``; ``keep`` is the complement of the deleted bits.
        """
        reads, outcomes, m = prog
        eff = (m.add, m.delete)
        for alts in m.steps:
            for a in alts:
                if seen & a.pos == a.pos and not seen & a.neg:
                    eff = ((eff[0] & ~a.delete) | a.add, eff[1] | a.delete)
                    break
            else:
                break
        eff = (eff[0], ~eff[1])
        if len(outcomes) >= _MAX_OUTCOMES:
            outcomes.clear()
        outcomes[seen] = eff
        return eff


_STUCK_LIMIT = 100_000  # verdicts kept per table; a full table starts over


class _StuckTable:
    """:meth:`_Stepping.stuck` for one tuple of action literals: the bits read per pivot atom, and verdicts."""

    def __init__(self, stepping: "_Stepping", keys: tuple):
        # step(state, k) applies exactly when the index selects a ground action: the nodes alone answer
        self.nodes = tuple(stepping._nodes.get(k, ()) for k in keys)
        task = stepping.task
        pivot = pivot_predicate(task.domain)
        pm = 0
        if pivot is not None:
            for a, b in task.bit.items():
                if a[0] == pivot:
                    pm |= b
        reads: dict[int, int] = {}
        wanted = set(keys)
        for ga in task.actions:
            if ga.key not in wanted:
                continue
            p = ga.pos & pm
            if not p or p & (p - 1):  # no single pivot atom: every state is asked of the engine
                pm, reads = 0, {}
                break
            reads[p] = reads.get(p, p) | ga.pos | ga.neg
        self.pivot_mask = pm
        self.reads = reads
        self.verdicts: dict[int, bool] = {}

    def stuck(self, state: int) -> bool:
        piv = state & self.pivot_mask
        if piv and not piv & (piv - 1):
            seen = state & self.reads.get(piv, piv)  # a pivot no action needs reads itself: no action applies
            verdict = self.verdicts.get(seen)
            if verdict is None:
                verdict = self._none_applies(state)
                if len(self.verdicts) >= _STUCK_LIMIT:
                    self.verdicts.clear()
                self.verdicts[seen] = verdict
            return verdict
        return self._none_applies(state)

    def _none_applies(self, state: int) -> bool:
        for node in self.nodes:
            if _select(node, state) is not None:
                return False
        return True


class _Stepping:
    """``step``/``trace``/``settle`` over a ``find(state, key)``: the agent's ground action,
    then internal action literals (``self.internal_keys``) while one applies."""

    internal_keys: tuple = ()
    _limit: int = 1
    _nodes: dict = {}
    _internal_nodes: tuple = ()
    _chains: "TaskChains | None" = None
    _programs: dict | None = None  # id(agent ground action) -> compiled chain program, or False

    def _find(self, state: int, key: tuple) -> GroundAction | None:
        raise NotImplementedError

    def step(self, state: int, action: tuple) -> tuple[int, bool]:
        ga = _select(self._nodes.get(action, ()), state)
        if ga is None:
            return state, False
        programs = self._programs
        if programs is not None:
            prog = programs.get(id(ga))
            if prog is None:
                prog = self._chains.program(ga)
            if prog:  # the compiled chain (svot.engine.chain): its outcome depends only on the bits `reads`
                reads, outcomes, _ = prog
                seen = state & reads
                eff = outcomes.get(seen)
                if eff is None:
                    eff = self._chains.outcome(prog, seen)
                return (state & eff[1]) | eff[0], True
        state = (state & ~ga.delete) | ga.add
        if self._internal_nodes:
            nodes = self._internal_nodes
            for _ in range(self._limit):
                for node in nodes:
                    ga = _select(node, state)
                    if ga is not None:
                        state = (state & ~ga.delete) | ga.add
                        break
                else:
                    return state, True
            self._loops()
        return state, True

    def stuck(self, state: int, keys: tuple) -> bool:
        """Whether no action literal of ``keys`` applies in ``state`` (every ``step(state, k)`` reports not applied).

        Where each ground action of ``keys`` needs exactly one atom of the domain's
        :func:`pivot_predicate` and ``state`` holds exactly one, the candidates are those
        needing that atom, and whether one applies depends only on the bits their
        preconditions read: the answer is kept by those bits (shared by every
        problem on the same ground actions, e.g. one grid size's grounding).
        """
        table = self._stuck_tables.get(keys)
        if table is None:
            table = self._stuck_tables[keys] = _StuckTable(self, keys)
        return table.stuck(state)

    def trace(self, state: int, action: tuple) -> tuple[int, list[GroundAction]]:
        """Like :meth:`step`, but returns the ground actions applied (internal ones included)."""
        ga = self._find(state, action)
        if ga is None:
            return state, []
        applied = [ga]
        state = ga.apply(state)
        if self.internal_keys:
            state, more = self._settle(state)
            applied += more
        return state, applied

    def settle(self, state: int) -> int:
        """Apply internal action literals while one applies (a macro action completing)."""
        return self._settle(state)[0]

    def _settle(self, state: int) -> tuple[int, list[GroundAction]]:
        find = self._find
        applied = []
        for _ in range(self._limit):
            for key in self.internal_keys:
                ga = find(state, key)
                if ga is not None:
                    applied.append(ga)
                    state = (state & ~ga.delete) | ga.add
                    break
            else:
                return state, applied
        self._loops()

    def _loops(self):
        raise ProblemError(f"internal actions of {self.domain.name!r} did not settle: the domain loops")

    def _use_index(self, index: dict) -> None:
        """Step on ``index`` (key -> index node); call after setting ``internal_keys``."""
        self._stuck_tables = {}
        self._nodes = index
        self._internal_nodes = tuple(index[k] for k in self.internal_keys)

    def _use_chains(self, chains: "TaskChains | None") -> None:
        """Step agent actions with internal chains through ``chains``' compiled programs."""
        self._chains = chains
        self._programs = None if chains is None else chains.programs


class GroundedEngine(_Stepping):
    """:class:`GroundTask` behind the :class:`~svot.engine.base.Engine` interface."""

    def __init__(self, domain: Domain, problem: Problem, internal: tuple[str, ...] = ()):
        self.domain = domain
        self.problem = problem
        self.task = GroundTask(domain, problem)
        self._find = self.task.find
        self.internal_keys = tuple(k for k in self.task.keys() if k[0] in internal)
        self._limit = len(self.task.actions) + 1
        self._use_index(self.task._index)
        if self.internal_keys:
            groups = at_most_one_groups(domain, [[a for a in problem.init if a[0] not in self.task.fold]])
            self._use_chains(TaskChains(self.task, self.internal_keys, groups))

    def initial(self) -> int:
        return self.task.init

    def true_atoms(self, state: int) -> frozenset[Atom]:
        return self.task.true_atoms(state)

    def atom_strings(self, state: int) -> list[str]:
        return self.task.atom_strings(state)

    def is_goal(self, state: int) -> bool:
        return self.task.is_goal(state)


# --- additive: one grounding shared by every problem of a (domain, objects, static grid) -----------------


def bit_indices(bits: int) -> list[int]:
    """Indices of the 1 bits of a non-negative int, ascending, lowest bit first: for ints with few bits
    (an action's masks, a maze's walls), where :func:`set_bits`' numpy round trip costs more."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def set_bits(state: int) -> list[int]:
    """Indices of the 1 bits of a non-negative int, ascending (C-speed via ``int.to_bytes``)."""
    if not state:
        return []
    raw = np.frombuffer(state.to_bytes((state.bit_length() + 7) // 8, "little"), np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little")).tolist()


class SharedGrounding(_Stepping):
    """A :class:`GroundTask` shared by all problems with the same objects and the same ``shared_static`` atoms.

    The template grounded here holds the shared static atoms (folded away, e.g.
    ``adj``) and every type-correct atom of every other predicate, so any such
    problem is just an initial bitset and goal masks over one grounding
    (:meth:`bind`); its own static atoms (walls, holes, goal squares) are bits no
    action changes. Stepping matches :class:`GroundedEngine` (same first
    applicable ground action for the deterministic domains svot ships), with
    ground actions indexed as :func:`_build_index` describes.

    ``step``/``settle`` here serve any of those problems' states; they run the
    internal actions one by one, since the compiled chains rest on a problem's
    invariants (a bound problem, :meth:`bind`, steps through them).
    """

    def __init__(self, domain: Domain, objects, shared_static, internal: tuple[str, ...] = ()):
        self.domain = domain
        self.objects = tuple(objects)
        self.object_set = frozenset(self.objects)
        self.shared_static = frozenset(tuple(a) for a in shared_static)
        self.fold = frozenset(a[0] for a in self.shared_static)
        by_type: dict[str, list[str]] = {}
        for name, type_name in self.objects:
            by_type.setdefault(type_name, []).append(name)
        init = set(self.shared_static)
        for pred, types in domain.predicates.items():
            if pred in self.fold or pred in domain.action_predicates:
                continue
            init.update((pred,) + args for args in itertools.product(*(by_type.get(t, []) for t in types)))
        template = Problem(domain=domain.name, name="shared-template", objects=self.objects, init=frozenset(init), goal=())
        self.task = GroundTask(domain, template, fold=self.fold)
        self.internal_keys = tuple(k for k in self.task.keys() if k[0] in internal)
        self._fluent_str = [atom_str(a) for a in self.task.fluents]
        self._static_str = sorted(atom_str(a) for a in self.shared_static)
        self._limit = len(self.task.actions) + 1
        # a problem's count of a balanced predicate is its initial one; most have one player
        counts = {p: 1 for p in _balanced_fluents(domain)}
        self._index = _index_by_key(self.task.actions, _predicate_bits(self.task.bit), counts)
        self._find = self.find
        self._use_index(self._index)
        self._balanced_groups = balanced_groups(domain) if self.internal_keys else []
        self._chains: dict[tuple, TaskChains] = {}
        self._last_own: tuple | None = None  # (problem.init, own atoms, bits): see own_bits
        self._last_objects: tuple | None = None  # the objects tuple last found equal to this grounding's

    def chains_for(self, own_atoms) -> "TaskChains | None":
        """The compiled chains for a problem whose own (non-shared) initial atoms are ``own_atoms``.

        The invariants they rest on are the balanced groups with at most one
        true atom in that initial state, so problems agreeing on those share one
        compilation.
        """
        if not self.internal_keys:
            return None
        counts = Counter(map(itemgetter(0), own_atoms))  # atoms per predicate
        groups = tuple(g for g in self._balanced_groups if sum(counts[p] for p in g) <= 1)
        chains = self._chains.get(groups)
        if chains is None:
            chains = self._chains[groups] = TaskChains(self.task, self.internal_keys, groups)
        return chains

    def own_bits(self, problem: Problem) -> tuple[frozenset, int | None]:
        """``(own, bits)``: the problem's initial atoms less the shared statics, and their bitset here.

        ``bits`` is None when the problem lacks a shared static atom, or has an own
        atom that is folded (another grid) or outside this grounding. The last
        answer is kept by the identity of ``problem.init`` (a frozenset cannot
        change), so the generator's checks, the search and the env's engine for
        one problem compute it once.
        """
        init = problem.init
        last = self._last_own
        if last is not None and last[0] is init:
            return last[1], last[2]
        atoms = init if isinstance(init, frozenset) else frozenset(init)
        static = self.shared_static
        own = atoms - static
        bits: int | None = None
        if len(atoms) - len(own) == len(static):
            bits = 0
            bit, fold = self.task.bit, self.fold
            for a in own:
                b = None if a[0] in fold else bit.get(a)
                if b is None:
                    bits = None
                    break
                bits |= b
        if type(init) is frozenset:
            self._last_own = (init, own, bits)
        return own, bits

    def has_objects(self, problem: Problem) -> bool:
        """Whether ``problem`` is of this grounding's domain with its objects (the last match kept by identity)."""
        objects = problem.objects
        if objects is self._last_objects:
            return problem.domain == self.domain.name
        ok = problem.domain == self.domain.name and frozenset(objects) == self.object_set
        if ok and type(objects) is tuple:
            self._last_objects = objects
        return ok

    def matches(self, problem: Problem) -> bool:
        """Whether ``problem`` has this grounding's objects and shared static atoms."""
        return (
            problem.domain == self.domain.name
            and frozenset(problem.objects) == self.object_set
            and frozenset(a for a in problem.init if a[0] in self.fold) == self.shared_static
        )

    def bind(self, problem: Problem, internal: tuple[str, ...] = ()) -> "SharedGroundedEngine":
        return SharedGroundedEngine(self, problem)

    def find(self, state: int, key: tuple) -> GroundAction | None:
        return _select(self._index.get(key, ()), state)


class SharedGroundedEngine(_Stepping):
    """One problem on a :class:`SharedGrounding`: the :class:`GroundedEngine` interface, no grounding of its own.

    States are ints over the shared grounding's atoms; ``true_atoms``,
    ``atom_strings``, ``is_goal`` and ``step`` give what a per-problem
    :class:`GroundedEngine` gives for the same problem.
    """

    def __init__(self, shared: SharedGrounding, problem: Problem):
        self.shared = shared
        self.domain = shared.domain
        self.problem = problem
        self.task = shared.task
        self._find = shared.find
        self.internal_keys = shared.internal_keys
        self._limit = shared._limit
        self._use_index(shared._index)
        self._stuck_tables = shared._stuck_tables  # its verdicts hold for every problem on the grounding
        bit = shared.task.bit
        fold = shared.fold
        static = shared.shared_static
        own, init = shared.own_bits(problem) if shared.has_objects(problem) else ((), None)
        if init is None:
            raise ProblemError(
                f"problem {problem.name!r} does not share this grounding's objects and "
                f"{'/'.join(sorted(fold))} atoms"
            )
        self.init = init
        self._use_chains(shared.chains_for(own))
        self.goal_reachable_statically = all(a in static for a in problem.goal if a[0] in fold) and not any(
            a in static for a in problem.negative_goal if a[0] in fold
        )
        self.goal_pos = 0
        for a in problem.goal:
            if a[0] not in fold:
                self.goal_pos |= bit[a]
        self.goal_neg = 0
        for a in problem.negative_goal:
            if a[0] not in fold and a in bit:
                self.goal_neg |= bit[a]

    @classmethod
    def from_bits(cls, shared: SharedGrounding, init: int, goal_pos: int, goal_neg: int, problem_of) -> "SharedGroundedEngine":
        """The engine of a problem given as its bits over ``shared`` (what :meth:`SharedGrounding.own_bits`
        and the goal masks of ``__init__`` read off it), built without the :class:`Problem`.

        ``problem_of()`` returns that problem; ``engine.problem`` calls it when first read. For a
        grounding without internal actions (compiled chains rest on a problem's own atoms), and a
        goal with no static atom of the shared grid (its bits say everything).
        """
        if shared.internal_keys:
            raise ProblemError("from_bits: a grounding with internal actions needs the problem's own atoms")
        self = _LazyProblemEngine.__new__(_LazyProblemEngine)
        self.shared = shared
        self.domain = shared.domain
        self._problem, self._problem_of = None, problem_of
        self.task = shared.task
        self._find = shared.find
        self.internal_keys = shared.internal_keys
        self._limit = shared._limit
        self._use_index(shared._index)
        self._stuck_tables = shared._stuck_tables
        self.init = init
        self._use_chains(None)
        self.goal_reachable_statically = True
        self.goal_pos, self.goal_neg = goal_pos, goal_neg
        return self

    def initial(self) -> int:
        return self.init

    def true_atoms(self, state: int) -> frozenset[Atom]:
        return self.shared.shared_static.union(self.state_atoms(state))

    def state_atoms(self, state: int) -> list[Atom]:
        """The true atoms of this problem's own, without the grid statics every problem shares (``adj``, ``ray``)."""
        fl = self.task.fluents
        return [fl[i] for i in set_bits(state)]

    def atom_strings(self, state: int) -> list[str]:
        fs = self.shared._fluent_str
        return sorted(self.shared._static_str + [fs[i] for i in set_bits(state)])

    def is_goal(self, state: int) -> bool:
        return self.goal_reachable_statically and state & self.goal_pos == self.goal_pos and not state & self.goal_neg


class _LazyProblemEngine(SharedGroundedEngine):
    """:meth:`SharedGroundedEngine.from_bits`'s engine: ``problem`` is built when first read."""

    @property
    def problem(self) -> Problem:
        if self._problem is None:
            self._problem = self._problem_of()
        return self._problem


_SHARED: dict = {}


def shared_grounding(domain: Domain, objects, shared_static, internal: tuple[str, ...] = ()) -> SharedGrounding:
    """The process's :class:`SharedGrounding` for these arguments (cached)."""
    key = (domain, tuple(objects), frozenset(tuple(a) for a in shared_static), tuple(internal))
    g = _SHARED.get(key)
    if g is None:
        g = _SHARED[key] = SharedGrounding(domain, objects, shared_static, internal)
    return g
