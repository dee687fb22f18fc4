"""The RuleMaze vocabulary: scenarios, directions, colours, items and targets.

Every name here is lower case; rules are matched case-insensitively and
printed in the canonical spelling of :data:`DISPLAY`.

Cell symbols
------------
A maze stores one symbol per cell:

* RegularMaze: ``"green"`` (start), ``"red"`` (goal), one of :data:`COLOURS`,
  or ``"white"`` (plain cell).
* QuestMaze: ``"prince"`` (start), ``"princess"`` / ``"treasure"`` (targets),
  one of :data:`ITEMS`, ``"grass"`` (plain cell), or ``"monster"`` (an
  obstacle of the open-grid layout, never entered).

A *trajectory* records what InspectGrid (Alg. 6) reports for each visited
cell: the same names, except that plain cells read ``"normal"`` and an item
already collected earlier in the trajectory reads ``"normal"`` too.
"""

from __future__ import annotations
from svot.errors import ConfigError

REGULAR = "RegularMaze"
QUEST = "QuestMaze"
SCENARIOS = (REGULAR, QUEST)
#: The registry domain whose problems each scenario's walled mazes are (svot/domains/<name>/; the
#: open-grid QuestMaze's is questmaze5); an export keeps each scenario in a directory of that name.
DOMAIN_OF = {REGULAR: "regularmaze", QUEST: "questmaze"}
OPEN_QUEST_DOMAIN = "questmaze5"

DIRECTIONS = ("up", "down", "left", "right")
#: (d_row, d_col) with rows growing downwards.
DELTAS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
#: The move that undoes a move.
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}

#: Colours a RegularMaze zone may take (besides green start and red goal).
COLOURS = ("blue", "yellow", "pink", "purple", "orange", "blue_green")
START_COLOUR = "green"
GOAL_COLOUR = "red"
PLAIN_REGULAR = "white"
#: Colours a ``Zone`` predicate may name.
ZONE_COLOURS = COLOURS + (START_COLOUR, GOAL_COLOUR)
#: Cells a ``Zone`` atom naming a zone colour does not see: the authors' prompt for
#: validator code sets ``valid_defaults = {"green", "red"}`` so that "only walk on
#: pink" (``Zone(t,"pink")``) does not fail on the start and goal cells.
ZONE_EXEMPT = (START_COLOUR, GOAL_COLOUR)

ITEMS = ("key", "heart", "food")
TARGETS = ("princess", "treasure")
START_QUEST = "prince"
PLAIN_QUEST = "grass"
#: An obstacle cell of the open-grid QuestMaze (paper Fig. 3): never entered.
MONSTER = "monster"
#: The pseudo-item of ``Count("Total_Items", ...)``: any item.
TOTAL_ITEMS = "total_items"

#: What InspectGrid reports for a plain (white / grass) cell.
NORMAL = "normal"

REGULAR_CELL_SYMBOLS = (START_COLOUR, GOAL_COLOUR, PLAIN_REGULAR) + COLOURS
QUEST_CELL_SYMBOLS = (START_QUEST, PLAIN_QUEST) + TARGETS + ITEMS + (MONSTER,)

COMPARISON_OPS = ("<", "<=", "==", ">=", ">")

#: Canonical spelling in rule text (values not listed print as they are).
DISPLAY = {
    "key": "Key", "heart": "Heart", "food": "Food", "total_items": "Total_Items",
    "princess": "Princess", "treasure": "Treasure",
}


def normalize_scenario(name: str) -> str:
    """Map ``"regular"``, ``"RegularMaze"``, ``"quest"``... to :data:`REGULAR` / :data:`QUEST`."""
    key = str(name).strip().lower().replace("_", "").replace("-", "")
    if key in ("regular", "regularmaze"):
        return REGULAR
    if key in ("quest", "questmaze"):
        return QUEST
    raise ConfigError(f"unknown scenario {name!r} (expected {REGULAR!r} or {QUEST!r})")


def start_symbol(scenario: str) -> str:
    return START_COLOUR if normalize_scenario(scenario) == REGULAR else START_QUEST


def plain_symbol(scenario: str) -> str:
    return PLAIN_REGULAR if normalize_scenario(scenario) == REGULAR else PLAIN_QUEST


def cell_symbols(scenario: str) -> tuple[str, ...]:
    return REGULAR_CELL_SYMBOLS if normalize_scenario(scenario) == REGULAR else QUEST_CELL_SYMBOLS


def inspect_symbol(cell_symbol: str) -> str:
    """What InspectGrid reports for a cell symbol (plain cells become ``"normal"``)."""
    return NORMAL if cell_symbol in (PLAIN_REGULAR, PLAIN_QUEST) else cell_symbol


def goal_symbols(scenario: str) -> tuple[str, ...]:
    return (GOAL_COLOUR,) if normalize_scenario(scenario) == REGULAR else TARGETS
