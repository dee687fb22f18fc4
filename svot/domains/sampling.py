"""Helpers of the domains' random state dicts (each spec's ``random_state``, used by svot.render.samples).

They draw from a :class:`numpy.random.Generator` in a fixed order, so a seed
gives the same state every time.
"""

from __future__ import annotations


def all_cells(n: int) -> list[list[int]]:
    """Every cell of an ``n`` x ``n`` grid as ``[row, col]``, row-major."""
    return [[r, c] for r in range(n) for c in range(n)]


def take(rng, pool: list, k: int) -> list:
    """``k`` distinct items of ``pool`` (removed from it), in random order."""
    idx = sorted(rng.choice(len(pool), size=k, replace=False).tolist(), reverse=True)
    return [pool.pop(i) for i in idx]


def density_count(rng, free: int, density: float | None) -> int:
    """How many of ``free`` cells to fill at ``density`` (None: a density drawn from U(0, 0.6))."""
    if density is None:
        density = float(rng.uniform(0.0, 0.6))
    return int(rng.binomial(free, density)) if free > 0 else 0
