"""How OpenQuestMaze looks: a grass floor, the targets and items, and the monsters on their cells.

Read through :class:`~svot.domains.questmaze5.spec.OpenQuestMazeSpec` by svot.render. A monster
blocks its cell as a wall does, and is drawn with the library's wall block (a generic shape was
too close to the generic heart and food at small tiles; RuleMaze's own renderer,
:mod:`svot.rulemaze.render`, draws the paper's monster).
"""

from __future__ import annotations

from svot.kernel.grid import cells

FLOOR = (186, 222, 160)
TARGETS = ("princess", "treasure")
ITEMS = ("key", "heart", "food")
MONSTER = "monster"
SPRITES = {"princess": "flag", "treasure": "gift", "key": "coin", MONSTER: "wall"}
EMPTY_CELL_NAME = "grass"
# The player alone or on a target; a cell holds at most one target, item or monster, and the
# player never shares a cell with an item (entering it collects it) or a monster (never entered).
LABEL_COMBOS = tuple(f"player+{t}" for t in TARGETS)
ANSI_CHARS = {"player": "P", "princess": "Q", "treasure": "T", "key": "K", "heart": "H", "food": "F",
              "monster": "M", "player+princess": "q", "player+treasure": "t"}


def random_state(name: str, n: int, rng, density: float | None) -> dict:
    """Random monsters, one or both targets, items on a share of the other cells, and the player
    on a cell with none of them."""
    pool = cells(n)
    order = [pool[int(i)] for i in rng.permutation(len(pool))]
    both = rng.random() < 0.7
    targets = {t: [list(c)] for t, c in zip(TARGETS if both else TARGETS[:1], order[:2])}
    rest = order[2:]
    share = rng.uniform(0.1, 0.5) if density is None else float(density)
    k = min(len(rest) - 1, int(round(share * len(rest))))
    monsters = sorted(rest[:k])
    items: dict[str, list] = {}
    for cell in sorted(rest[k:k + k // 2]):
        items.setdefault(ITEMS[int(rng.integers(len(ITEMS)))], []).append(list(cell))
    left = rest[k + k // 2:]
    player = left[int(rng.integers(len(left)))] if left else order[0]
    return {"domain": name, "size": n, "player": list(player), "targets": targets,
            "items": {i: items[i] for i in ITEMS if i in items}, "collected": {}, "reached": "none",
            "monsters": [list(c) for c in monsters]}
