"""Pacman in the datasets' words: preconditions, effects, the goal question, distractors.

Read through :class:`~svot.domains.pacman.PacmanSpec` by :mod:`svot.dataset`.
"""

from __future__ import annotations

from svot.kernel.distractors import near_cells, near_counts
from svot.kernel.phrases import ADJ, Phrase, coordinates_text, fmt_cell

PHRASES = {
    "adj": ADJ,
    "coin": Phrase(subject=0, pos="holds a coin", neg="has no coin", pos_fail="{0} has no coin", neg_fail="{0} holds a coin", reason="coin"),
}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {"walk": "the player moves to {to}", "eat": "the player moves to {to} and eats the coin there"}

KIND_WORDS = {"player": "the player", "coin": "a coin"}

#: The state fields the goal g asks for (SVoT §4).
GOAL_FIELDS = ("collected", "player")

QUESTION = "After all the actions, how many coins has the player collected in total, and where is the player?"

ANSWER_FORMAT = "Collected coins: <number>; player: (row, column)"


def describe(size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    n = size
    return (
        f"Pacman on a {n}x{n} grid without walls. The grid holds the player and coins.\n{coordinates_text(size)}\n"
        "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
        "Preconditions: the target cell is inside the grid.\n"
        "Effects: the player moves into the target cell; if a coin is there, the player eats it: the coin "
        "disappears and the number of collected coins grows by one. If the target cell is outside the grid, "
        "the action is not applicable and nothing changes."
    )


def min_plan_length(params: dict) -> int:
    """One coin per move at most, so a plan takes at least ``coins`` moves."""
    coins = params.get("coins")
    return int(coins) if coins else 1


def effect_clauses(before: dict, after: dict, applied: list, add) -> list[str]:
    """The chain's Pacman effects: the coin eaten (or none) and the running count."""
    out = []
    eaten = [c for c in before["coins"] if c not in after["coins"]]
    if eaten:
        out.append(f"the coin at {add('coin_eaten_at', fmt_cell(eaten[0]))} is eaten")
    else:
        out.append(f"{add('coin_eaten', 'no coin')} is eaten")
    out.append(f"collected coins: {add('collected_after', after['collected'])} of {after['total']}")
    return out


# --------------------------------------------------------------------------- distractors


def total(initial: dict) -> int:
    return int(initial["total"])


def distractor_pools(truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct, other): counts within ±2 in ``0..total``, cells within distance 2."""
    values = near_counts(int(truth["collected"]), total(initial))
    p = truth["player"]
    cells = near_cells(p, int(initial["size"]))
    partial = [{"collected": v, "player": list(p)} for v in values]
    partial += [{"collected": truth["collected"], "player": q} for q in cells]
    other = [{"collected": v, "player": q} for q in cells for v in values]
    return partial, other


def choice_problems(truth: dict, choice: dict, initial: dict) -> list[str]:
    n = total(initial)
    if not 0 <= int(choice["collected"]) <= n:
        return [f"count {choice['collected']} outside 0..{n}"]
    return []
