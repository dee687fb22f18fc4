"""How QuestMaze looks: a grass floor, the targets and items, and its walls drawn on cell edges.

A wall lies between two cells. It is drawn once, on the edge of the cell above or to the left of
it: kind ``wall_right`` is a wall on the cell's right edge, ``wall_down`` one on its lower edge
(the library's ``edge_right`` / ``edge_down`` sprites). Read through
:class:`~svot.domains.questmaze.spec.QuestMazeSpec` by svot.render.
"""

from __future__ import annotations

import itertools

from svot.kernel.grid import cells

FLOOR = (186, 222, 160)
TARGETS = ("princess", "treasure")
ITEMS = ("key", "heart", "food")
WALLS = ("wall_right", "wall_down")
SPRITES = {"princess": "flag", "treasure": "gift", "key": "coin", "wall_right": "edge_right", "wall_down": "edge_down"}
EMPTY_CELL_NAME = "grass"


def _label_combos() -> tuple[str, ...]:
    """Every cell a valid state can show: any walls, and at most one target or item, or the player
    alone or on a target (entering an item's cell collects it, so the player never shares one)."""
    out = []
    with_player = ((), ("player",), *(("player", t) for t in TARGETS))
    for walls in (w for k in range(len(WALLS) + 1) for w in itertools.combinations(WALLS, k)):
        for things in (*with_player, *((x,) for x in TARGETS + ITEMS)):
            kinds = (*things, *walls)
            if len(kinds) > 1:
                out.append("+".join(kinds))
    return tuple(out)


LABEL_COMBOS = _label_combos()
# (the walls are drawn between the characters: svot.render.ansi)
ANSI_CHARS = {"player": "P", "princess": "Q", "treasure": "T", "key": "K", "heart": "H", "food": "F",
              "player+princess": "q", "player+treasure": "t", "player+key": "k", "player+heart": "h", "player+food": "f"}


def random_state(name: str, n: int, rng, density: float | None) -> dict:
    """Random walls, both targets, items on a share of the other cells and the player on a cell
    without an item."""
    pool = cells(n)
    order = rng.permutation(len(pool))
    princess, treasure = (list(pool[i]) for i in order[:2])
    share = rng.uniform(0.1, 0.5) if density is None else float(density)
    k = min(len(pool) - 2, int(round(share * (len(pool) - 2))))
    items: dict[str, list] = {}
    for i in sorted(order[2:2 + k]):
        items.setdefault(ITEMS[int(rng.integers(len(ITEMS)))], []).append(list(pool[i]))
    right = [[r, c] for r, c in pool if c + 1 < n and rng.random() < 0.4]
    down = [[r, c] for r, c in pool if r + 1 < n and rng.random() < 0.4]
    holding = {tuple(c) for where in items.values() for c in where}
    free = [c for c in pool if c not in holding]
    return {"domain": name, "size": n, "player": list(free[int(rng.integers(len(free)))]),
            "princess": princess, "treasure": treasure, "items": {i: items[i] for i in ITEMS if i in items},
            "collected": {}, "reached": "none", "walls_right": right, "walls_down": down}
