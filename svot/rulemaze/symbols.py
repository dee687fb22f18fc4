"""The RuleMaze vocabulary: directions and the rule language's values (colours, items, targets).

Every name here is lower case; rules are matched case-insensitively and
printed in the canonical spelling of :data:`DISPLAY`.

Cell symbols
------------
A maze stores one symbol per cell. Which symbols, and which of them is the start, a goal or
a plain cell, is its *scenario*'s to say (:mod:`svot.rulemaze.scenario`; each one is declared in
its domain's folder). The rule language below speaks of all of them: ``Zone`` of the zone
colours, ``Seen`` / ``Count`` of the items, ``TargetIs`` of the targets.

A *trajectory* records what InspectGrid (Alg. 6) reports for each visited
cell: the same names, except that plain cells read ``"normal"`` and an item
already collected earlier in the trajectory reads ``"normal"`` too.

The scenario constants this module once held (the scenario names, their start, plain and cell
symbols, their domains) are still answered for old code, from the scenarios' ``legacy_names``.
"""

from __future__ import annotations

from svot.rulemaze.scenario import get_scenario, normalize_scenario, scenario_names, scenarios

#: The scenarios' names, in the domain registry's order.
SCENARIOS = scenario_names()
#: The registry domain whose problems each scenario's walled mazes are (svot/domains/<name>/); an
#: export keeps each scenario in a directory of that name.
DOMAIN_OF = {s.name: s.domains["walls"] for s in scenarios()}

DIRECTIONS = ("up", "down", "left", "right")
#: (d_row, d_col) with rows growing downwards.
DELTAS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
#: The move that undoes a move.
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}

#: Colours a RegularMaze zone may take (besides green start and red goal).
COLOURS = ("blue", "yellow", "pink", "purple", "orange", "blue_green")
START_COLOUR = "green"
GOAL_COLOUR = "red"
#: Colours a ``Zone`` predicate may name.
ZONE_COLOURS = COLOURS + (START_COLOUR, GOAL_COLOUR)
#: Cells a ``Zone`` atom naming a zone colour does not see: the authors' prompt for
#: validator code sets ``valid_defaults = {"green", "red"}`` so that "only walk on
#: pink" (``Zone(t,"pink")``) does not fail on the start and goal cells.
ZONE_EXEMPT = (START_COLOUR, GOAL_COLOUR)

ITEMS = ("key", "heart", "food")
TARGETS = ("princess", "treasure")
#: The pseudo-item of ``Count("Total_Items", ...)``: any item.
TOTAL_ITEMS = "total_items"

#: What InspectGrid reports for a plain (white / grass) cell.
NORMAL = "normal"

COMPARISON_OPS = ("<", "<=", "==", ">=", ">")

#: Canonical spelling in rule text (values not listed print as they are).
DISPLAY = {
    "key": "Key", "heart": "Heart", "food": "Food", "total_items": "Total_Items",
    "princess": "Princess", "treasure": "Treasure",
}


def start_symbol(scenario: str) -> str:
    return get_scenario(scenario).start_symbol


def plain_symbol(scenario: str) -> str:
    return get_scenario(scenario).plain_symbol


def cell_symbols(scenario: str) -> tuple[str, ...]:
    return get_scenario(scenario).cell_symbols


#: Every scenario's plain cell symbol.
PLAIN_SYMBOLS = tuple(s.plain_symbol for s in scenarios())
#: Every scenario's goal symbols: a walk ends on one of these.
GOAL_SYMBOLS = tuple(g for s in scenarios() for g in s.goal_symbols)
#: Every scenario's collected symbols: taken when entered, "normal" afterwards.
COLLECTED_SYMBOLS = tuple(c for s in scenarios() for c in s.collected_symbols)


def inspect_symbol(cell_symbol: str) -> str:
    """What InspectGrid reports for a cell symbol (plain cells become ``"normal"``)."""
    return NORMAL if cell_symbol in PLAIN_SYMBOLS else cell_symbol


def goal_symbols(scenario: str) -> tuple[str, ...]:
    return get_scenario(scenario).goal_symbols


def __getattr__(name: str):
    """The constants of old code (``REGULAR``, ``START_QUEST``...), from the scenarios that declare them."""
    for s in scenarios():
        if name in s.legacy_names:
            return s.legacy_names[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["COLLECTED_SYMBOLS", "COLOURS", "COMPARISON_OPS", "DELTAS", "DIRECTIONS", "DISPLAY", "DOMAIN_OF",
           "GOAL_COLOUR", "GOAL_SYMBOLS", "ITEMS", "NORMAL", "OPPOSITE", "PLAIN_SYMBOLS", "SCENARIOS",
           "START_COLOUR", "TARGETS", "TOTAL_ITEMS", "ZONE_COLOURS", "ZONE_EXEMPT", "cell_symbols", "get_scenario",
           "goal_symbols", "inspect_symbol", "normalize_scenario", "plain_symbol", "start_symbol"]
