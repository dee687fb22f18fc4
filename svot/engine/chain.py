"""Internal action chains compiled, per agent ground action, into one macro step.

A domain's *internal* actions (a multi-cell move's ``advance``: ``pass``, ``collect``,
``arrive``) run after the agent's action until none applies, so an agent move of
``k`` cells is ``k + 1`` internal steps, each a search among the ground actions
of the internal literals. Most of that search is decided before the state is
seen: what the agent's ground action needs and does, plus the domain's
*at-most-one invariants*, fix the player's cell, the heading and the
destination along the whole chain. :func:`ChainCompiler.macro` executes the
chain symbolically on that knowledge (bits known true or false), once per agent
ground action, and keeps of each step only what the state still decides:

* a *certain* step (its first possible ground action holds on knowledge alone)
  becomes part of the previous effect (masks compose exactly);
* an *open* step keeps its possible ground actions in the engines' order, each
  reduced to the literals knowledge leaves open (e.g. ``(clear c)`` or one
  ``(ball c colour)`` of the next cell), with its full effect; the first that
  holds applies, and if none holds the chain ends there, as stepping would end.

Nothing here names a domain: the invariants are predicate groups that every
operator keeps balanced (see :func:`balanced_groups`), checked against the
problem's initial state by the caller. The compiled form is exact, not an
approximation, under three checks made while compiling (a chain that fails one
is not compiled, and the engines step it as before): the open literals of a
step were not written by an earlier step; what its alternatives write
differently (e.g. the ball, ``got`` and ``clear`` atoms of a cell) is written
by no other step, read by no later one and lies outside the invariant groups;
and the chain ends within a bound. Under them the open literals read the same
values in the state before the chain as stepping reads, so a batched engine may
test them all at once (:mod:`svot.engine.vector_chain`).

Alternatives are tried in grounding order within internal literals taken in
key order, as :class:`~svot.engine.vector.VectorEngine` does; the shipped
domains are deterministic (at most one applies), so every engine agrees.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

from svot.pddl.domain import Domain

_MAX_GROUP_PREDICATES = 2
_MAX_CHAIN = 256  # internal steps followed symbolically before a chain is left to stepping


def balanced(domain: Domain, group: set[str]) -> bool:
    """Every operator that deletes an atom of ``group`` needs it, and adds as many of the group's atoms as it deletes.

    Then no action raises the number of true atoms of the group: if a problem
    starts with at most one, every reachable state has at most one.
    """
    for op in domain.operators:
        added = [a for a in op.add if a[0] in group]
        deleted = [a for a in op.delete if a[0] in group]
        if len(added) != len(deleted) or any(a not in op.pre_pos for a in deleted):
            return False
    return True


def balanced_groups(domain: Domain, max_predicates: int = _MAX_GROUP_PREDICATES) -> list[tuple[str, ...]]:
    """The sets of up to ``max_predicates`` fluent predicates that :func:`balanced` accepts, sorted."""
    fluents = sorted(domain.fluent_predicates - set(domain.action_predicates))
    out = []
    for r in range(1, max_predicates + 1):
        for g in itertools.combinations(fluents, r):
            if balanced(domain, set(g)):
                out.append(g)
    return out


def at_most_one_groups(domain: Domain, inits: Sequence) -> list[tuple[str, ...]]:
    """Balanced groups with at most one true atom in every initial state of ``inits``: invariants of those problems."""
    inits = [tuple(i) for i in inits]
    return [g for g in balanced_groups(domain) if all(sum(1 for a in init if a[0] in g) <= 1 for init in inits)]


@dataclass(frozen=True)
class Alternative:
    """One ground action an open step may apply: ``pos``/``neg`` its literals left open, then its effect.

    ``add``/``delete`` are the ground action's effect composed with the
    certain steps after it (apply as ``(state & ~delete) | add``).
    """

    action: int  # index into the task's ground actions
    pos: int
    neg: int
    add: int
    delete: int


@dataclass(frozen=True)
class Macro:
    """An agent ground action with the internal chain after it, compiled.

    ``known_true``/``known_false``: bits of the state before the step that hold
    whenever the agent's action applies (its preconditions and what the
    invariants imply). ``open_pos``/``open_neg``: the agent action's
    preconditions that the entry knowledge given by the caller left open.
    ``add``/``delete``: the agent action's effect and the certain steps after it.
    ``steps``: the open steps, in order; ``common`` per step: what every one of
    its alternatives writes alike, as (ones, zeros); ``cond``: per step, the bits
    its alternatives write differently.
    """

    agent: int
    open_pos: int
    open_neg: int
    known_true: int
    known_false: int
    add: int
    delete: int
    steps: tuple[tuple[Alternative, ...], ...]
    common: tuple[tuple[int, int], ...]
    cond: tuple[int, ...]

    def run(self, state: int) -> int:
        """The state after the agent's action (assumed applicable) and its chain."""
        state = (state & ~self.delete) | self.add
        for alts in self.steps:
            for alt in alts:
                if state & alt.pos == alt.pos and not state & alt.neg:
                    state = (state & ~alt.delete) | alt.add
                    break
            else:
                break
        return state


def _compose(first: tuple[int, int], then: tuple[int, int]) -> tuple[int, int]:
    """(add, delete) of applying ``first`` then ``then``."""
    return (first[0] & ~then[1]) | then[0], first[1] | then[1]


class ChainCompiler:
    """Compiles the internal chains of one :class:`~svot.engine.grounded.GroundTask` (``macro``, cached).

    ``internal_keys``: the internal action literals in the order stepping
    tries them; ``groups``: at-most-one invariants as predicate tuples (they
    must hold in every problem the compiled macros are used on).
    """

    def __init__(self, task, internal_keys: Sequence[tuple], groups: Sequence[tuple[str, ...]]):
        self.task = task
        self.actions = task.actions
        pred_bits: dict[str, int] = {}
        for atom, b in task.bit.items():
            pred_bits[atom[0]] = pred_bits.get(atom[0], 0) | b
        self.group_masks = [m for m in (sum(pred_bits.get(p, 0) for p in g) for g in groups) if m]
        self.group_bits = 0
        for m in self.group_masks:
            self.group_bits |= m
        rank = {k: j for j, k in enumerate(internal_keys)}
        internal = sorted((rank[ga.key], i) for i, ga in enumerate(self.actions) if ga.key in rank)
        self._order = {i: n for n, (_, i) in enumerate(internal)}
        # internal actions by one group bit they need (the lowest), so a step looks only at the
        # actions whose bit is not known false; actions needing no group bit are always looked at
        self._by_bit: dict[int, list[int]] = {}
        self._loose: list[int] = []
        for _, i in internal:
            need = self.actions[i].pos & self.group_bits
            if need:
                self._by_bit.setdefault(need & -need, []).append(i)
            else:
                self._loose.append(i)
        self._cache: dict[tuple, Macro | None] = {}

    def closure(self, k1: int, k0: int) -> tuple[int, int] | None:
        """Knowledge extended by the invariants (a true atom of a group makes the others false); None if contradictory."""
        for m in self.group_masks:
            t = k1 & m
            if t:
                if t & (t - 1):
                    return None
                k0 |= m & ~t
        if k1 & k0:
            return None
        return k1, k0

    def _candidates(self, k0: int) -> list[int]:
        out = [i for b, acts in self._by_bit.items() if not b & k0 for i in acts]
        out += self._loose
        out.sort(key=self._order.__getitem__)
        return out

    def macro(self, agent: int, known_true: int = 0, known_false: int = 0) -> Macro | None:
        """Agent ground action ``agent`` and its chain, given bits known of the state before it; None if not compilable."""
        key = (agent, known_true, known_false)
        if key not in self._cache:
            self._cache[key] = self._compile(agent, known_true, known_false)
        return self._cache[key]

    def _compile(self, agent: int, k1: int, k0: int) -> Macro | None:
        ga = self.actions[agent]
        if ga.pos & k0 or ga.neg & k1:
            return None  # never applicable under this knowledge: nothing to compile
        open_pos, open_neg = ga.pos & ~k1, ga.neg & ~k0
        known = self.closure(k1 | ga.pos, k0 | ga.neg)
        if known is None:
            return None
        entry = known
        known = self._apply(known, ga.add, ga.delete)
        if known is None:
            return None
        k1, k0 = known
        head = (ga.add, ga.delete)
        written = ga.add | ga.delete
        dirty = 0
        steps: list[list[Alternative]] = []
        common: list[tuple[int, int]] = []
        cond: list[int] = []
        for _ in range(_MAX_CHAIN):
            alts: list[tuple[int, int, int]] = []
            for i in self._candidates(k0):
                c = self.actions[i]
                if c.pos & k0 or c.neg & k1:
                    continue
                p, n = c.pos & ~k1, c.neg & ~k0
                if (p | n) & dirty:
                    return None  # would read what an earlier step may have written
                alts.append((i, p, n))
                if not p and not n:
                    break  # holds for sure: the ones after it are never tried
            if not alts:
                break  # no internal action can apply: the chain ends
            if len(alts) == 1 and not alts[0][1] and not alts[0][2]:
                c = self.actions[alts[0][0]]
                if (c.add | c.delete) & dirty:
                    return None
                eff = (c.add, c.delete)
                if steps:
                    steps[-1] = [Alternative(a.action, a.pos, a.neg, *_compose((a.add, a.delete), eff)) for a in steps[-1]]
                    common[-1] = self._common(steps[-1])[:2]
                else:
                    head = _compose(head, eff)
                known = self._apply((k1, k0), c.add, c.delete)
                if known is None:
                    return None
                k1, k0 = known
                written |= c.add | c.delete
                continue
            step = [Alternative(i, p, n, self.actions[i].add, self.actions[i].delete) for i, p, n in alts]
            ones, zeros, differ = self._common(step)
            if differ & (written | dirty | self.group_bits) or (ones | zeros) & dirty:
                return None
            steps.append(step)
            common.append((ones, zeros))
            cond.append(differ)
            known = self.closure(((k1 & ~zeros) | ones) & ~differ, ((k0 & ~ones) | zeros) & ~differ)
            if known is None:
                return None
            k1, k0 = known
            written |= ones | zeros
            dirty |= differ
        else:
            return None  # did not end within the bound: leave it to stepping (which reports a loop)
        return Macro(agent, open_pos, open_neg, entry[0], entry[1], head[0], head[1],
                     tuple(tuple(s) for s in steps), tuple(common), tuple(cond))

    @staticmethod
    def _common(step: Sequence[Alternative]) -> tuple[int, int, int]:
        """(ones, zeros, differ): bits every alternative sets to 1 / to 0, and the bits they write differently."""
        ones = zeros = -1
        touched = 0
        for a in step:
            ones &= a.add
            zeros &= a.delete & ~a.add
            touched |= a.add | a.delete
        return ones, zeros, touched & ~(ones | zeros)

    def _apply(self, known: tuple[int, int], add: int, delete: int) -> tuple[int, int] | None:
        """Knowledge after an effect (None: it contradicts an invariant, which then does not hold here)."""
        k1, k0 = known
        return self.closure((k1 & ~delete) | add, (k0 & ~add) | (delete & ~add))
