"""Canonical text of a rule AST; ``parse_formula(format_formula(f)) == f``.

Spelling: ``Zone(t,"pink")``, ``Move(t-1,"up")``, ``Seen("Key")``,
``Count("Food",>=,3)``, ``TargetIs("Treasure")``; connectives upper case with
single spaces. Parentheses are added whenever a binary operand is itself a
binary formula of a different connective (for readability), and where
associativity requires them (``A AND (B AND C)``, ``(A -> B) -> C``).
"""

from __future__ import annotations

from svot.rulemaze import symbols as S
from svot.rulemaze.rules import ast as A

_NAMES = {A.And: "AND", A.Or: "OR", A.Implies: "->"}


def _time(offset: int) -> str:
    return "t" if offset == 0 else f"t{offset:+d}"


def _val(v: str) -> str:
    return '"' + S.DISPLAY.get(v, v) + '"'


def format_atom(node) -> str:
    if isinstance(node, A.Zone):
        return f"Zone({_time(node.offset)},{_val(node.colour)})"
    if isinstance(node, A.Move):
        return f"Move({_time(node.offset)},{_val(node.direction)})"
    if isinstance(node, A.Seen):
        return f"Seen({_val(node.item)})"
    if isinstance(node, A.Moved):
        return f"Moved({_val(node.direction)})"
    if isinstance(node, A.Count):
        return f"Count({_val(node.item)},{node.op},{node.value})"
    if isinstance(node, A.TargetIs):
        return f"TargetIs({_val(node.target)})"
    raise TypeError(f"not a rule atom: {node!r}")


def format_formula(node) -> str:
    """The canonical rule text of ``node``."""
    if A.is_atom(node):
        return format_atom(node)
    if isinstance(node, A.Not):
        inner = format_formula(node.operand)
        if isinstance(node.operand, A.BINARY):
            inner = f"({inner})"
        return "NOT " + inner
    if isinstance(node, A.BINARY):
        kind = type(node)
        left, right = format_formula(node.left), format_formula(node.right)
        if isinstance(node.left, A.BINARY) and (type(node.left) is not kind or kind is A.Implies):
            left = f"({left})"
        if isinstance(node.right, A.BINARY) and (type(node.right) is not kind or kind is not A.Implies):
            right = f"({right})"
        return f"{left} {_NAMES[kind]} {right}"
    raise TypeError(f"not a rule formula: {node!r}")
