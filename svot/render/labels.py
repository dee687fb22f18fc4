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


def label_vocabulary(spec, size: int) -> list[str]:
    """Every label that can occur in a valid ``size`` x ``size`` state of ``spec``'s domain.

    Order: ``"empty"`` (id 0), the single kinds that can appear at the size
    (``spec.kinds_at``) in ``spec.kinds`` order, then the combinations: the
    spec's ``label_combos``, or (None) the player with every other kind.
    """
    singles = spec.kinds_at(int(size))
    combos = spec.label_combos
    if combos is None:
        combos = tuple(f"player+{k}" for k in spec.kinds if k != "player") if "player" in spec.kinds else ()
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
