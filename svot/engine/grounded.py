"""The grounded engine: operators instantiated once per problem, stepped on bitsets.

Grounding joins each operator's static preconditions (adjacency, walls...)
against the problem's static atoms, so those predicates are folded away; what
remains per ground action is four bitmasks over the fluent atoms: positive and
negative preconditions, add and delete effects. A state is one Python ``int``.

Ground actions are indexed by the agent's action literal and, within it, by a
"pivot": the positive fluent precondition of the operator whose predicate has
the fewest true atoms initially (the player's position, typically). A step then
looks only at the ground actions whose pivot atom is true.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from svot.errors import ProblemError
from svot.pddl.domain import Domain, Operator
from svot.pddl.problem import Atom, Problem, atom_str


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
                new = dict(binding)
                for var, obj in zip(atom[1], fact):
                    if var.startswith("?"):
                        if new.setdefault(var, obj) != obj:
                            break
                    elif var != obj:
                        break
                else:
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
        self._index = self._build_index(grounded)
        goal_static = [a for a in problem.goal if a[0] in self.fold]
        self.goal_reachable_statically = all(a in self.static_atoms for a in goal_static) and not any(
            a in self.static_atoms for a in problem.negative_goal if a[0] in self.fold
        )
        self.goal_pos = mask(a for a in problem.goal if a[0] not in self.fold)
        self.goal_neg = mask(a for a in problem.negative_goal if a[0] not in self.fold and a in self.bit)

    def _build_index(self, grounded) -> dict:
        init_counts: dict[str, int] = {}
        for a in self.problem.init:
            init_counts[a[0]] = init_counts.get(a[0], 0) + 1
        pivot_of: dict[str, str | None] = {}
        for op in self.domain.operators:
            candidates = sorted(
                {p for p, _ in op.pre_pos if p not in self.fold}, key=lambda p: (init_counts.get(p, 0), p)
            )
            pivot_of[op.name] = candidates[0] if candidates else None
        pred_mask: dict[str, int] = {}
        for atom, b in self.bit.items():
            pred_mask[atom[0]] = pred_mask.get(atom[0], 0) | b
        # key -> list of (pivot predicate mask, {pivot bit: [actions]}, [unpivoted actions])
        index: dict[tuple, dict] = {}
        for ga, (op, _binding, (pos, _n, _a, _d)) in zip(self.actions, grounded):
            groups = index.setdefault(ga.key, {})
            pivot = pivot_of[op.name]
            if pivot is None:
                groups.setdefault(None, []).append(ga)
                continue
            pivot_atom = min(a for a in pos if a[0] == pivot)
            groups.setdefault(pivot, {}).setdefault(self.bit[pivot_atom], []).append(ga)
        out = {}
        for key, groups in index.items():
            entries = []
            for pivot in sorted(p for p in groups if p is not None):
                entries.append((pred_mask[pivot], groups[pivot], ()))
            if None in groups:
                entries.append((0, {}, tuple(groups[None])))
            out[key] = tuple(entries)
        return out

    # --- stepping -------------------------------------------------------------
    def find(self, state: int, key: tuple) -> GroundAction | None:
        """The ground action ``key`` selects in ``state``, or None."""
        for pmask, table, unpivoted in self._index.get(key, ()):
            x = state & pmask
            while x:
                low = x & -x
                for ga in table.get(low, ()):
                    if state & ga.pos == ga.pos and not state & ga.neg:
                        return ga
                x ^= low
            for ga in unpivoted:
                if state & ga.pos == ga.pos and not state & ga.neg:
                    return ga
        return None

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


class GroundedEngine:
    """:class:`GroundTask` behind the :class:`~svot.engine.base.Engine` interface."""

    def __init__(self, domain: Domain, problem: Problem, internal: tuple[str, ...] = ()):
        self.domain = domain
        self.problem = problem
        self.task = GroundTask(domain, problem)
        self.internal_keys = tuple(k for k in self.task.keys() if k[0] in internal)
        self._limit = len(self.task.actions) + 1

    def initial(self) -> int:
        return self.task.init

    def step(self, state: int, action: tuple) -> tuple[int, bool]:
        ga = self.task.find(state, action)
        if ga is None:
            return state, False
        state = (state & ~ga.delete) | ga.add
        if self.internal_keys:
            state = self.settle(state)
        return state, True

    def trace(self, state: int, action: tuple) -> tuple[int, list[GroundAction]]:
        """Like :meth:`step`, but returns the ground actions applied (internal ones included)."""
        ga = self.task.find(state, action)
        if ga is None:
            return state, []
        applied = [ga]
        state = ga.apply(state)
        for _ in range(self._limit):
            for key in self.internal_keys:
                nxt = self.task.find(state, key)
                if nxt is not None:
                    applied.append(nxt)
                    state = nxt.apply(state)
                    break
            else:
                return state, applied
        raise ProblemError(f"internal actions of {self.domain.name!r} did not settle: the domain loops")

    def settle(self, state: int) -> int:
        """Apply internal action literals while one applies (a macro action completing)."""
        for _ in range(self._limit):
            for key in self.internal_keys:
                ga = self.task.find(state, key)
                if ga is not None:
                    state = (state & ~ga.delete) | ga.add
                    break
            else:
                return state
        raise ProblemError(f"internal actions of {self.domain.name!r} did not settle: the domain loops")

    def true_atoms(self, state: int) -> frozenset[Atom]:
        return self.task.true_atoms(state)

    def atom_strings(self, state: int) -> list[str]:
        return self.task.atom_strings(state)

    def is_goal(self, state: int) -> bool:
        return self.task.is_goal(state)
