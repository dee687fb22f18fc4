"""A spec's failure test on engine state bits, from its declared ``failure_atoms`` pattern.

``DomainSpec.is_failure`` reads a state dict, which costs a pass over the state's atoms. A spec
may also declare its failures as an atom pattern (``(("at", "?x"), ("hole", "?x"))``: the player
on a hole); over a compiled engine's atom bits that is one mask per object, so a failure test is
a few integer tests. Where the bits cannot say it (no pattern, an engine without a bit table, a
pattern atom the grounding folded away as a static), :func:`failure_masks` returns None and the
env asks ``is_failure`` as before.
"""

from __future__ import annotations


def failure_masks(pattern: tuple[tuple[str, str], ...], bit: dict) -> tuple[int, ...] | None:
    """Per object, the bits of the pattern's atoms with ``?x`` bound to it (a state is a failure when
    all bits of one mask are set); None where some pattern atom of an object has no bit."""
    if not pattern:
        return None
    preds = [pred for pred, _var in pattern]
    objects: dict[str, set[str]] = {}
    for atom in bit:
        if len(atom) == 2 and atom[0] in preds:
            objects.setdefault(atom[0], set()).add(atom[1])
    if len(objects) != len(set(preds)):
        return None  # a predicate with no atom in the table (folded as static, or unknown)
    everyone = set().union(*objects.values())
    if any(objects[p] != everyone for p in objects):
        return None  # an absent atom may be a static folded true: only a full table answers
    masks = []
    for obj in sorted(everyone):
        m = 0
        for pred in preds:
            m |= bit[(pred, obj)]
        masks.append(m)
    return tuple(masks)


def any_full(state: int, masks: tuple[int, ...]) -> bool:
    """Whether every bit of one of ``masks`` is set in ``state``."""
    for m in masks:
        if state & m == m:
            return True
    return False
