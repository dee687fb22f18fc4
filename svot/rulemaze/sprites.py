"""Cell tiles of the RuleMaze images.

A tile covers one whole cell (walls and grid lines are drawn over its edges
later, by :mod:`.render`). Plain white cells and the paints (zone colours, the
green start, the red goal: svot's paint palette, shared with :mod:`svot.render`)
are flat colours; every other symbol is drawn by the scenario that has it
(``draw_tile``, e.g. QuestMaze's grass and icons in ``svot/domains/questmaze/tiles.py``),
at :data:`SCALE` times the tile size and reduced with a box filter. Drawing is
deterministic, so a tile depends only on ``(symbol, height, width)``; tiles are
cached and read-only. No tile uses the wall, grid-line or marker colours
(:mod:`.render` finds the grid and the marker by those colours).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from svot.render.sprites import PAINT_COLOURS  # the zone colours: one palette for both renderers
from svot.rulemaze import symbols as S
from svot.rulemaze.scenario import scenarios

SCALE = 4

#: Cells drawn as one flat colour (RGB): white plain cells and the paints (zones, start, goal).
FLAT_COLOURS: dict[str, tuple[int, int, int]] = {"white": (255, 255, 255), **PAINT_COLOURS}


def symbols_of(scenario: str) -> tuple[str, ...]:
    """Every cell symbol of a scenario, in :mod:`.symbols` order."""
    return S.cell_symbols(scenario)


@lru_cache(maxsize=4096)
def tile(symbol: str, h: int, w: int) -> np.ndarray:
    """The ``(h, w, 3)`` uint8 tile (read-only) of a cell symbol of any scenario."""
    h, w = int(h), int(w)
    if h < 1 or w < 1:
        raise ValueError(f"tile size must be positive, got {h}x{w}")
    if symbol in FLAT_COLOURS:
        out = np.empty((h, w, 3), np.uint8)
        out[:] = FLAT_COLOURS[symbol]
    else:  # a scenario's own drawing (icons on a field)
        drawn = (s.draw_tile(symbol, h, w, SCALE) for s in scenarios() if symbol in s.cell_symbols)
        out = next((t for t in drawn if t is not None), None)
        if out is None:
            raise ValueError(f"unknown RuleMaze cell symbol {symbol!r}")
    out.setflags(write=False)
    return out
