"""The open-grid layout of RuleMaze's QuestMaze scenario (paper Fig. 3): what it adds to
:mod:`svot.domains.questmaze.scenario`, whose scenario lists this domain as its ``"open"`` layout.

On the open grid there are no walls; a monster blocks its cell, and a maze may hold one target.
"""

from __future__ import annotations

from typing import Sequence

from svot.domains.questmaze5.look import ITEMS, MONSTER, TARGETS

Cell = tuple[int, int]
DOMAIN = "questmaze5"

SCENE_TEXT = ("The image shows a {n}x{n} grid of cells on grass (QuestMaze). A monster blocks its "
              "cell: you cannot enter it or move off the grid. The prince starts on his cell; the "
              "journey ends as soon as he enters the princess's or the treasure's cell. A key, "
              "heart or food on a cell is collected when he enters it.")


def initial_state(size: int, start: Cell, cells: Sequence[Sequence[str]]) -> dict:
    """An open-grid maze as a state dict of this domain (its initial state)."""
    found: dict[str, dict[str, list]] = {"targets": {}, "items": {}}
    monsters = []
    for r in range(size):
        for c in range(size):
            sym = cells[r][c]
            if sym == MONSTER:
                monsters.append([r, c])
            elif sym in TARGETS or sym in ITEMS:
                found["targets" if sym in TARGETS else "items"].setdefault(sym, []).append([r, c])
    targets, items = found["targets"], found["items"]
    return {
        "domain": DOMAIN, "size": size, "player": list(start),
        "targets": {t: targets[t] for t in TARGETS if t in targets},
        "items": {i: items[i] for i in ITEMS if i in items}, "collected": {}, "reached": "none",
        "monsters": monsters,
    }


def state_cells(state: dict) -> dict[Cell, str]:
    """The symbol of every cell a state of this domain fills: targets, items and monsters."""
    out: dict[Cell, str] = {}
    for key in ("targets", "items"):
        for sym, where in state[key].items():
            for r, c in where:
                out[(r, c)] = sym
    for r, c in state["monsters"]:
        out[(r, c)] = MONSTER
    return out
