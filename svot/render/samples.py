"""Random *valid-looking* state dicts per domain, for tests and benchmarks of the renderer.

Each domain's spec draws them (``spec.random_state``, written in its
``look.py``): they follow the domain's state-dict schema and invariants
(nothing on a wall, as many goals as blocks, a ``tile``/``status`` that fits the
player's cell, the colours of the size, sorted coordinate lists), but are not
checked for reachability or solvability: that is the problem generators' job.
"""

from __future__ import annotations

import numpy as np


def random_state(spec, size: int, rng: np.random.Generator | int | None = None, density: float | None = None) -> dict:
    """A random state dict of ``spec``'s domain on a ``size`` x ``size`` grid.

    Raises :class:`~svot.errors.ConfigError` for a domain whose spec defines no ``random_state``.
    """
    return spec.random_state(int(size), np.random.default_rng(rng), density)
