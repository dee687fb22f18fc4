"""The rule AST: immutable, hashable dataclasses.

Atoms
-----
* :class:`Zone` ``Zone(t+k, "colour")``: step ``t+k`` is a cell of that colour.
* :class:`Move` ``Move(t+k, "dir")``: the move taken from step ``t+k`` is ``dir``.
* :class:`Seen` ``Seen("Key")``: an item of that kind was collected.
* :class:`Moved` ``Moved("left")``: that move was made at least once.
* :class:`Count` ``Count("Food", >=, 3)``: number of items collected compared to a bound.
* :class:`TargetIs` ``TargetIs("Treasure")``: the trajectory ends on that target.

``Zone`` and ``Move`` are *time-indexed* (``offset`` is ``k`` in ``t+k``); the
others are *history* atoms evaluated over the whole trajectory.

Connectives: :class:`Not`, and the binary :class:`And`, :class:`Or`,
:class:`Implies` (material implication). Values are stored lower case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Union


@dataclass(frozen=True)
class Zone:
    offset: int
    colour: str


@dataclass(frozen=True)
class Move:
    offset: int
    direction: str


@dataclass(frozen=True)
class Seen:
    item: str


@dataclass(frozen=True)
class Moved:
    direction: str


@dataclass(frozen=True)
class Count:
    item: str
    op: str
    value: int


@dataclass(frozen=True)
class TargetIs:
    target: str


@dataclass(frozen=True)
class Not:
    operand: "Formula"


@dataclass(frozen=True)
class And:
    left: "Formula"
    right: "Formula"


@dataclass(frozen=True)
class Or:
    left: "Formula"
    right: "Formula"


@dataclass(frozen=True)
class Implies:
    left: "Formula"
    right: "Formula"


Atom = Union[Zone, Move, Seen, Moved, Count, TargetIs]
Formula = Union[Atom, Not, And, Or, Implies]

TIME_ATOMS = (Zone, Move)
HISTORY_ATOMS = (Seen, Moved, Count, TargetIs)
ATOM_TYPES = TIME_ATOMS + HISTORY_ATOMS
#: The rule language's two families; a scenario writes its rules in one (its ``rule_family``).
FAMILIES = {"time-indexed": TIME_ATOMS, "history": HISTORY_ATOMS}
BINARY = (And, Or, Implies)


def is_atom(node) -> bool:
    return isinstance(node, ATOM_TYPES)


def children(node) -> tuple:
    if isinstance(node, Not):
        return (node.operand,)
    if isinstance(node, BINARY):
        return (node.left, node.right)
    return ()


def walk(node) -> Iterator:
    """Every node of the formula, pre-order, left to right."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(children(n)))


def atoms(node) -> list:
    """The atoms of the formula, left to right (repeats kept)."""
    return [n for n in walk(node) if is_atom(n)]


def height(node) -> int:
    """The number of levels of the formula (an atom is 1); iterative, so any tree can be measured."""
    best = 0
    stack = [(node, 1)]
    while stack:
        n, h = stack.pop()
        best = max(best, h)
        stack.extend((c, h + 1) for c in children(n))
    return best
