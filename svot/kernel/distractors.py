"""Building blocks of four-choice distractors (SVoT A.7), and the generic rules a new domain gets.

A leaf of :mod:`svot.kernel` (stdlib only), so a domain's own distractor rules
(``svot/domains/<name>/wording.py``) and the shared :mod:`svot.dataset.choices`
(which re-exports these names) use the same distance, cells and counts.

The generic rules (:func:`generic_pools`, :func:`generic_problems`) read a
goal configuration field by field, by the field's kind: a ``cell`` moves to a
cell within distance 2, one cell of a ``cells`` list moves to a free cell
within distance 2, an ``int`` moves by up to 2 (never below 0).
"""

from __future__ import annotations

from itertools import permutations

MAX_DISTANCE = 2


def manhattan(a, b) -> int:
    return abs(int(a[0]) - int(b[0])) + abs(int(a[1]) - int(b[1]))


def near_cells(cell, size: int, blocked=frozenset(), dmax: int = MAX_DISTANCE) -> list[list[int]]:
    """Cells at Manhattan distance 1..dmax from ``cell``, inside the grid and not blocked, row-major."""
    out = []
    r0, c0 = int(cell[0]), int(cell[1])
    for r in range(max(0, r0 - dmax), min(size, r0 + dmax + 1)):
        for c in range(max(0, c0 - dmax), min(size, c0 + dmax + 1)):
            d = abs(r - r0) + abs(c - c0)
            if 1 <= d <= dmax and (r, c) not in blocked:
                out.append([r, c])
    return out


def near_counts(value: int, total: int) -> list[int]:
    """Counts within ±2 of ``value`` in ``0..total``, ``value`` left out."""
    return [v for v in range(max(0, value - MAX_DISTANCE), min(total, value + MAX_DISTANCE) + 1) if v != value]


def same_line(truth: dict, choice: dict, key: str = "player") -> bool:
    """Keeps one coordinate of the truth's ``key`` cell (same row or same column)."""
    return choice[key][0] == truth[key][0] or choice[key][1] == truth[key][1]


def cells_near(truth_cells, cells) -> bool:
    """Some one-to-one pairing of ``cells`` with ``truth_cells`` keeps every pair within distance 2."""
    if len(truth_cells) != len(cells):
        return False
    return any(all(manhattan(t, b) <= MAX_DISTANCE for t, b in zip(truth_cells, perm)) for perm in permutations(cells))


def moved_one(cells, size: int, blocked) -> list[list[list[int]]]:
    """Every way to move one cell of ``cells`` to a free cell within distance 2 (each result sorted)."""
    cells = [list(c) for c in cells]
    taken = set(blocked) | {tuple(c) for c in cells}
    out = []
    for i, c in enumerate(cells):
        for q in near_cells(c, size, taken):
            out.append(sorted(cells[:i] + [q] + cells[i + 1 :]))
    return out


# --------------------------------------------------------------------------- generic rules


def field_variants(kind: str, value, initial: dict) -> list | None:
    """The nearby wrong values of one goal field, or None for a kind with no generic rule."""
    size = int(initial["size"])
    walls = {tuple(w) for w in initial.get("walls", [])}
    if kind == "cell":
        return near_cells(value, size, walls)
    if kind == "cells":
        return moved_one(value, size, walls)
    if kind == "int":
        return [v for v in range(max(0, int(value) - MAX_DISTANCE), int(value) + MAX_DISTANCE + 1) if v != int(value)]
    return None


def generic_pools(fields: dict[str, str], truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct, other) distractors for goal fields of the given kinds (key -> kind).

    Partially correct: one field wrong, the others right (with a single field:
    a wrong cell that keeps a coordinate). Other: two fields wrong.
    """
    variants = {}
    for key, kind in fields.items():
        found = field_variants(kind, truth[key], initial)
        variants[key] = [] if found is None else found
    keys = list(fields)
    partial: list[dict] = []
    other: list[dict] = []
    if len(keys) == 1:
        (key,) = keys
        for v in variants[key]:
            choice = {key: v}
            one_line = fields[key] == "cell" and same_line(truth, choice, key)
            (partial if one_line else other).append(choice)
        return partial, other
    for key in keys:
        partial += [{**truth, key: v} for v in variants[key]]
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            other += [{**truth, a: va, b: vb} for va in variants[a] for vb in variants[b]]
    return partial, other


def generic_problems(fields: dict[str, str], truth: dict, choice: dict, initial: dict) -> list[str]:
    """How a distractor breaks the generic validity rules (cells inside the grid, off walls, near the truth)."""
    size = int(initial["size"])
    walls = [list(w) for w in initial.get("walls", [])]

    def cell_ok(q) -> bool:
        return 0 <= q[0] < size and 0 <= q[1] < size and list(q) not in walls

    problems = []
    for key, kind in fields.items():
        v = choice[key]
        if kind == "cell" and (not cell_ok(v) or manhattan(v, truth[key]) > MAX_DISTANCE):
            problems.append(f"{key} {v} invalid or farther than {MAX_DISTANCE} from {truth[key]}")
        elif kind == "cells":
            if any(not cell_ok(c) for c in v) or len({tuple(c) for c in v}) != len(v):
                problems.append(f"{key} {v} invalid")
            elif not cells_near(truth[key], v):
                problems.append(f"{key} {v} not within {MAX_DISTANCE} of {truth[key]}")
        elif kind == "int" and not 0 <= int(v) <= int(truth[key]) + MAX_DISTANCE:
            problems.append(f"{key} {v} outside 0..{int(truth[key]) + MAX_DISTANCE}")
    return problems
