"""Text grids (``render_mode="ansi"``): one character per cell label, with a legend.

Row ``r`` of the grid is line ``r`` of the output; cell ``(r, c)`` is character
``2 * c`` of that line (cells are separated by one space). After a blank line,
a legend lists the characters of the domain's label vocabulary, e.g. for a
domain with blocks to push onto goals::

    P . # .
    . B G .
    ...

    Legend: . floor, P player, # wall, B block, G goal, + player on goal, * block on goal

A character means the same thing in every domain: each domain's spec gives
the characters of its labels (``ansi_chars``, in its ``look.py``), and
:data:`CHARS` holds the common ones: ``.`` an empty cell (the legend says what an empty
cell is in the domain, ``spec.empty_cell_name``: e.g. floor or
frozen ice), ``P`` player, ``#`` wall, ``G`` goal, ``B`` block, ``*`` block on a
goal, ``+`` player on a goal, ``o`` coin, ``r g b y`` red/green/blue/yellow
balls, ``H`` hole, ``X`` player in a hole, ``S`` start, ``@`` player on the
start tile. A label with no character of its own (a new domain's kind) takes
the one :data:`CHARS` gives it, else the first free letter of its kinds.

A domain whose walls lie between cells (kinds drawn with the ``edge_right`` / ``edge_down``
sprites) has them drawn between the characters: ``|`` in the gap right of a cell with a wall
on its right edge, and a line of ``-`` under each row, one under every cell with a wall on its
lower edge. Row ``r`` is then line ``2 * r``; the characters stand for what else is in the cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from svot.render.labels import EMPTY, canonical_label, label_grid, label_vocabulary
from svot.render.sprites import sprite_for

__all__ = ["CHARS", "ansi_chars", "render_ansi"]

# The character of each common label, the same in every domain (a domain's ``ansi_chars`` gives its own
# labels theirs); the renderer's vocabulary, as its sprite library is (svot.render.sprites).
CHARS: Mapping[str, str] = MappingProxyType({
    EMPTY: ".", "player": "P", "wall": "#", "goal": "G", "player+goal": "+", "block": "B", "block+goal": "*",
    "coin": "o", "ball_red": "r", "ball_green": "g", "ball_blue": "b", "ball_yellow": "y", "hole": "H",
    "player+hole": "X", "start": "S", "player+start": "@",
})


def ansi_chars(spec, size: int, labels=()) -> dict[str, str]:
    """Character of every label of the vocabulary (and of ``labels``), all distinct."""
    table = {**CHARS, **spec.ansi_chars}
    out: dict[str, str] = {}
    used: set[str] = set()
    edges = set(edge_kinds(spec))
    vocabulary = [lab for lab in label_vocabulary(spec, size) if not edges & set(lab.split("+"))]
    for lab in vocabulary + [x for x in labels]:
        if lab in out:
            continue
        ch = table.get(lab)
        if ch is None or ch in used:
            ch = None
            for cand in "".join(k[0].upper() + k[0].lower() for k in lab.split("+") if k) + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?":
                if cand not in used and cand not in table.values():
                    ch = cand
                    break
            ch = ch or "?"
        out[lab] = ch
        used.add(ch)
    return out


def _legend_name(spec, label: str) -> str:
    if label == EMPTY:
        return spec.empty_cell_name
    words = [f"{k[5:]} ball" if k.startswith("ball_") else k.replace("_", " ") for k in label.split("+")]
    return " on ".join(words)


def edge_kinds(spec) -> dict[str, str]:
    """Kinds drawn as a wall on a cell's edge -> that edge (``"right"`` or ``"down"``)."""
    return {k: sprite_for(spec, k)[5:] for k in spec.kinds if sprite_for(spec, k).startswith("edge_")}


def render_ansi(spec, state: dict) -> str:
    """The state as a text grid plus a legend line."""
    grid = label_grid(spec, state)
    n = len(grid)
    edges = edge_kinds(spec)
    if edges:
        return _render_with_edges(spec, grid, edges)
    extra = sorted({lab for row in grid for lab in row})
    chars = ansi_chars(spec, n, extra)
    rows = [" ".join(chars[lab] for lab in row) for row in grid]
    legend = ", ".join(f"{ch} {_legend_name(spec, lab)}" for lab, ch in chars.items())
    return "\n".join(rows) + "\n\nLegend: " + legend + "\n"


def _render_with_edges(spec, grid: list[list[str]], edges: dict[str, str]) -> str:
    """:func:`render_ansi` for walls between cells: ``|`` and ``-`` drawn in the gaps."""
    n = len(grid)
    sides = [[{edges[k] for k in lab.split("+") if k in edges} for lab in row] for row in grid]
    inside = [[canonical_label(spec, [k for k in lab.split("+") if k not in edges and k != EMPTY]) for lab in row]
              for row in grid]
    chars = ansi_chars(spec, n, sorted({lab for row in inside for lab in row}))
    lines = []
    for r in range(n):
        gaps = ["|" if "right" in sides[r][c] else " " for c in range(n - 1)] + [""]
        lines.append("".join(chars[inside[r][c]] + gaps[c] for c in range(n)))
        if r < n - 1:
            lines.append(" ".join("-" if "down" in sides[r][c] else " " for c in range(n)).rstrip())
    legend = ", ".join(f"{ch} {_legend_name(spec, lab)}" for lab, ch in chars.items())
    return "\n".join(lines) + "\n\nLegend: " + legend + ", | and - walls between cells\n"
