"""How Maze looks: floor colour, sprites, text-grid characters, label combinations, sample states.

Read through :class:`~svot.domains.maze.spec.MazeSpec` by svot.render.
"""

from __future__ import annotations

from svot.domains.sampling import all_cells, density_count, take

FLOOR = (238, 232, 214)
SPRITES = {"player": "player", "wall": "wall", "goal": "flag"}
LABEL_COMBOS = ("player+goal",)
ANSI_CHARS = {"player": "P", "wall": "#", "goal": "G", "player+goal": "+"}
EMPTY_CELL_NAME = "empty"


def random_state(name: str, n: int, rng, density: float | None) -> dict:
    """Player, goal (sometimes under the player) and walls on the other cells."""
    pool = all_cells(n)
    player, goal = take(rng, pool, 2)
    if rng.random() < 0.15:
        goal = player  # the player standing on the goal
    walls = take(rng, pool, density_count(rng, len(pool), density))
    return {"domain": name, "size": n, "player": player, "walls": sorted(walls), "goal": goal}
