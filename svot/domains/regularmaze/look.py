"""How RegularMaze looks: white cells, flat painted zones, the green start, the red goal, and walls
drawn on cell edges (``wall_right`` / ``wall_down``, as in :mod:`svot.domains.questmaze.look`).

Read through :class:`~svot.domains.regularmaze.spec.RegularMazeSpec` by svot.render.
"""

from __future__ import annotations

import itertools

from svot.kernel.grid import cells

FLOOR = (255, 255, 255)
#: The zone colours rules speak of (RuleMaze's palette, less the start's green and the goal's red).
ZONES = ("blue", "yellow", "pink", "purple", "orange", "blue_green")
START_COLOUR, GOAL_COLOUR = "green", "red"
WALLS = ("wall_right", "wall_down")
SPRITES = {"start": "paint_green", "goal": "paint_red", **{f"zone_{z}": f"paint_{z}" for z in ZONES},
           "wall_right": "edge_right", "wall_down": "edge_down"}
EMPTY_CELL_NAME = "white cell"
# (the walls are drawn between the characters: svot.render.ansi)
ANSI_CHARS = {"player": "P", "start": "S", "goal": "G", "player+start": "@", "player+goal": "+",
              **{f"zone_{z}": str(i) for i, z in enumerate(ZONES, 1)}}


def _label_combos() -> tuple[str, ...]:
    """Every cell a state can show: any walls, at most one paint (start, goal or a zone), maybe the player."""
    paints = ((), ("start",), ("goal",), *((f"zone_{z}",) for z in ZONES))
    out = []
    for walls in (w for k in range(len(WALLS) + 1) for w in itertools.combinations(WALLS, k)):
        for paint in paints:
            for player in ((), ("player",)):
                kinds = (*player, *paint, *walls)
                if len(kinds) > 1:
                    out.append("+".join(kinds))
    return tuple(out)


LABEL_COMBOS = _label_combos()


def random_state(name: str, n: int, rng, density: float | None) -> dict:
    """Random walls, start and goal, zones on a share of the other cells, the player anywhere."""
    pool = cells(n)
    order = rng.permutation(len(pool))
    start, goal = (list(pool[i]) for i in order[:2])
    share = rng.uniform(0.1, 0.6) if density is None else float(density)
    zones: dict[str, list] = {}
    for i in sorted(order[2:2 + int(round(share * (len(pool) - 2)))]):
        zones.setdefault(ZONES[int(rng.integers(len(ZONES)))], []).append(list(pool[i]))
    return {"domain": name, "size": n, "player": list(pool[int(rng.integers(len(pool)))]), "start": start,
            "goal": goal, "zones": {z: zones[z] for z in ZONES if z in zones},
            "walls_right": [[r, c] for r, c in pool if c + 1 < n and rng.random() < 0.4],
            "walls_down": [[r, c] for r, c in pool if r + 1 < n and rng.random() < 0.4]}
