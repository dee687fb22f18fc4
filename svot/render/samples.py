"""Random *valid-looking* state dicts per domain, for tests and benchmarks of the renderer.

These follow each domain's state-dict schema and invariants (nothing on a wall,
Sokoban goals as many as blocks, FrozenLake ``tile``/``status`` consistent with
the player's cell, Gather colours of the size, sorted coordinate lists), but
are not checked for reachability or solvability: that is the problem
generators' job.
"""

from __future__ import annotations

import numpy as np

from svot.domains.frozenlake import tile_and_status
from svot.errors import ConfigError


def _cells(n: int) -> list[list[int]]:
    return [[r, c] for r in range(n) for c in range(n)]


def _take(rng, pool: list, k: int) -> list:
    """``k`` distinct items of ``pool`` (removed from it), in random order."""
    idx = sorted(rng.choice(len(pool), size=k, replace=False).tolist(), reverse=True)
    return [pool.pop(i) for i in idx]


def _density_count(rng, free: int, density: float | None) -> int:
    if density is None:
        density = float(rng.uniform(0.0, 0.6))
    return int(rng.binomial(free, density)) if free > 0 else 0


def random_state(spec, size: int, rng: np.random.Generator | int | None = None, density: float | None = None) -> dict:
    """A random state dict of ``spec``'s domain on a ``size`` x ``size`` grid."""
    rng = np.random.default_rng(rng)
    n = int(size)
    pool = _cells(n)
    name = spec.name
    if name == "maze":
        player, goal = _take(rng, pool, 2)
        if rng.random() < 0.15:
            goal = player  # the player standing on the goal
        walls = _take(rng, pool, _density_count(rng, len(pool), density))
        return {"domain": name, "size": n, "player": player, "walls": sorted(walls), "goal": goal}
    if name == "frozenlake":
        start, goal = _take(rng, pool, 2)
        holes = sorted(_take(rng, pool, _density_count(rng, len(pool), density)))
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
    if name == "sokoban":
        (player,) = _take(rng, pool, 1)
        nb = int(rng.integers(0, min(4, len(pool) // 2) + 1))
        blocks = _take(rng, pool, nb)
        # goals: some under blocks, some under the player, the rest on free cells
        goals = []
        spare = list(pool)
        for b in blocks:
            if rng.random() < 0.35:
                goals.append(b)
        if len(goals) < nb and rng.random() < 0.3:
            goals.append(player)
        goals += _take(rng, spare, nb - len(goals))
        pool = [c for c in pool if c not in goals]
        walls = _take(rng, pool, _density_count(rng, len(pool), density))
        return {
            "domain": name, "size": n, "player": player, "walls": sorted(walls),
            "blocks": sorted(blocks), "goals": sorted(goals),
        }
    if name == "pacman":
        (player,) = _take(rng, pool, 1)
        coins = sorted(_take(rng, pool, _density_count(rng, len(pool), density)))
        collected = int(rng.integers(0, n * n))
        return {
            "domain": name, "size": n, "player": player, "coins": coins,
            "collected": collected, "total": collected + len(coins),
        }
    if name == "gather":
        from svot.domains.gather import colours_for

        (player,) = _take(rng, pool, 1)
        colours = colours_for(n)
        placed = _take(rng, pool, _density_count(rng, len(pool), density))
        balls = {c: [] for c in colours}
        for cell in placed:
            balls[colours[int(rng.integers(len(colours)))]].append(cell)
        return {
            "domain": name, "size": n, "player": player,
            "balls": {c: sorted(v) for c, v in balls.items()},
            "collected": {c: int(rng.integers(0, n * n)) for c in colours},
        }
    raise ConfigError(f"random_state knows no domain {name!r}")
