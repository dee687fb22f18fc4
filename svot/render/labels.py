"""Per-cell labels: which object kinds occupy each cell, as one canonical string.

A label joins the kinds in a cell with ``"+"``, in the order of the domain's
``spec.kinds`` (kinds a spec does not list go last, alphabetically), and is
``"empty"`` when the cell holds nothing: ``"player+goal"``, ``"block+goal"``,
``"ball_red"``.

:func:`label_vocabulary` lists every label that can occur in a valid state of a
domain at a size; it is the class set of the image classifier
(:mod:`svot.render.perceive`) and the id space of the fast image path
(:func:`svot.render.image.render_labels`). ``"empty"`` is always id 0.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from svot.errors import ProblemError

EMPTY = "empty"

# Which kinds may share a cell, per domain (every single kind can occur alone).
# A spec may override this with a ``label_combos`` attribute (tuple of labels).
_COMBOS: dict[str, tuple[str, ...]] = {
    "maze": ("player+goal",),
    "frozenlake": ("player+hole", "player+goal", "player+start"),
    "sokoban": ("player+goal", "block+goal"),
    "pacman": (),
    "gather": (),
}


def _kind_order(spec) -> dict[str, int]:
    return {k: i for i, k in enumerate(spec.kinds)}


def canonical_label(spec, kinds: Iterable[str]) -> str:
    """The label of a cell holding ``kinds`` (any iterable of kind names)."""
    ks = set(kinds)
    if not ks:
        return EMPTY
    order = _kind_order(spec)
    big = len(order)
    return "+".join(sorted(ks, key=lambda k: (order.get(k, big), k)))


def _kinds_at_size(spec, size: int) -> tuple[str, ...]:
    """The kinds that can appear at ``size`` (Gather's ball colours depend on it)."""
    if spec.name == "gather":
        from svot.domains.gather import colours_for

        balls = {f"ball_{c}" for c in colours_for(size)}
        return tuple(k for k in spec.kinds if not k.startswith("ball_") or k in balls)
    return tuple(spec.kinds)


def label_vocabulary(spec, size: int) -> list[str]:
    """Every label that can occur in a valid ``size`` x ``size`` state of ``spec``'s domain.

    Order: ``"empty"`` (id 0), the single kinds in ``spec.kinds`` order, then
    the combinations: ``spec.label_combos`` if the spec defines it, else the
    built-in table, else (unknown domain) the player with every other kind.
    """
    singles = _kinds_at_size(spec, int(size))
    combos = tuple(getattr(spec, "label_combos", ()) or ())
    if not combos:
        if spec.name in _COMBOS:
            combos = _COMBOS[spec.name]
        elif "player" in spec.kinds:
            combos = tuple(f"player+{k}" for k in spec.kinds if k != "player")
    out = [EMPTY, *singles]
    for c in combos:
        lab = canonical_label(spec, c.split("+"))
        if lab not in out:
            out.append(lab)
    return out


def label_grid(spec, state: dict) -> list[list[str]]:
    """The ``size`` x ``size`` grid of cell labels of ``state`` (row-major, (row, col))."""
    try:
        n = int(state["size"])
        cell_kinds = spec.cell_kinds(state)
    except KeyError as exc:
        raise ProblemError(f"{spec.name} state has no {exc.args[0]!r} field") from None
    grid = [[EMPTY] * n for _ in range(n)]
    for cell, kinds in cell_kinds.items():
        r, c = _check_cell(cell, n, spec)
        grid[r][c] = canonical_label(spec, kinds)
    return grid


def label_ids(spec, state: dict, vocabulary: list[str] | None = None) -> np.ndarray:
    """``(size, size)`` int array of indices into ``vocabulary`` (default :func:`label_vocabulary`).

    Raises :class:`~svot.errors.ProblemError` for a label outside the vocabulary.
    """
    n = int(state["size"])
    vocab = label_vocabulary(spec, n) if vocabulary is None else list(vocabulary)
    index = {lab: i for i, lab in enumerate(vocab)}
    out = np.zeros((n, n), np.int64)
    for r, row in enumerate(label_grid(spec, state)):
        for c, lab in enumerate(row):
            if lab not in index:
                raise ProblemError(
                    f"{spec.name} cell ({r}, {c}) holds {lab!r}, which is not in the label vocabulary {vocab}"
                )
            out[r, c] = index[lab]
    return out


def _check_cell(cell, n: int, spec) -> tuple[int, int]:
    try:
        r, c = int(cell[0]), int(cell[1])
    except (TypeError, ValueError, IndexError):
        raise ProblemError(f"{spec.name} state has a malformed cell {cell!r}") from None
    if not (0 <= r < n and 0 <= c < n):
        raise ProblemError(f"{spec.name} state has cell ({r}, {c}) outside the {n}x{n} grid")
    return r, c
