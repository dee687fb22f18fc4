"""Keyword vocabulary shared by the chain builder (svot.dataset) and the r_c scorer (svot.metrics).

A leaf module (no svot imports), so the scorer does not load the dataset package.
"""

from __future__ import annotations

# Precondition keywords (SVoT §3: "P(c_i) contains keywords extracted from action
# preconditions and effects (e.g., 'with no block above it' for preconditions ...)").
# One field per checked object predicate and cell, ``pre <object> (r, c)``, whose value
# says whether the object is there: (present, absent). Both phrases are the ones the
# chain writes (each domain's DomainSpec.phrases, in its wording.py), so the value occurs verbatim in the chain; the scorer
# also reads the paper's relative phrasing ("with no block above it") into them.
# Grid bounds (``adj``/``ray``) are not object facts: they are scored by ``applicable``
# and ``blocked_by: edge``.
PRECONDITION_WORDS: dict[str, tuple[str, str]] = {
    "wall": ("is a wall", "is not a wall"),
    "block": ("holds a block", "has no block"),
    "hole": ("is a hole", "is not a hole"),
    "goal": ("is the goal", "is not the goal"),
    "coin": ("holds a coin", "has no coin"),
}


#: The order colours are listed in (Table 5: {R, G}, {R, G, B}, {R, G, B, Y}); others after, by name.
COLOUR_ORDER = ("red", "green", "blue", "yellow")


def colour_rank(colour: str) -> tuple:
    return (COLOUR_ORDER.index(colour), "") if colour in COLOUR_ORDER else (len(COLOUR_ORDER), colour)


def collection_phrase(counts: dict) -> str:
    """A move's collection of coloured items in the paper's words (§5: "collects 1 red ball and 1 blue ball").

    ``{"red": 1, "green": 0, "blue": 1}`` → ``1 red ball and 1 blue ball``;
    colours collected zero times are left out; none at all → ``no ball``.
    """
    items = [f"{n} {c} ball{'' if n == 1 else 's'}" for c, n in sorted(counts.items(), key=lambda x: colour_rank(x[0])) if n]
    if not items:
        return "no ball"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def precondition_field(obj: str, cell: str) -> str:
    """The keyword field of one object precondition, e.g. ``pre block (1, 3)``."""
    return f"pre {obj} {cell}"
