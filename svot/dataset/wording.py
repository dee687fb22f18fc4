"""Words for the datasets: how preconditions, effects, answers and domains are phrased.

The transition reasoning chains (:mod:`svot.dataset.transitions`) are built
generically from the PDDL operators' preconditions; this module holds the small
per-domain tables that turn a predicate into words, plus the domain
descriptions and answer formats used in prompts. Nothing here decides what
happens: the engine does.

Phrase templates take the ground atom's arguments, formatted: cells as
``(r, c)``, directions as words, Gather distances ``k3`` as ``3``. Unbound
arguments (a precondition that failed while joining) are never referenced by a
failure template.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from svot.domains.grid import parse_cell
from svot.domains.keywords import (  # noqa: F401 - re-exported: the chain builder's vocabulary
    COLOUR_ORDER,
    PRECONDITION_WORDS,
    collection_phrase,
    colour_rank,
    precondition_field,
)

BESIDE = {"up": "above", "down": "below", "left": "left of", "right": "right of"}


def fmt_cell(cell) -> str:
    return f"({int(cell[0])}, {int(cell[1])})"


def fmt_arg(arg: str | None) -> str | None:
    """A PDDL object as text: ``c_2_3`` → ``(2, 3)``, ``k3`` → ``3``, others unchanged."""
    if arg is None:
        return None
    if arg.startswith("c_"):
        try:
            return fmt_cell(parse_cell(arg))
        except Exception:  # noqa: BLE001 - not a cell name after all
            return arg
    if len(arg) > 1 and arg[0] == "k" and arg[1:].isdigit():
        return arg[1:]
    return arg


@dataclass(frozen=True)
class Phrase:
    """How one predicate reads as a precondition.

    ``subject``: index of the argument the phrase is about (checks are grouped
    by it). ``pos``/``neg``: the words when a positive / negative precondition
    holds (``"is inside the grid"``, ``"is not a wall"``); ``pos_fail`` /
    ``neg_fail``: a whole clause when it fails, formatted with the arguments.
    ``reason``: the keyword a failure reports as ``blocked_by``.
    """

    subject: int
    pos: str = ""
    neg: str = ""
    pos_fail: str | Callable = ""
    neg_fail: str | Callable = ""
    reason: str = ""


def _edge(args: list) -> str:
    return f"there is no cell {BESIDE.get(args[1], args[1])} {args[0]} (the grid's edge)"


def cells_word(k) -> str:
    return f"{k} cell" if str(k) == "1" else f"{k} cells"


def _ray_edge(args: list) -> str:
    return f"moving {args[1]} {cells_word(args[2])} from {args[0]} would cross the grid's edge"


ADJ = Phrase(subject=2, pos="is inside the grid", pos_fail=_edge, reason="edge")
RAY = Phrase(subject=3, pos="is inside the grid", pos_fail=_ray_edge, reason="edge")
WALL = Phrase(subject=0, neg="is not a wall", neg_fail="{0} is a wall", reason="wall")

# Predicates that never appear in a chain: the player's own position, Gather's
# bookkeeping of a move under way.
SILENT = frozenset({"at", "idle", "heading", "dest", "advance", "clear"})

PHRASES: dict[str, dict[str, Phrase]] = {
    "maze": {"adj": ADJ, "wall": WALL},
    "frozenlake": {
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
    },
    "sokoban": {
        "adj": ADJ,
        "wall": WALL,
        "block": Phrase(
            subject=0,
            pos="holds a block",
            neg="has no block",
            pos_fail="{0} has no block",
            neg_fail="{0} holds a block",
            reason="block",
        ),
    },
    "pacman": {
        "adj": ADJ,
        "coin": Phrase(subject=0, pos="holds a coin", neg="has no coin", pos_fail="{0} has no coin", neg_fail="{0} holds a coin", reason="coin"),
    },
    "gather": {
        "ray": RAY,
        "ball": Phrase(subject=0, pos="holds a {1} ball", pos_fail="{0} holds no {1} ball", reason="ball"),
    },
}

# What the agent's chosen operator does when it applies (formatted with its
# parameters by name, without the "?": {from}, {to}, {beyond}...).
CONCLUSIONS: dict[str, dict[str, str]] = {
    "maze": {"step": "the player moves to {to}"},
    "frozenlake": {"walk": "the player moves to {to}"},
    "sokoban": {
        "walk": "the player walks to {to}",
        "push": "the player moves to {to} and pushes the block from {to} to {beyond}",
    },
    "pacman": {"walk": "the player moves to {to}", "eat": "the player moves to {to} and eats the coin there"},
    "gather": {"start": "the player moves {dir} {k_cells} to {to}"},
}

KIND_WORDS = {
    "player": "the player",
    "wall": "a wall",
    "block": "a block",
    "goal": "the goal",
    "coin": "a coin",
    "hole": "a hole",
    "start": "the start",
}


def dataset_action_text(domain: str, text: str) -> str:
    """How the datasets write an action: the domain's text, and for Gather the paper's
    "move down 4 steps" (§4) where the environments say ``move down 4``."""
    if domain == "gather":
        k = text.rsplit(" ", 1)[-1]
        return f"{text} {'step' if k == '1' else 'steps'}"
    return text


def kind_word(domain: str, kind: str) -> str:
    if kind.startswith("ball_"):
        return f"a {kind[5:]} ball"
    if domain == "sokoban" and kind == "goal":
        return "a goal square"
    return KIND_WORDS.get(kind, kind.replace("_", " "))


# --------------------------------------------------------------------------- answers

#: Which state fields the goal g asks for (SVoT §4's task definitions).
GOAL_FIELDS: dict[str, tuple[str, ...]] = {
    "maze": ("player",),
    "frozenlake": ("player", "tile"),
    "sokoban": ("player", "blocks"),
    "pacman": ("collected", "player"),
    "gather": ("collected", "player"),
}


def goal_of(domain: str, state: dict) -> dict:
    """The goal configuration g: the fields of the final state the task asks for."""
    out = {}
    for key in GOAL_FIELDS[domain]:
        v = state[key]
        if isinstance(v, list):
            v = [list(x) if isinstance(x, list) else x for x in v]
        elif isinstance(v, dict):
            v = dict(v)
        out[key] = v
    return out


def answer_text(domain: str, goal: dict) -> str:
    """The free-response answer, e.g. ``Player: (1, 2); blocks: (2, 2), (3, 3)``."""
    if domain == "maze":
        return f"Player: {fmt_cell(goal['player'])}"
    if domain == "frozenlake":
        return f"Player: {fmt_cell(goal['player'])}; tile: {goal['tile']}"
    if domain == "sokoban":
        blocks = ", ".join(fmt_cell(b) for b in goal["blocks"]) or "none"
        return f"Player: {fmt_cell(goal['player'])}; blocks: {blocks}"
    if domain == "pacman":
        return f"Collected coins: {goal['collected']}; player: {fmt_cell(goal['player'])}"
    if domain == "gather":
        counts = ", ".join(f"{c} {n}" for c, n in goal["collected"].items())
        return f"Collected balls: {counts}; player: {fmt_cell(goal['player'])}"
    raise KeyError(domain)


ANSWER_FORMATS: dict[str, str] = {
    "maze": "Player: (row, column)",
    "frozenlake": "Player: (row, column); tile: <start, frozen, hole or goal>",
    "sokoban": "Player: (row, column); blocks: (row, column), (row, column), ... (row-major order)",
    "pacman": "Collected coins: <number>; player: (row, column)",
    "gather": "Collected balls: <colour> <number>, ...; player: (row, column)",
}

QUESTIONS: dict[str, str] = {
    "maze": "After all the actions, where is the player?",
    "frozenlake": "After all the actions (or when the episode ends), where is the player and which tile is it on?",
    "sokoban": "After all the actions, where are the player and all the blocks?",
    "pacman": "After all the actions, how many coins has the player collected in total, and where is the player?",
    "gather": "After all the actions, how many balls of each colour has the player collected in total, and where is the player?",
}


# --------------------------------------------------------------------------- descriptions

_COORDS = (
    "Cells are written (row, column): (0, 0) is the top-left cell, rows grow downwards "
    "and columns grow to the right; the grid has rows and columns 0 to {last}."
)


def describe_domain(domain: str, size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    n, last = size, size - 1
    head = f"{_COORDS.format(last=last)}\n"
    if domain == "maze":
        return (
            f"Maze on a {n}x{n} grid. The grid holds the player, walls and a goal cell.\n{head}"
            "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
            "Preconditions: the target cell (one cell in the direction of the move) is inside the grid "
            "and is not a wall.\n"
            "Effects: the player moves into the target cell. If a precondition fails, the action is not "
            "applicable and nothing changes (the player stays where it is). The goal cell does not stop "
            "the player; reaching it does not end the sequence."
        )
    if domain == "frozenlake":
        return (
            f"FrozenLake on a {n}x{n} frozen lake (not slippery: moves are deterministic). Every cell is a tile: "
            f"the start, frozen ice, a hole or the goal.\n{head}"
            "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
            "Preconditions: the player is not in a hole and not on the goal, and the target cell is inside "
            "the grid.\n"
            "Effects: the player moves into the target cell. Entering a hole makes the player fall in "
            "(status: fell) and entering the goal reaches it (status: reached); either ends the episode, and "
            "no later action is taken. If a precondition fails, nothing changes."
        )
    if domain == "sokoban":
        return (
            f"Sokoban on a {n}x{n} grid. The grid holds the player, walls, blocks and goal squares.\n{head}"
            "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
            "Walk: if the target cell is inside the grid, is not a wall and holds no block, the player moves "
            "into it.\n"
            "Push: if the target cell holds a block and the cell beyond it (one further in the same direction) "
            "is inside the grid, is not a wall and holds no block, the player moves into the target cell and "
            "the block moves one cell on, into the cell beyond.\n"
            "Otherwise the action is not applicable and nothing changes. Goal squares never stop the player "
            "or a block."
        )
    if domain == "pacman":
        return (
            f"Pacman on a {n}x{n} grid without walls. The grid holds the player and coins.\n{head}"
            "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
            "Preconditions: the target cell is inside the grid.\n"
            "Effects: the player moves into the target cell; if a coin is there, the player eats it: the coin "
            "disappears and the number of collected coins grows by one. If the target cell is outside the grid, "
            "the action is not applicable and nothing changes."
        )
    if domain == "gather":
        cols = ", ".join(colours) if colours else "several colours"
        return (
            f"Gather on a {n}x{n} grid without walls. The grid holds the player and balls of the colours {cols}.\n"
            f"{head}"
            f"Actions: move <direction> <k> steps (e.g. move down 2 steps; move right 1 step), with direction up, "
            f"down, left or right and k from 1 to {n - 1}: the player moves k cells in a straight line.\n"
            "Preconditions: the cell k cells away in that direction is inside the grid.\n"
            "Effects: the player passes through the k cells in order and ends on the last one; every ball on "
            "those k cells is collected (it disappears and the count of its colour grows by one). The cell the "
            "player starts from is not collected again. If the destination is outside the grid, the action "
            "is not applicable and nothing changes."
        )
    return f"{domain} on a {n}x{n} grid.\n{head}"
