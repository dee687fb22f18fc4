"""How Sokoban looks: floor colour, sprites, text-grid characters, label combinations, sample states.

Read through :class:`~svot.domains.sokoban.spec.SokobanSpec` by svot.render.
"""

from __future__ import annotations

from svot.domains.sampling import all_cells, density_count, take

FLOOR = (226, 214, 188)
SPRITES = {"player": "player", "wall": "wall", "block": "crate", "goal": "target"}  # crate+target: crate_on_target
LABEL_COMBOS = ("player+goal", "block+goal")
ANSI_CHARS = {"player": "P", "wall": "#", "block": "B", "goal": "G", "player+goal": "+", "block+goal": "*"}
EMPTY_CELL_NAME = "floor"


def random_state(name: str, n: int, rng, density: float | None) -> dict:
    """Player, up to four blocks, as many goals (some under blocks or the player), walls elsewhere."""
    pool = all_cells(n)
    (player,) = take(rng, pool, 1)
    nb = int(rng.integers(0, min(4, len(pool) // 2) + 1))
    blocks = take(rng, pool, nb)
    # goals: some under blocks, some under the player, the rest on free cells
    goals = []
    spare = list(pool)
    for b in blocks:
        if rng.random() < 0.35:
            goals.append(b)
    if len(goals) < nb and rng.random() < 0.3:
        goals.append(player)
    goals += take(rng, spare, nb - len(goals))
    pool = [c for c in pool if c not in goals]
    walls = take(rng, pool, density_count(rng, len(pool), density))
    return {
        "domain": name, "size": n, "player": player, "walls": sorted(walls),
        "blocks": sorted(blocks), "goals": sorted(goals),
    }
