"""A deliberately naive reference evaluator, independent of :mod:`.compiler`.

For every step ``t`` in ``0..T`` it checks term by term whether each
time-indexed atom exists, builds the truth assignment of all atoms at that
step (history atoms recomputed from scratch by scanning the trajectory),
skips the step when, in a rule without ``->``, a Zone atom of a zone colour
looks at a green or red cell, and
evaluates the formula tree with Python booleans. Used by the tests to
cross-check compiled validators.
"""

from __future__ import annotations

from svot.rulemaze import symbols as S
from svot.rulemaze.rules import ast as A


def _exists(atom, t: int, T: int) -> bool:
    i = t + atom.offset
    if isinstance(atom, A.Zone):
        return 0 <= i <= T
    return 0 <= i <= T - 1


def _exempt(atom, t: int, symbols) -> bool:
    """A zone-colour Zone atom looking at a green/red cell (the authors' valid_defaults)."""
    if not isinstance(atom, A.Zone) or atom.colour in ("green", "red"):
        return False
    return symbols[t + atom.offset] in ("green", "red")


def _atom_value(atom, symbols, actions, t) -> bool:
    if isinstance(atom, A.Zone):
        return symbols[t + atom.offset] == atom.colour
    if isinstance(atom, A.Move):
        return actions[t + atom.offset] == atom.direction
    if isinstance(atom, A.Moved):
        return any(x == atom.direction for x in actions)
    if isinstance(atom, A.TargetIs):
        return symbols[len(symbols) - 1] == atom.target
    n = 0
    for s in symbols:
        if (s in S.ITEMS) if atom.item == S.TOTAL_ITEMS else (s == atom.item):
            n += 1
    if isinstance(atom, A.Seen):
        return n > 0
    return {"<": n < atom.value, "<=": n <= atom.value, "==": n == atom.value,
            ">=": n >= atom.value, ">": n > atom.value}[atom.op]


def _eval(node, row: dict) -> bool:
    if isinstance(node, A.Not):
        return not _eval(node.operand, row)
    if isinstance(node, A.And):
        return _eval(node.left, row) and _eval(node.right, row)
    if isinstance(node, A.Or):
        return _eval(node.left, row) or _eval(node.right, row)
    if isinstance(node, A.Implies):
        return (not _eval(node.left, row)) or _eval(node.right, row)
    return row[node]


def _implication_marks(node) -> str:
    """"->" for every implication node under ``node`` (a naive tree scan)."""
    if isinstance(node, A.Implies):
        return "->" + _implication_marks(node.left) + _implication_marks(node.right)
    if isinstance(node, A.Not):
        return _implication_marks(node.operand)
    if isinstance(node, (A.And, A.Or)):
        return _implication_marks(node.left) + _implication_marks(node.right)
    return ""


def brute_force_check(formula, symbols, actions) -> bool:
    """Whether the complete trajectory (``symbols[0..T]``, ``actions[0..T-1]``) satisfies ``formula``."""
    symbols, actions = list(symbols), list(actions)
    T = len(actions)
    assert len(symbols) == T + 1
    all_atoms = A.atoms(formula)
    timed = [a for a in all_atoms if isinstance(a, (A.Zone, A.Move))]
    if not timed:
        row = {a: _atom_value(a, symbols, actions, 0) for a in all_atoms}
        return _eval(formula, row)
    unconditional = "->" not in _implication_marks(formula)
    for t in range(T + 1):
        if all(_exists(a, t, T) for a in timed) and not (
                unconditional and any(_exempt(a, t, symbols) for a in timed)):
            row = {a: _atom_value(a, symbols, actions, t) for a in all_atoms}
            if not _eval(formula, row):
                return False
    return True
