"""RegularMaze as a RuleMaze scenario (:class:`svot.rulemaze.scenario.Scenario`).

The maze kind of RuleMaze's rules, pools and exports: a walled maze whose cells are white, painted
in a zone colour, the green start or the red goal. :class:`~svot.domains.regularmaze.spec.RegularMazeSpec`
names :data:`SCENARIO`, which is how :mod:`svot.rulemaze` finds it.
"""

from __future__ import annotations

from typing import Sequence

from svot.domains.passages import edge_walls
from svot.domains.regularmaze.look import GOAL_COLOUR, START_COLOUR, ZONES

Cell = tuple[int, int]
NAME = "RegularMaze"
DOMAIN = "regularmaze"
PLAIN = "white"

#: The built-in rules: (id, stated difficulty, split, natural language, logic).
RULE_BANK = (
    ("regular-easy-01", "easy", "seen", "Never enter a yellow cell.", 'NOT Zone(t,"yellow")'),
    ("regular-easy-02", "easy", "seen", "Moving into pink zones is strictly prohibited.",
     'NOT Zone(t,"pink")'),
    ("regular-easy-03", "easy", "seen", "You may never move up.", 'NOT Move(t,"up")'),
    ("regular-easy-04", "easy", "seen", "Stay out of blue cells.", 'NOT Zone(t,"blue")'),
    ("regular-easy-05", "easy", "seen", "Never move left.", 'NOT Move(t,"left")'),
    ("regular-easy-06", "easy", "seen", "Orange cells are off limits.", 'NOT Zone(t,"orange")'),
    ("regular-easy-07", "easy", "unseen", "Do not step on any purple cell.", 'NOT Zone(t,"purple")'),
    ("regular-easy-08", "easy", "unseen", "Moving down is not allowed.", 'NOT Move(t,"down")'),
    ("regular-easy-09", "easy", "unseen", "Avoid blue-green cells entirely.",
     'NOT Zone(t,"blue_green")'),
    ("regular-easy-10", "easy", "unseen", "You must never move right.", 'NOT Move(t,"right")'),

    ("regular-medium-01", "medium", "seen", "If you are in a blue cell, your next move must be right.",
     'Zone(t,"blue") -> Move(t,"right")'),
    ("regular-medium-02", "medium", "seen",
     "If you are standing in an orange zone, your next move must be up.",
     'Zone(t,"orange") -> Move(t,"up")'),
    ("regular-medium-03", "medium", "seen", "Never move up twice in a row.",
     'NOT (Move(t-1,"up") AND Move(t,"up"))'),
    ("regular-medium-04", "medium", "seen", "From a pink cell, you may not move down.",
     'Zone(t,"pink") -> NOT Move(t,"down")'),
    ("regular-medium-05", "medium", "seen",
     "If you are in a blue-green zone, the next cell you enter must be yellow.",
     'Zone(t,"blue_green") -> Zone(t+1,"yellow")'),
    ("regular-medium-06", "medium", "seen", "Every move must be either down or right.",
     'Move(t,"down") OR Move(t,"right")'),
    ("regular-medium-07", "medium", "unseen", "You may not enter a yellow cell by moving left.",
     'Move(t-1,"left") -> NOT Zone(t,"yellow")'),
    ("regular-medium-08", "medium", "unseen", "If you are on a purple cell, your next move must be left.",
     'Zone(t,"purple") -> Move(t,"left")'),
    ("regular-medium-09", "medium", "unseen",
     "Right after you leave a pink cell, your next move must not be up.",
     'Zone(t-1,"pink") -> NOT Move(t,"up")'),
    ("regular-medium-10", "medium", "unseen", "Stay out of both yellow and orange cells.",
     'NOT Zone(t,"yellow") AND NOT Zone(t,"orange")'),

    ("regular-hard-01", "hard", "seen",
     "If you moved up into a blue-green cell, your next move must be right.",
     '(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")'),
    ("regular-hard-02", "hard", "seen", "From a blue cell, you must move up or left.",
     'Zone(t,"blue") -> (Move(t,"up") OR Move(t,"left"))'),
    ("regular-hard-03", "hard", "seen", "When standing on a pink or purple cell, never move down.",
     '(Zone(t,"pink") OR Zone(t,"purple")) -> NOT Move(t,"down")'),
    ("regular-hard-04", "hard", "seen",
     "If you entered an orange cell by moving right, your next move must be down.",
     '(Move(t-1,"right") AND Zone(t,"orange")) -> Move(t,"down")'),
    ("regular-hard-05", "hard", "seen",
     "If you are on a yellow cell, you must move right next, and the cell you enter must not be yellow.",
     'Zone(t,"yellow") -> (Move(t,"right") AND NOT Zone(t+1,"yellow"))'),
    ("regular-hard-06", "hard", "seen", "You may not enter a blue or pink cell by moving left.",
     'Move(t-1,"left") -> (NOT Zone(t,"blue") AND NOT Zone(t,"pink"))'),
    ("regular-hard-07", "hard", "unseen",
     "If you are in a blue-green zone, your next move must be down or the next cell you enter "
     "must be yellow.",
     'Zone(t,"blue_green") -> (Move(t,"down") OR Zone(t+1,"yellow"))'),
    ("regular-hard-08", "hard", "unseen",
     "If you entered a purple cell by moving down, you must not move down again.",
     '(Move(t-1,"down") AND Zone(t,"purple")) -> NOT Move(t,"down")'),
    ("regular-hard-09", "hard", "unseen", "From an orange cell, your next move must be left or right.",
     'Zone(t,"orange") -> (Move(t,"left") OR Move(t,"right"))'),
    ("regular-hard-10", "hard", "unseen",
     "If you leave a yellow cell by moving up, your next move must be right.",
     '(Zone(t-1,"yellow") AND Move(t-1,"up")) -> Move(t,"right")'),
)

GOAL_TEXT = "Navigate from the green cell to the red cell."
SCENE_TEXT = ("The image shows a {n}x{n} maze (RegularMaze). Thick black lines are walls: you cannot "
              "move through a wall or off the grid. The green cell is the start and the red cell is "
              "the goal; blue, yellow, pink, purple, orange and blue-green cells are coloured zones, "
              "white cells are plain.")


class RegularMazeScenario:
    """RegularMaze's answers to :class:`svot.rulemaze.scenario.Scenario`."""

    name = NAME
    aliases = ("regular",)
    rule_id_prefix = "regular"
    domains = {"walls": DOMAIN}

    start_symbol = START_COLOUR
    plain_symbol = PLAIN
    goal_symbols = (GOAL_COLOUR,)
    cell_symbols = (START_COLOUR, GOAL_COLOUR, PLAIN) + ZONES
    paint_symbols = ZONES
    collected_symbols: tuple[str, ...] = ()
    obstacle_symbol = None

    pool_painting = "zones"
    rule_family = "time-indexed"  # Zone / Move
    rule_bank = RULE_BANK

    goal_text = GOAL_TEXT
    goal_words = {GOAL_COLOUR: "the red goal cell"}
    scene_texts = {"walls": SCENE_TEXT}
    palette = ((22, 22, 22), (188, 188, 188), (255, 255, 255))

    text_letters = {START_COLOUR: "S", GOAL_COLOUR: "G", PLAIN: ".", "blue_green": "g"}
    legend_names = {"green": "start (green)", "red": "goal (red)", "white": "plain cell", "blue_green": "blue-green"}
    #: What ``svot.rulemaze.symbols`` answered before scenarios were declared (kept for old code).
    legacy_names = {"REGULAR": NAME, "PLAIN_REGULAR": PLAIN, "REGULAR_CELL_SYMBOLS": cell_symbols}

    def draw_tile(self, symbol: str, h: int, w: int, scale: int) -> None:
        return None  # every cell is a flat colour: white, or a paint of svot's palette

    def goal_error(self, held: Sequence[str]) -> str | None:
        if len(held) != 1:
            return f"maze.goals: a RegularMaze has exactly one goal, got {len(held)}"
        return None

    def initial_state(self, layout: str, size: int, start: Cell, goals: Sequence[Cell],
                      cells: Sequence[Sequence[str]], passages) -> dict:
        zones: dict[str, list] = {}
        for r in range(size):
            for c in range(size):
                if cells[r][c] in ZONES:
                    zones.setdefault(cells[r][c], []).append([r, c])
        (goal,) = goals
        walls_right, walls_down = edge_walls(size, passages)
        return {
            "domain": DOMAIN, "size": size, "player": list(start), "start": list(start),
            "goal": list(goal), "zones": {z: zones[z] for z in ZONES if z in zones},
            "walls_right": walls_right, "walls_down": walls_down,
        }

    def open_grid_cells(self, state: dict) -> dict[Cell, str]:
        raise NotImplementedError("RegularMaze has no open layout")

    def pool_stats(self, cells_per_maze: Sequence[Sequence[str]], goal_counts: Sequence[int]) -> dict:
        n = len(cells_per_maze)
        colours = [[s for s in cells if s in ZONES] for cells in cells_per_maze]
        return {
            "uncoloured_share": sum(not c for c in colours) / n,
            "coloured_cells_mean": sum(len(c) for c in colours) / n,
            "two_colours_share": sum(len(set(c)) >= 2 for c in colours) / n,
        }


SCENARIO = RegularMazeScenario()
