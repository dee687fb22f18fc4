"""Maze in the datasets' words: preconditions, effects, the goal question, distractors.

Read through :class:`~svot.domains.maze.MazeSpec` by :mod:`svot.dataset`.
"""

from __future__ import annotations

from svot.kernel.distractors import near_cells, same_line
from svot.kernel.phrases import ADJ, WALL, coordinates_text

PHRASES = {"adj": ADJ, "wall": WALL}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {"step": "the player moves to {to}"}

KIND_WORDS = {"player": "the player", "wall": "a wall", "goal": "the goal"}

#: The state fields the goal g asks for (SVoT §4).
GOAL_FIELDS = ("player",)

QUESTION = "After all the actions, where is the player?"

ANSWER_FORMAT = "Player: (row, column)"


def describe(size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    n = size
    return (
        f"Maze on a {n}x{n} grid. The grid holds the player, walls and a goal cell.\n{coordinates_text(size)}\n"
        "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
        "Preconditions: the target cell (one cell in the direction of the move) is inside the grid "
        "and is not a wall.\n"
        "Effects: the player moves into the target cell. If a precondition fails, the action is not "
        "applicable and nothing changes (the player stays where it is). The goal cell does not stop "
        "the player; reaching it does not end the sequence."
    )


def distractor_pools(truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct, other): a position only, so the partially correct one keeps a coordinate."""
    walls = {tuple(w) for w in initial.get("walls", [])}
    p = truth["player"]
    partial: list[dict] = []
    other: list[dict] = []
    for q in near_cells(p, int(initial["size"]), walls):
        (partial if (q[0] == p[0] or q[1] == p[1]) else other).append({"player": q})
    return partial, other


def is_partial(truth: dict, choice: dict, initial: dict | None = None) -> bool:
    return same_line(truth, choice)
