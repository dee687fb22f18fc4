"""How Gather looks: floor colour, ball sprites, text-grid characters, label combinations, sample states.

Read through :class:`~svot.domains.gather.spec.GatherSpec` by svot.render. The
colours of a size come from the spec (``colours_for``), passed in.
"""

from __future__ import annotations

from svot.domains.sampling import all_cells, density_count, take

FLOOR = (236, 236, 232)
BALL_CHARS = {"red": "r", "green": "g", "blue": "b", "yellow": "y"}
LABEL_COMBOS = ()  # the player collects the ball of its cell: no two kinds share one
EMPTY_CELL_NAME = "empty"


def sprites(colours) -> dict[str, str]:
    """The player, and the renderer's ball sprite of each colour."""
    return {"player": "player", **{f"ball_{c}": f"ball_{c}" for c in colours}}


def ansi_chars(colours) -> dict[str, str]:
    """``P`` for the player, a colour's initial for its balls."""
    return {"player": "P", **{f"ball_{c}": BALL_CHARS[c] for c in colours}}


def kinds_at(kinds, colours) -> tuple[str, ...]:
    """``kinds`` without the balls of colours the size does not use."""
    balls = {f"ball_{c}" for c in colours}
    return tuple(k for k in kinds if not k.startswith("ball_") or k in balls)


def random_state(name: str, n: int, rng, density: float | None, colours) -> dict:
    """Player, balls of the size's ``colours`` on other cells, and counts already collected."""
    pool = all_cells(n)
    (player,) = take(rng, pool, 1)
    placed = take(rng, pool, density_count(rng, len(pool), density))
    balls = {c: [] for c in colours}
    for cell in placed:
        balls[colours[int(rng.integers(len(colours)))]].append(cell)
    return {
        "domain": name, "size": n, "player": player,
        "balls": {c: sorted(v) for c, v in balls.items()},
        "collected": {c: int(rng.integers(0, n * n)) for c in colours},
    }
