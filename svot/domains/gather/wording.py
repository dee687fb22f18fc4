"""Gather in the datasets' words: preconditions, effects, the goal question, distractors.

Read through :class:`~svot.domains.gather.GatherSpec` by :mod:`svot.dataset`.
"""

from __future__ import annotations

from svot.kernel.distractors import near_cells, near_counts
from svot.kernel.keywords import collection_phrase
from svot.kernel.phrases import RAY, Phrase, cells_word, coordinates_text, fmt_arg

PHRASES = {
    "ray": RAY,
    "ball": Phrase(subject=0, pos="holds a {1} ball", pos_fail="{0} holds no {1} ball", reason="ball"),
}

# Never narrated: the player's own position and the bookkeeping of a move under way.
SILENT = frozenset({"at", "idle", "heading", "dest", "advance", "clear"})

# What the agent's operator does when it applies (formatted with its parameters by name,
# plus ``k_cells``: the distance in words).
CONCLUSIONS = {"start": "the player moves {dir} {k_cells} to {to}"}

KIND_WORDS = {"player": "the player"}

#: The state fields the goal g asks for (SVoT §4).
GOAL_FIELDS = ("collected", "player")

QUESTION = "After all the actions, how many balls of each colour has the player collected in total, and where is the player?"

ANSWER_FORMAT = "Collected balls: <colour> <number>, ...; player: (row, column)"


def conclusion_binding(binding: dict) -> dict:
    """The conclusion's parameters, with the distance also in words (``3 cells``)."""
    return {**binding, "k_cells": cells_word(binding["k"])} if "k" in binding else binding


def kind_word(kind: str) -> str | None:
    """``ball_red`` → ``a red ball``; None for the kinds of :data:`KIND_WORDS`."""
    return f"a {kind[5:]} ball" if kind.startswith("ball_") else None


def action_text(text: str) -> str:
    """The paper's "move down 4 steps" (§4) where the environments say ``move down 4``."""
    k = text.rsplit(" ", 1)[-1]
    return f"{text} {'step' if k == '1' else 'steps'}"


def describe(size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    n = size
    cols = ", ".join(colours) if colours else "several colours"
    return (
        f"Gather on a {n}x{n} grid without walls. The grid holds the player and balls of the colours {cols}.\n"
        f"{coordinates_text(size)}\n"
        f"Actions: move <direction> <k> steps (e.g. move down 2 steps; move right 1 step), with direction up, "
        f"down, left or right and k from 1 to {n - 1}: the player moves k cells in a straight line.\n"
        "Preconditions: the cell k cells away in that direction is inside the grid.\n"
        "Effects: the player passes through the k cells in order and ends on the last one; every ball on "
        "those k cells is collected (it disappears and the count of its colour grows by one). The cell the "
        "player starts from is not collected again. If the destination is outside the grid, the action "
        "is not applicable and nothing changes."
    )


def effect_clauses(before: dict, after: dict, applied: list, add) -> list[str]:
    """The chain's Gather effects: the cells passed, what the move collects (§5's words), the running counts."""
    out = []
    path = []
    for ga in applied[1:]:
        if ga.name in ("collect", "pass"):
            cell = fmt_arg(ga.args[1])
            if ga.name == "collect":
                path.append(f"{cell} holds a {ga.args[3]} ball, which is collected")
            else:
                path.append(f"{cell} is empty")
    if path:
        out.append("on the way, " + "; ".join(path))
    moved = {c: n - before["collected"].get(c, 0) for c, n in after["collected"].items()}
    total = [add(f"collected_{colour}", f"{colour} {n}") for colour, n in after["collected"].items()]
    # §5's wording of the ball-collection reasoning: "collects 1 red ball and 1 blue ball"
    out.append("the player collects " + add("balls_collected", collection_phrase(moved)))
    out.append("collected so far: " + ", ".join(total))
    return out


# --------------------------------------------------------------------------- distractors


def totals(initial: dict) -> dict[str, int]:
    """Balls of each colour on the map, collected or not."""
    return {c: len(initial["balls"][c]) + int(initial["collected"].get(c, 0)) for c in initial["balls"]}


def distractor_pools(truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct, other): one colour's count within ±2 of the truth, cells within distance 2."""
    most = totals(initial)
    values = []
    for colour, n in truth["collected"].items():
        for v in near_counts(int(n), most.get(colour, 0)):
            values.append({**truth["collected"], colour: v})
    p = truth["player"]
    cells = near_cells(p, int(initial["size"]))
    partial = [{"collected": v, "player": list(p)} for v in values]
    partial += [{"collected": dict(truth["collected"]), "player": q} for q in cells]
    other = [{"collected": v, "player": q} for q in cells for v in values]
    return partial, other


def choice_problems(truth: dict, choice: dict, initial: dict) -> list[str]:
    most = totals(initial)
    problems = []
    if set(choice["collected"]) != set(truth["collected"]):
        problems.append(f"colours {sorted(choice['collected'])} differ")
    for colour, n in choice["collected"].items():
        if not 0 <= int(n) <= most.get(colour, 0):
            problems.append(f"{colour} count {n} outside 0..{most.get(colour, 0)}")
    return problems
