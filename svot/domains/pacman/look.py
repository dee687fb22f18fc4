"""How Pacman looks: dark floor, sprites, text-grid characters, label combinations, sample states.

Read through :class:`~svot.domains.pacman.spec.PacmanSpec` by svot.render.
"""

from __future__ import annotations

from svot.domains.sampling import all_cells, density_count, take

FLOOR = (30, 30, 66)
SPRITES = {"player": "player", "coin": "coin"}
LABEL_COMBOS = ()  # the player eats the coin of its cell: no two kinds share one
ANSI_CHARS = {"player": "P", "coin": "o"}
EMPTY_CELL_NAME = "empty"


def random_state(name: str, n: int, rng, density: float | None) -> dict:
    """Player, coins on other cells, and a count of coins already eaten."""
    pool = all_cells(n)
    (player,) = take(rng, pool, 1)
    coins = sorted(take(rng, pool, density_count(rng, len(pool), density)))
    collected = int(rng.integers(0, n * n))
    return {
        "domain": name, "size": n, "player": player, "coins": coins,
        "collected": collected, "total": collected + len(coins),
    }
