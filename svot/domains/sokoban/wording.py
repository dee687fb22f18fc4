"""Sokoban in the datasets' words: preconditions, effects, the goal question, distractors.

Read through :class:`~svot.domains.sokoban.SokobanSpec` by :mod:`svot.dataset`.
"""

from __future__ import annotations

from svot.kernel.distractors import MAX_DISTANCE, cells_near, near_cells
from svot.kernel.phrases import ADJ, WALL, Phrase, coordinates_text, fmt_cell

PHRASES = {
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
}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {
    "walk": "the player walks to {to}",
    "push": "the player moves to {to} and pushes the block from {to} to {beyond}",
}

KIND_WORDS = {"player": "the player", "wall": "a wall", "block": "a block", "goal": "a goal square"}

#: The state fields the goal g asks for (SVoT §4).
GOAL_FIELDS = ("player", "blocks")

QUESTION = "After all the actions, where are the player and all the blocks?"

ANSWER_FORMAT = "Player: (row, column); blocks: (row, column), (row, column), ... (row-major order)"


def describe(size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    n = size
    return (
        f"Sokoban on a {n}x{n} grid. The grid holds the player, walls, blocks and goal squares.\n{coordinates_text(size)}\n"
        "Actions: move up, move down, move left, move right. Each moves the player one cell.\n"
        "Walk: if the target cell is inside the grid, is not a wall and holds no block, the player moves "
        "into it.\n"
        "Push: if the target cell holds a block and the cell beyond it (one further in the same direction) "
        "is inside the grid, is not a wall and holds no block, the player moves into the target cell and "
        "the block moves one cell on, into the cell beyond.\n"
        "Otherwise the action is not applicable and nothing changes. Goal squares never stop the player "
        "or a block."
    )


def effect_clauses(before: dict, after: dict, applied: list, add) -> list[str]:
    """The chain's Sokoban effect: ``block positions change: {from} → {to}`` or ``... remain the same``."""
    gone = [b for b in before["blocks"] if b not in after["blocks"]]
    new = [b for b in after["blocks"] if b not in before["blocks"]]
    if gone or new:
        pairs = ", ".join(
            f"{add('block_pushed_from', fmt_cell(a))} → {add('block_pushed_to', fmt_cell(b))}" for a, b in zip(gone, new)
        )
        return [f"block positions change: {pairs}"]
    return [f"block positions {add('blocks', 'remain the same')}"]


# --------------------------------------------------------------------------- distractors


def distractor_pools(truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct, other): blocks on distinct free cells, never under the player."""
    size = int(initial["size"])
    walls = {tuple(w) for w in initial.get("walls", [])}
    p = truth["player"]
    blocks = [list(b) for b in truth["blocks"]]
    bset = {tuple(b) for b in blocks}
    players = near_cells(p, size, walls | bset)
    block_sets = []
    for i, b in enumerate(blocks):
        for q in near_cells(b, size, walls | bset):
            block_sets.append(sorted(blocks[:i] + [q] + blocks[i + 1 :]))
    partial: list[dict] = []
    other: list[dict] = []
    for bs in block_sets:
        if list(p) not in bs:
            partial.append({"player": list(p), "blocks": bs})
    for q in players:
        partial.append({"player": q, "blocks": blocks})
    for q in players:
        for bs in block_sets:
            if q not in bs:
                other.append({"player": q, "blocks": bs})
    return partial, other


def choice_problems(truth: dict, choice: dict, initial: dict) -> list[str]:
    size = int(initial["size"])
    walls = [list(w) for w in initial.get("walls", [])]

    def cell_ok(q) -> bool:
        return 0 <= q[0] < size and 0 <= q[1] < size and list(q) not in walls

    problems = []
    bs = choice["blocks"]
    if any(not cell_ok(b) for b in bs) or len({tuple(b) for b in bs}) != len(bs) or choice["player"] in bs:
        problems.append(f"blocks {bs} invalid")
    if not cells_near(truth["blocks"], bs):
        problems.append(f"blocks {bs} not within {MAX_DISTANCE} of {truth['blocks']}")
    return problems
