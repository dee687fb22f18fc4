"""How the datasets put a domain into words: the phrase type, argument formats, generic defaults.

A leaf of :mod:`svot.kernel` (it imports only :mod:`svot.kernel.grid` and
:mod:`svot.pddl`), so both a domain's own wording (``svot/domains/<name>/wording.py``)
and the shared dataset layer (:mod:`svot.dataset.wording`, which re-exports these
names) can use it. The ``generic_*`` functions are what a domain registered
from outside gets when it gives no wording of its own: words derived from its
PDDL predicate and operator names, its kinds and its fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from svot.kernel.grid import parse_cell
from svot.numbers import is_ascii_digits
from svot.pddl.domain import Operator

BESIDE = {"up": "above", "down": "below", "left": "left of", "right": "right of"}

# The coordinate convention every description states (its grid-size line is formatted in).
COORDS = (
    "Cells are written (row, column): (0, 0) is the top-left cell, rows grow downwards "
    "and columns grow to the right; the grid has rows and columns 0 to {last}."
)


def coordinates_text(size: int) -> str:
    return COORDS.format(last=size - 1)


def fmt_cell(cell) -> str:
    return f"({int(cell[0])}, {int(cell[1])})"


def fmt_arg(arg: str | None) -> str | None:
    """A PDDL object as text: ``c_2_3`` → ``(2, 3)``, ``k3`` → ``3``, others unchanged."""
    if arg is None:
        return None
    if arg.startswith("c_"):
        try:
            return fmt_cell(parse_cell(arg))
        except Exception:  # noqa: BLE001 - not a cell name after all
            return arg
    if len(arg) > 1 and arg[0] == "k" and is_ascii_digits(arg[1:]):
        return arg[1:]
    return arg


def cells_word(k) -> str:
    return f"{k} cell" if str(k) == "1" else f"{k} cells"


def fmt_cells(cells) -> str:
    """A list of cells as an answer writes it: ``(1, 2), (3, 3)``, or ``none``."""
    return ", ".join(fmt_cell(c) for c in cells) or "none"


@dataclass(frozen=True)
class Phrase:
    """How one predicate reads as a precondition.

    ``subject``: index of the argument the phrase is about (checks are grouped
    by it). ``pos``/``neg``: the words when a positive / negative precondition
    holds (``"is inside the grid"``, ``"is not a wall"``); ``pos_fail`` /
    ``neg_fail``: a whole clause when it fails, formatted with the arguments.
    ``reason``: the keyword a failure reports as ``blocked_by``.
    """

    subject: int
    pos: str = ""
    neg: str = ""
    pos_fail: str | Callable = ""
    neg_fail: str | Callable = ""
    reason: str = ""


def _edge(args: list) -> str:
    return f"there is no cell {BESIDE.get(args[1], args[1])} {args[0]} (the grid's edge)"


def _ray_edge(args: list) -> str:
    return f"moving {args[1]} {cells_word(args[2])} from {args[0]} would cross the grid's edge"


SIDES = {"up": "upper", "down": "lower", "left": "left", "right": "right"}


def _closed_side(args: list) -> str:
    # the move's target cell is unbound when no passage leads that way: the wall is named by its side
    return f"a wall closes the {SIDES.get(args[1], args[1])} side of {args[0]}"


#: A walled grid's passages, (open ?from ?dir ?to) (svot.domains.passages): the border is walled too.
PASSAGE = Phrase(subject=0, pos="has an open passage {1}", pos_fail=_closed_side, reason="wall")

# Phrases of the grid predicates (svot.kernel.grid) and the commonest obstacle.
ADJ = Phrase(subject=2, pos="is inside the grid", pos_fail=_edge, reason="edge")
RAY = Phrase(subject=3, pos="is inside the grid", pos_fail=_ray_edge, reason="edge")
WALL = Phrase(subject=0, neg="is not a wall", neg_fail="{0} is a wall", reason="wall")


# --------------------------------------------------------------------------- generic defaults


def generic_phrase(pred: str) -> Phrase:
    """A predicate no table phrases, read from its name: ``(0, 1) is lamp`` / ``is not lamp``.

    Arguments after the first follow the name (``ball ?c ?colour``: ``(0, 1) is ball red``).
    """
    return Phrase(
        subject=0,
        pos=f"is {pred}",
        neg=f"is not {pred}",
        pos_fail=lambda args: f"{args[0]} is not {_with_rest(pred, args)}",
        neg_fail=lambda args: f"{args[0]} is {_with_rest(pred, args)}",
        reason=pred,
    )


def _with_rest(pred: str, args: list) -> str:
    return " ".join([pred] + [a or "?" for a in args[1:]])


def generic_conclusion(op: Operator, binding: dict) -> str:
    """What an operator does, read off its effects: ``the player moves to (0, 1) and (0, 1) becomes lit``."""
    def arg(a: str) -> str:
        return str(binding.get(a.lstrip("?"), a)) if a.startswith("?") else str(fmt_arg(a))

    parts = []
    for pred, args in op.add:
        if pred == "at" and len(args) == 1:
            parts.insert(0, f"the player moves to {arg(args[0])}")
        elif args:
            parts.append(f"{arg(args[0])} becomes {_with_rest(pred, [arg(a) for a in args])}")
        else:
            parts.append(f"{pred} becomes true")
    for pred, args in op.delete:
        if pred == "at" and len(args) == 1:
            continue
        if args:
            parts.append(f"{arg(args[0])} is no longer {_with_rest(pred, [arg(a) for a in args])}")
        else:
            parts.append(f"{pred} stops")
    if not parts:
        return f"{op.name} applies"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def literal_text(pred: str, args, negated: bool = False) -> str:
    """A lifted literal as PDDL writes it: ``(lamp ?to)``, ``not (lamp ?to)``."""
    text = f"({' '.join((pred, *args))})"
    return f"not {text}" if negated else text


def generic_operator_text(op: Operator) -> str:
    """One line of a generic description: an operator's preconditions and effects, in PDDL literals."""
    pre = [literal_text(p, a) for p, a in op.pre_pos] + [literal_text(p, a, True) for p, a in op.pre_neg]
    eff = [literal_text(p, a) for p, a in op.add] + [literal_text(p, a, True) for p, a in op.delete]
    when = ", ".join(pre) if pre else "always"
    return f"{op.name}: when {when}, then {', '.join(eff) or 'nothing changes'}."


# --------------------------------------------------------------------------- answers

#: How a free-response answer writes a field's value, by field kind (:class:`svot.kernel.Field`).
FORMATS = {
    "cell": "(row, column)",
    "cells": "(row, column), (row, column), ... (row-major order)",
    "int": "<number>",
    "word": "<word>",
    "colour_counts": "<colour> <number>, ...",
    "colour_cells": "<colour>: (row, column), ...; ...",
}


def question_clause(field) -> str:
    """One field of a generic goal question: ``where is the player``, ``which cells are lit``."""
    label = field.label.lower()
    if field.kind == "cell":
        return f"where is the {label}"
    if field.kind == "cells":
        return f"which cells are {label}"
    if field.kind in ("int", "word"):
        return f"what is the {label}"
    return f"what are the {label}"


def answer_value(kind: str, value) -> str:
    """One field's value as an answer writes it (``(1, 2)``, ``(2, 2), (3, 3)``, ``red 1, green 0``)."""
    if kind == "cell":
        return fmt_cell(value)
    if kind == "cells":
        return fmt_cells(value)
    if kind == "colour_counts":
        return ", ".join(f"{c} {n}" for c, n in value.items())
    if kind == "colour_cells":
        return "; ".join(f"{c}: {fmt_cells(cells)}" for c, cells in value.items())
    return str(value)


def effect_value(kind: str, value) -> str:
    """One field's value inside an effect clause (``collected: key (0, 2), heart (1, 1)``): as an answer
    writes it, but never holding ``;`` (which ends the clause for the reader of ``r_c``) and ``none``
    for an empty value rather than nothing."""
    if kind == "colour_cells":
        return ", ".join(f"{c} {fmt_cells(cells)}" for c, cells in value.items()) or "none"
    return answer_value(kind, value) or "none"


def answer_line(parts) -> str:
    """``Label: value; label: value``: (Field, text) pairs, labels after the first lower-cased."""
    out = []
    for i, (f, text) in enumerate(parts):
        label = f.label if i == 0 else f.label[:1].lower() + f.label[1:]
        out.append(f"{label}: {text}")
    return "; ".join(out)


def effect_field(label: str) -> str:
    """The keyword field of a generic effect clause ``<label>: <value>`` (``"lit"`` -> ``"lit_after"``):
    the dataset writes it from the field's label and the reasoning reward reads it back from the text."""
    return "_".join(label.lower().split()) + "_after"
