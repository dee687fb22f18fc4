"""FrozenLake in the datasets' words: preconditions, effects, the goal question, distractors.

Read through :class:`~svot.domains.frozenlake.FrozenLakeSpec` by :mod:`svot.dataset`.
"""

from __future__ import annotations

from svot.kernel.distractors import near_cells, same_line
from svot.kernel.phrases import ADJ, Phrase, coordinates_text

PHRASES = {
    "adj": ADJ,
    "hole": Phrase(
        subject=0,
        neg="is not a hole",
        neg_fail="{0} is a hole: the player fell in and cannot move",
        reason="hole",
    ),
    "goal": Phrase(
        subject=0,
        neg="is not the goal",
        neg_fail="{0} is the goal: the player has arrived and cannot move",
        reason="goal",
    ),
}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {"walk": "the player moves to {to}"}

KIND_WORDS = {"player": "the player", "hole": "a hole", "goal": "the goal", "start": "the start"}

#: The state fields the goal g asks for (SVoT §4).
GOAL_FIELDS = ("player", "tile")

QUESTION = "After all the actions (or when the episode ends), where is the player and which tile is it on?"

ANSWER_FORMAT = "Player: (row, column); tile: <start, frozen, hole or goal>"

_ENDINGS = {
    "fell": " (the player fell into a hole; the episode ends)",
    "reached": " (the player reached the goal; the episode ends)",
}


def describe(size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    n = size
    return (
        f"FrozenLake on a {n}x{n} frozen lake (not slippery: moves are deterministic). Every cell is a tile: "
        f"the start, frozen ice, a hole or the goal.\n{coordinates_text(size)}\n"
        "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
        "Preconditions: the player is not in a hole and not on the goal, and the target cell is inside "
        "the grid.\n"
        "Effects: the player moves into the target cell. Entering a hole makes the player fall in "
        "(status: fell) and entering the goal reaches it (status: reached); either ends the episode, and "
        "no later action is taken. If a precondition fails, nothing changes."
    )


def effect_clauses(before: dict, after: dict, applied: list, add) -> list[str]:
    """The chain's FrozenLake effects: ``tile: {tile_after}; status: {status_after}``."""
    status = after["status"]
    return [
        f"tile: {add('tile_after', after['tile'])}",
        f"status: {add('status_after', status)}{_ENDINGS.get(status, '')}",
    ]


# --------------------------------------------------------------------------- distractors


def tile_at(initial: dict, cell) -> str:
    """The tile the map has at ``cell``."""
    cell = list(cell)
    if cell in initial["holes"]:
        return "hole"
    if cell == initial["goal"]:
        return "goal"
    if cell == initial.get("start", initial["player"]):
        return "start"
    return "frozen"


def distractor_pools(truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct, other), every tile the one the map has at that position."""
    p = truth["player"]
    t = truth["tile"]
    partial: list[dict] = []
    other: list[dict] = []
    for q in near_cells(p, int(initial["size"])):
        tq = tile_at(initial, q)
        (partial if tq == t else other).append({"player": q, "tile": tq})
    if not partial:
        # A.7 "require all candidates to be valid": "right position, wrong tile"
        # contradicts the map, so the partially correct distractor keeps one
        # coordinate instead (as in Maze), with the tile its cell really has.
        keep = [c for c in other if c["player"][0] == p[0] or c["player"][1] == p[1]]
        partial = keep
        other = [c for c in other if c not in keep]
    return partial, other


def is_partial(truth: dict, choice: dict, initial: dict | None = None) -> bool:
    """Right player or tile; or, when no cell within distance 2 has the truth's tile, one coordinate kept."""
    if any(choice[f] == truth[f] for f in GOAL_FIELDS):
        return True
    if initial is not None:
        lone = all(tile_at(initial, q) != truth["tile"] for q in near_cells(truth["player"], int(initial["size"])))
        return lone and same_line(truth, choice)
    return False


def choice_problems(truth: dict, choice: dict, initial: dict) -> list[str]:
    if choice["tile"] != tile_at(initial, choice["player"]):
        return [f"tile {choice['tile']!r} at {choice['player']} contradicts the map ({tile_at(initial, choice['player'])})"]
    return []
