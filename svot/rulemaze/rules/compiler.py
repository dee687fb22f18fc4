"""Compile a rule formula into a validator for complete and partial trajectories.

Semantics (see :mod:`svot.rulemaze.trajectory` for steps):

* ``Zone(t+k, c)`` holds when the cell at step ``t+k`` shows ``c``; it *exists*
  when ``0 <= t+k <= T``.
* ``Move(t+k, d)`` holds when the move taken from step ``t+k`` is ``d``; it
  exists when ``0 <= t+k <= T-1`` (the last step has no move).
* Start/goal exemption (the authors' ``valid_defaults = {"green", "red"}``):
  in a rule *without a condition* (no ``->`` anywhere), a ``Zone`` atom naming
  a zone colour (anything but ``green`` / ``red``) does not see the start and
  goal cells: an instance at which such an atom would look at a cell showing
  ``green`` or ``red`` is exempt. So "only walk on pink" (``Zone(t,"pink")``)
  holds on the green start and the red goal, as in the authors' "Type A,
  global positive" validators. In a conditional rule (the authors' "Type C",
  valid_defaults not applied) and for atoms naming ``green`` / ``red`` every
  cell is seen: ``Zone(t,"blue_green") -> Zone(t+1,"yellow")`` is broken by
  stepping from blue-green onto the red goal. Prohibitions are unaffected (a
  start or goal cell never shows a zone colour).
* A formula with time-indexed terms must hold at every step ``t`` in ``0..T``
  at which all of its time-indexed terms exist and none is exempt; other
  steps impose nothing, and a trajectory too short for any such step
  satisfies the rule vacuously.
* History atoms are evaluated over the whole trajectory (steps ``0..T``):

  - ``Count(X, op, v)``: the number of steps showing item ``X`` (for
    ``Total_Items`` any item), compared with ``v``. Items are collected on
    first entry, so a trajectory built from a maze counts each item cell once.
  - ``Seen(X)`` is ``Count(X, >=, 1)``: an ``X`` item was entered at some step.
  - ``Moved(d)``: some move of the trajectory is ``d``.
  - ``TargetIs(X)``: the final cell (step ``T``) holds target ``X``.

  Inside a time-indexed formula a history atom has the same (whole-trajectory)
  value at every step.

Partial trajectories
--------------------
:meth:`Validator.status` answers ``"violated"`` only when *no* extension of
the prefix (by any further moves and cells, including stopping right here)
can satisfy the rule, so a search may prune on it. It evaluates the formula
in Kleene three-valued logic:

* an instance at step ``t`` is judged only if all its time-indexed terms
  already exist in the prefix (they cannot change later; every extension
  requires that instance);
* history atoms take the value every extension agrees on, else "unknown":
  ``Seen``/``Moved`` once true stay true; a count can only grow, so
  ``Count(X, <=, v)`` becomes definitely false once the count exceeds ``v``
  and ``Count(X, >=, v)`` definitely true once it reaches ``v``;
  ``TargetIs`` is unknown until the trajectory ends.

A definite False of a judged instance means every extension violates it. The
answer is sound but not complete (e.g. ``Seen("Key") AND NOT Seen("Key")`` is
never reported early).
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import Callable

from svot.rulemaze import symbols as S
from svot.rulemaze.errors import RuleError
from svot.rulemaze.rules import ast as A
from svot.rulemaze.rules.parser import MAX_DEPTH, parse_formula
from svot.rulemaze.trajectory import Trajectory
from svot.rulemaze.rules.printer import format_formula

VIOLATED = "violated"
OK_SO_FAR = "ok_so_far"

COMPARE: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt, "<=": operator.le, "==": operator.eq, ">=": operator.ge, ">": operator.gt}

# A compiled node: fn(symbols, actions, history_values, t) -> True / False / None
Node = Callable[[tuple, tuple, dict, int], "bool | None"]


def _compile(node) -> Node:
    if isinstance(node, A.Zone):
        k, colour = node.offset, node.colour
        return lambda s, a, h, t: s[t + k] == colour
    if isinstance(node, A.Move):
        k, direction = node.offset, node.direction
        return lambda s, a, h, t: a[t + k] == direction
    if isinstance(node, A.HISTORY_ATOMS):
        return lambda s, a, h, t: h[node]
    if isinstance(node, A.Not):
        f = _compile(node.operand)

        def neg(s, a, h, t):
            v = f(s, a, h, t)
            return None if v is None else not v
        return neg
    if isinstance(node, A.And):
        f, g = _compile(node.left), _compile(node.right)

        def conj(s, a, h, t):
            x = f(s, a, h, t)
            if x is False:
                return False
            y = g(s, a, h, t)
            if y is False:
                return False
            return True if (x and y) else None
        return conj
    if isinstance(node, A.Or):
        f, g = _compile(node.left), _compile(node.right)

        def disj(s, a, h, t):
            x = f(s, a, h, t)
            if x is True:
                return True
            y = g(s, a, h, t)
            if y is True:
                return True
            return False if (x is False and y is False) else None
        return disj
    if isinstance(node, A.Implies):
        f, g = _compile(node.left), _compile(node.right)

        def impl(s, a, h, t):
            x = f(s, a, h, t)
            if x is False:
                return True
            y = g(s, a, h, t)
            if y is True:
                return True
            return False if (x is True and y is False) else None
        return impl
    raise TypeError(f"not a rule formula: {node!r}")


def _count(symbols: tuple, item: str) -> int:
    if item == S.TOTAL_ITEMS:
        return sum(1 for s in symbols if s in S.ITEMS)
    return sum(1 for s in symbols if s == item)


def _possible(op: str, current: int, bound: int) -> bool | None:
    """Value of ``n op bound`` shared by every ``n >= current``, else None.

    Closed form, O(1) in ``bound``: ``n`` can still grow without limit, so
    ``>``/``>=`` are settled only once true and ``<``/``<=``/``==`` only once false.
    """
    if op in (">", ">="):
        return True if COMPARE[op](current, bound) else None
    if op in ("<", "<="):
        return False if not COMPARE[op](current, bound) else None
    return False if current > bound else None  # "==": true now (n == bound) is not shared by n + 1


class Validator:
    """An executable rule: :meth:`check` for complete, :meth:`status` for partial trajectories.

    Build one with :func:`compile_rule`. Validators are stateless and reusable.
    """

    def __init__(self, formula):
        self.formula = formula
        self.text = format_formula(formula)
        self._fn = _compile(formula)
        nodes = A.atoms(formula)
        self._history = tuple(dict.fromkeys(a for a in nodes if isinstance(a, A.HISTORY_ATOMS)))
        timed = [a for a in nodes if isinstance(a, A.TIME_ATOMS)]
        self.time_indexed = bool(timed)
        # t must satisfy t + k >= 0 for every term, t + k <= T for Zone, <= T - 1 for Move.
        self._t_min = max([0] + [-a.offset for a in timed])
        self._t_slack = min([0] + [-a.offset - (1 if isinstance(a, A.Move) else 0) for a in timed])
        # offsets of Zone atoms that do not see the start / goal cells (valid_defaults)
        conditional = any(isinstance(n, A.Implies) for n in A.walk(formula))
        self._exempt_offsets = () if conditional else tuple(sorted(
            {a.offset for a in timed if isinstance(a, A.Zone) and a.colour not in S.ZONE_EXEMPT}))

    def __repr__(self) -> str:
        return f"Validator({self.text!r})"

    # ------------------------------------------------------------------ internals
    def _steps(self, traj: Trajectory) -> list[int]:
        """The steps t at which every time-indexed term exists and no zone term is exempt."""
        s, ks = traj.symbols, self._exempt_offsets
        return [t for t in range(self._t_min, traj.length + self._t_slack + 1)
                if not any(s[t + k] in S.ZONE_EXEMPT for k in ks)]

    def _history_values(self, traj: Trajectory, final: bool) -> dict:
        values = {}
        for atom in self._history:
            if isinstance(atom, A.Seen):
                c = _count(traj.symbols, atom.item)
                values[atom] = c >= 1 if final else (True if c >= 1 else None)
            elif isinstance(atom, A.Count):
                c = _count(traj.symbols, atom.item)
                values[atom] = COMPARE[atom.op](c, atom.value) if final else _possible(
                    atom.op, c, atom.value)
            elif isinstance(atom, A.Moved):
                moved = atom.direction in traj.actions
                values[atom] = moved if final else (True if moved else None)
            else:  # TargetIs
                values[atom] = traj.symbols[-1] == atom.target if final else None
        return values

    # ------------------------------------------------------------------ API
    def violations(self, traj: Trajectory) -> list[int]:
        """Steps ``t`` at which a complete trajectory breaks the rule (``[0]`` for a
        broken history-only rule); empty when it complies."""
        h = self._history_values(traj, final=True)
        s, a = traj.symbols, traj.actions
        if not self.time_indexed:
            return [] if self._fn(s, a, h, 0) else [0]
        return [t for t in self._steps(traj) if not self._fn(s, a, h, t)]

    def check(self, traj: Trajectory) -> bool:
        """Whether the complete trajectory ``traj`` satisfies the rule."""
        h = self._history_values(traj, final=True)
        s, a, fn = traj.symbols, traj.actions, self._fn
        if not self.time_indexed:
            return bool(fn(s, a, h, 0))
        return all(fn(s, a, h, t) for t in self._steps(traj))

    def status(self, partial: Trajectory) -> str:
        """``"violated"`` when no extension of ``partial`` can satisfy the rule,
        else ``"ok_so_far"`` (see the module docstring)."""
        h = self._history_values(partial, final=False)
        s, a, fn = partial.symbols, partial.actions, self._fn
        if not self.time_indexed:
            return VIOLATED if fn(s, a, h, 0) is False else OK_SO_FAR
        for t in self._steps(partial):
            if fn(s, a, h, t) is False:
                return VIOLATED
        return OK_SO_FAR

    __call__ = check

    def __reduce__(self):
        # the compiled closures cannot be pickled; the formula can, and recompiling it is cheap
        return (Validator, (self.formula,))


@lru_cache(maxsize=1024)
def _cached(formula) -> Validator:
    return Validator(formula)


def compile_rule(rule, scenario: str | None = None) -> Validator:
    """A :class:`Validator` for a rule given as text, AST or :class:`~.record.Rule`."""
    if isinstance(rule, str):
        return _cached(parse_formula(rule, scenario))
    formula = getattr(rule, "formula", rule)
    if not isinstance(formula, A.ATOM_TYPES + (A.Not,) + A.BINARY):
        raise TypeError(f"cannot compile {rule!r}: expected rule text, a formula or a Rule")
    h = A.height(formula)  # a tree built in code skips the parser's bound: check it before hashing it
    if h > MAX_DEPTH:
        raise RuleError(f"formula is {h} levels deep; at most {MAX_DEPTH} (split the rule)", "", 0)
    return _cached(formula)
