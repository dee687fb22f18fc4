"""How FrozenLake looks: icy floor, sprites, text-grid characters, label combinations, sample states.

Read through :class:`~svot.domains.frozenlake.spec.FrozenLakeSpec` by svot.render.
"""

from __future__ import annotations

from svot.domains.sampling import all_cells, density_count, take

FLOOR = (214, 234, 246)
FLOOR_SHEEN = True  # empty cells are ice: two faint streaks
SPRITES = {"player": "player", "hole": "hole", "goal": "gift", "start": "start"}
LABEL_COMBOS = ("player+hole", "player+goal", "player+start")
ANSI_CHARS = {
    "player": "P", "hole": "H", "goal": "G", "start": "S",
    "player+hole": "X", "player+goal": "+", "player+start": "@",
}
EMPTY_CELL_NAME = "frozen"


def random_state(name: str, n: int, rng, density: float | None, tile_and_status) -> dict:
    """Start, goal, holes, and the player on one of them or on the ice; ``tile``/``status`` from ``tile_and_status``."""
    pool = all_cells(n)
    start, goal = take(rng, pool, 2)
    holes = sorted(take(rng, pool, density_count(rng, len(pool), density)))
    where = rng.choice(["start", "frozen", "hole", "goal"], p=[0.25, 0.45, 0.15, 0.15])
    if where == "hole" and holes:
        player = holes[int(rng.integers(len(holes)))]
    elif where == "goal":
        player = goal
    elif where == "frozen" and pool:
        player = pool[int(rng.integers(len(pool)))]
    else:
        player = start
    tile, status = tile_and_status(player, holes, goal, start)
    return {
        "domain": name, "size": n, "player": list(player), "holes": holes, "goal": goal,
        "start": start, "tile": tile, "status": status,
    }
