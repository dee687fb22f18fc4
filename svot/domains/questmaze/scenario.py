"""QuestMaze as a RuleMaze scenario (:class:`svot.rulemaze.scenario.Scenario`).

The maze kind of RuleMaze's rules, pools and exports where the prince walks from his cell, collecting
the key, heart and food on the way, until he enters the princess's or the treasure's cell. Its mazes
come in two layouts: the walled maze (this domain) and the paper's open grid whose blocked cells hold
monsters (the ``questmaze5`` domain, :mod:`svot.domains.questmaze5.scenario`).
:class:`~svot.domains.questmaze.spec.QuestMazeSpec` names :data:`SCENARIO`, which is how
:mod:`svot.rulemaze` finds it.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from svot.domains.passages import edge_walls
from svot.domains.questmaze import tiles
from svot.domains.questmaze.look import ITEMS, TARGETS
from svot.domains.questmaze5 import scenario as open_layout

Cell = tuple[int, int]
NAME = "QuestMaze"
DOMAIN = "questmaze"
START, PLAIN = "prince", "grass"

#: The built-in rules: (id, stated difficulty, split, natural language, logic).
RULE_BANK = (
    ("quest-easy-01", "easy", "seen", "You must pick up a key on the way.", 'Seen("Key")'),
    ("quest-easy-02", "easy", "seen", "Do not collect any heart.", 'NOT Seen("Heart")'),
    ("quest-easy-03", "easy", "seen", "To prove his courage, the prince must move left at least once.",
     'Moved("left")'),
    ("quest-easy-04", "easy", "seen", "The prince must never move down.", 'NOT Moved("down")'),
    ("quest-easy-05", "easy", "seen", "Your journey must end at the treasure.", 'TargetIs("Treasure")'),
    ("quest-easy-06", "easy", "seen", "Collect at least two pieces of food.", 'Count("Food",>=,2)'),
    ("quest-easy-07", "easy", "unseen", "Rescue the princess: your journey must end at her cell.",
     'TargetIs("Princess")'),
    ("quest-easy-08", "easy", "unseen", "Pick up at least two items in total.",
     'Count("Total_Items",>=,2)'),
    ("quest-easy-09", "easy", "unseen", "Never touch any food.", 'NOT Seen("Food")'),
    ("quest-easy-10", "easy", "unseen", "You may carry at most one item.", 'Count("Total_Items",<=,1)'),

    ("quest-medium-01", "medium", "seen", "If you pick up a key, you must go to the treasure.",
     'Seen("Key") -> TargetIs("Treasure")'),
    ("quest-medium-02", "medium", "seen", "You may only reach the princess after collecting a heart.",
     'TargetIs("Princess") -> Seen("Heart")'),
    ("quest-medium-03", "medium", "seen", "Pick up a key, and never move up.",
     'Seen("Key") AND NOT Moved("up")'),
    ("quest-medium-04", "medium", "seen", "Collect some food, a heart, or both.",
     'Seen("Food") OR Seen("Heart")'),
    ("quest-medium-05", "medium", "seen", "If you ever move right, you must not collect any food.",
     'Moved("right") -> NOT Seen("Food")'),
    ("quest-medium-06", "medium", "seen", "You may not collect both a heart and food.",
     'NOT (Seen("Heart") AND Seen("Food"))'),
    ("quest-medium-07", "medium", "unseen", "If you collect no key, you must end at the princess.",
     'NOT Seen("Key") -> TargetIs("Princess")'),
    ("quest-medium-08", "medium", "unseen",
     "A journey that ends at the treasure must never include a move to the left.",
     'TargetIs("Treasure") -> NOT Moved("left")'),
    ("quest-medium-09", "medium", "unseen",
     "Either collect at least three items in total or end at the princess.",
     'Count("Total_Items",>=,3) OR TargetIs("Princess")'),
    ("quest-medium-10", "medium", "unseen",
     "If you collect two or more pieces of food, you must end at the treasure.",
     'Count("Food",>=,2) -> TargetIs("Treasure")'),

    ("quest-hard-01", "hard", "seen", "If you collect both a key and a heart, you must end at the princess.",
     '(Seen("Key") AND Seen("Heart")) -> TargetIs("Princess")'),
    ("quest-hard-02", "hard", "seen", "The treasure may only be reached with a key and without any food.",
     'TargetIs("Treasure") -> (Seen("Key") AND NOT Seen("Food"))'),
    ("quest-hard-03", "hard", "seen",
     "If you ever move up or left, you must collect at least two items in total.",
     '(Moved("up") OR Moved("left")) -> Count("Total_Items",>=,2)'),
    ("quest-hard-04", "hard", "seen", "Pick up a key, end at the treasure, and never move down.",
     'Seen("Key") AND TargetIs("Treasure") AND NOT Moved("down")'),
    ("quest-hard-05", "hard", "seen",
     "To end at the princess, you must carry a heart or at least two pieces of food.",
     'TargetIs("Princess") -> (Seen("Heart") OR Count("Food",>=,2))'),
    ("quest-hard-06", "hard", "seen",
     "If you collect no key, you must end at the princess and never move right.",
     'NOT Seen("Key") -> (TargetIs("Princess") AND NOT Moved("right"))'),
    ("quest-hard-07", "hard", "unseen",
     "Collect some food or a heart, and do not end at the treasure.",
     '(Seen("Food") OR Seen("Heart")) AND NOT TargetIs("Treasure")'),
    ("quest-hard-08", "hard", "unseen", "If you move both left and right, you must not pick up a key.",
     '(Moved("left") AND Moved("right")) -> NOT Seen("Key")'),
    ("quest-hard-09", "hard", "unseen",
     "Ending at the treasure requires exactly one key and at least two items in total.",
     'TargetIs("Treasure") -> (Count("Key",==,1) AND Count("Total_Items",>=,2))'),
    ("quest-hard-10", "hard", "unseen",
     "If you collect no food, you must end at the treasure or pick up a heart (or both).",
     'NOT Seen("Food") -> (TargetIs("Treasure") OR Seen("Heart"))'),
)

GOAL_TEXT = "Guide the prince from his cell to the princess or to the treasure."
SCENE_TEXT = ("The image shows a {n}x{n} maze on grass (QuestMaze). Thick dark lines are walls: you "
              "cannot move through a wall or off the grid. The prince starts on his cell; the journey "
              "ends as soon as he enters the princess's or the treasure's cell. A key, heart or food "
              "on a cell is collected when he enters it.")


class QuestMazeScenario:
    """QuestMaze's answers to :class:`svot.rulemaze.scenario.Scenario`."""

    name = NAME
    aliases = ("quest",)
    rule_id_prefix = "quest"
    domains = {"walls": DOMAIN, "open": open_layout.DOMAIN}

    start_symbol = START
    plain_symbol = PLAIN
    goal_symbols = TARGETS
    cell_symbols = (START, PLAIN) + TARGETS + ITEMS + (open_layout.MONSTER,)
    paint_symbols = ITEMS
    collected_symbols = ITEMS
    obstacle_symbol = open_layout.MONSTER

    pool_painting = "items"
    rule_family = "history"  # Seen / Moved / Count / TargetIs
    rule_bank = RULE_BANK

    goal_text = GOAL_TEXT
    goal_words = {"princess": "the princess", "treasure": "the treasure"}
    scene_texts = {"walls": SCENE_TEXT, "open": open_layout.SCENE_TEXT}
    palette = ((58, 46, 40), (70, 104, 56), (236, 226, 198))

    text_letters = {PLAIN: ".", START: "S", "princess": "P", "treasure": "T"}
    legend_names = {"prince": "prince (start)", "princess": "princess (target)", "treasure": "treasure (target)",
                    "grass": "grass (plain)"}
    #: What ``svot.rulemaze.symbols`` answered before scenarios were declared (kept for old code).
    legacy_names = {"QUEST": NAME, "START_QUEST": START, "PLAIN_QUEST": PLAIN,
                    "QUEST_CELL_SYMBOLS": cell_symbols, "OPEN_QUEST_DOMAIN": open_layout.DOMAIN,
                    "MONSTER": open_layout.MONSTER}

    def draw_tile(self, symbol: str, h: int, w: int, scale: int) -> np.ndarray | None:
        return tiles.draw_tile(symbol, h, w, scale)  # grass, and the icons on it

    def goal_error(self, held: Sequence[str]) -> str | None:
        if len(held) != len(set(held)):
            return f"maze.goals: each QuestMaze target appears once, got {list(held)}"
        return None

    def initial_state(self, layout: str, size: int, start: Cell, goals: Sequence[Cell],
                      cells: Sequence[Sequence[str]], passages) -> dict:
        if layout == "open":
            return open_layout.initial_state(size, start, cells)
        items: dict[str, list] = {}
        for r in range(size):
            for c in range(size):
                if cells[r][c] in ITEMS:
                    items.setdefault(cells[r][c], []).append([r, c])
        targets = {cells[g[0]][g[1]]: list(g) for g in goals}
        walls_right, walls_down = edge_walls(size, passages)
        return {
            "domain": DOMAIN, "size": size, "player": list(start),
            "princess": targets["princess"], "treasure": targets["treasure"],
            "items": {i: items[i] for i in ITEMS if i in items}, "collected": {}, "reached": "none",
            "walls_right": walls_right, "walls_down": walls_down,
        }

    def open_grid_cells(self, state: dict) -> dict[Cell, str]:
        return open_layout.state_cells(state)

    def pool_stats(self, cells_per_maze: Sequence[Sequence[str]], goal_counts: Sequence[int]) -> dict:
        n = len(cells_per_maze)
        items = [sum(s in ITEMS for s in cells) for cells in cells_per_maze]
        return {
            "items_mean": sum(items) / n,
            "one_target_share": sum(t == 1 for t in goal_counts) / n,
            "two_targets_share": sum(t == 2 for t in goal_counts) / n,
        }


SCENARIO = QuestMazeScenario()
