"""RuleMaze images: cells from cached tiles, walls and grid lines, the position marker, a legend.

Layout of an ``S`` x ``S`` image of an ``N`` x ``N`` maze (:func:`layout`):

* a margin of ``M`` pixels (``max(hw + 2, round(S / 32))``) around the grid, in
  the scenario's margin colour;
* cell boundaries at ``b = M + cell_bounds(S - 2M, N)`` along both axes (the
  suite's :func:`svot.render.cell_bounds` split), cell ``(r, c)`` spanning
  ``[b[r], b[r+1]) x [b[c], b[c+1])`` and filled with its symbol's tile;
* a thin grid line (``2 * hg`` pixels, centred on the boundary) on every inner
  boundary, then thick walls (``2 * hw`` pixels, ``hw = max(2, round(3 S / 256))``)
  on every closed boundary and the outer frame, extended by ``hw`` at both ends
  so corners join;
* the cell *interior*, inset by ``hw + 1`` from the boundaries, shows the tile
  untouched: perception reads and the marker is drawn there only.

RegularMaze: white cells, coloured zones, green start, red goal, black walls,
light grey grid lines. QuestMaze: grass cells with drawn icons, dark stone
walls, dark green grid lines. The colours of lines and marker appear in no
tile, so :mod:`.vision` can find the grid and the marker by colour.

Composition is numpy slice copies of cached tiles (:func:`.sprites.tile`) and
rectangle fills; the marker is a cached alpha overlay blended with integer
arithmetic, so the same maze always gives the same pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from svot.errors import ConfigError
from svot.render.atlas import cell_bounds
from svot.raster import Draw, canvas
from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.scenario import get_scenario, scenarios
from svot.rulemaze.sprites import SCALE, tile

DEFAULT_IMAGE_SIZE = 256
MIN_CELL = 24  # pixels per cell at least

#: (wall colour, grid-line colour, margin colour) per scenario.
STYLE = {s.name: s.palette for s in scenarios()}
#: Every line colour of every scenario (what :mod:`.vision` looks for).
LINE_COLOURS = tuple(c for palette in STYLE.values() for c in palette[:2])
#: The position marker: a magenta ring with a thin white halo.
MARKER_COLOUR = (236, 0, 236)
MARKER_HALO = (255, 255, 255)
MARKER_RADIUS = 0.4  # outer radius, fraction of the interior's smaller side
MARKER_WIDTH = 0.1  # ring width, same unit


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one image (see the module docstring).

    Attributes:
        size: image side ``S``.
        n: grid size ``N``.
        margin: ``M``.
        hw: half the wall thickness.
        hg: half the grid-line thickness.
        bounds: the ``N + 1`` cell boundaries (same along rows and columns).
    """

    size: int
    n: int
    margin: int
    hw: int
    hg: int
    bounds: tuple[int, ...]

    @property
    def inset(self) -> int:
        """Distance from a boundary to the interior."""
        return self.hw + 1

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """``(y0, y1, x0, x1)`` of a cell (half-open)."""
        r, c = cell
        b = self.bounds
        return b[r], b[r + 1], b[c], b[c + 1]

    def interior_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """``(y0, y1, x0, x1)`` of a cell's interior (half-open)."""
        y0, y1, x0, x1 = self.cell_box(cell)
        k = self.inset
        return y0 + k, y1 - k, x0 + k, x1 - k


def min_image_size(n: int) -> int:
    return max(64, 2 * 8 + MIN_CELL * int(n))


def layout(image_size: int, n: int) -> Layout:
    """The :class:`Layout` of an ``image_size`` square image of an ``n`` x ``n`` maze."""
    if isinstance(image_size, bool) or not isinstance(image_size, (int, np.integer)):
        raise ConfigError(f"image_size must be an int, got {image_size!r}")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 2:
        raise ConfigError(f"maze size must be an int >= 2, got {n!r}")
    s, n = int(image_size), int(n)
    if s < min_image_size(n):
        raise ConfigError(f"image_size {s} is too small for a {n}x{n} maze (at least {min_image_size(n)})")
    return _layout(s, n)


@lru_cache(maxsize=64)
def _layout(s: int, n: int) -> Layout:
    hw = max(2, round(3 * s / 256))
    hg = max(1, hw // 3)
    margin = max(hw + 2, round(s / 32))
    bounds = tuple(int(v) for v in margin + cell_bounds(s - 2 * margin, n))
    return Layout(s, n, margin, hw, hg, bounds)


# --------------------------------------------------------------------------- drawing


def _base(scenario: str, lay: Layout) -> np.ndarray:
    out = np.empty((lay.size, lay.size, 3), np.uint8)
    out[:] = STYLE[scenario][2]
    return out


def draw_grid(img: np.ndarray, lay: Layout, scenario: str, passages, blocked=()) -> None:
    """Grid lines, walls and the frame, in place (``passages``: open cell pairs; no wall is
    drawn next to a ``blocked`` cell: a monster of the open-grid QuestMaze blocks by itself)."""
    wall, grid, _ = STYLE[scenario]
    b, hw, hg, n = lay.bounds, lay.hw, lay.hg, lay.n
    lo, hi = b[0], b[-1]
    for i in range(1, n):  # thin lines on every inner boundary
        img[b[i] - hg:b[i] + hg, lo:hi] = grid
        img[lo:hi, b[i] - hg:b[i] + hg] = grid
    opened = set(passages)
    blocked = set(blocked)
    for r in range(n):
        for c in range(n):
            right, below = (r, c + 1), (r + 1, c)
            if blocked and (r, c) in blocked:
                continue
            if c + 1 < n and ((r, c), right) not in opened and right not in blocked:  # wall right of (r, c)
                img[b[r] - hw:b[r + 1] + hw, b[c + 1] - hw:b[c + 1] + hw] = wall
            if r + 1 < n and ((r, c), below) not in opened and below not in blocked:  # wall below (r, c)
                img[b[r + 1] - hw:b[r + 1] + hw, b[c] - hw:b[c + 1] + hw] = wall
    img[lo - hw:lo + hw, lo - hw:hi + hw] = wall  # frame
    img[hi - hw:hi + hw, lo - hw:hi + hw] = wall
    img[lo - hw:hi + hw, lo - hw:lo + hw] = wall
    img[lo - hw:hi + hw, hi - hw:hi + hw] = wall


def render_maze(maze: Maze, image_size: int = DEFAULT_IMAGE_SIZE, *, marker: Cell | None = None,
                collected=()) -> np.ndarray:
    """The ``(S, S, 3)`` uint8 image of ``maze``.

    Args:
        marker: draw the position marker on this cell.
        collected: QuestMaze cells whose item has been taken; drawn as grass.
    """
    lay = layout(image_size, maze.size)
    img = _base(maze.scenario, lay)
    gone = {tuple(c) for c in collected}
    kind = get_scenario(maze.scenario)
    for r in range(maze.size):
        for c in range(maze.size):
            sym = maze.cells[r][c]
            if (r, c) in gone and sym in kind.collected_symbols:
                sym = kind.plain_symbol
            y0, y1, x0, x1 = lay.cell_box((r, c))
            img[y0:y1, x0:x1] = tile(sym, y1 - y0, x1 - x0)
    blocked = maze.cells_with(kind.obstacle_symbol) if kind.obstacle_symbol is not None else ()
    draw_grid(img, lay, maze.scenario, maze.passages, blocked)
    if marker is not None:
        draw_marker(img, lay, marker)
    return img


@lru_cache(maxsize=256)
def marker_overlay(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """``(halo alpha, ring alpha)``: two ``(h, w)`` uint16 coverage maps (0..255) of the
    marker drawn in an ``h`` x ``w`` interior, supersampled :data:`SCALE` x."""
    side = min(h, w) * SCALE
    cx, cy = w * SCALE / 2, h * SCALE / 2
    r_out = MARKER_RADIUS * side
    width = max(2 * SCALE, MARKER_WIDTH * side)
    halo_w = SCALE  # one pixel
    maps = []
    for outer, inner in ((r_out + halo_w, r_out - width - halo_w), (r_out, r_out - width)):
        m = canvas(w * SCALE, h * SCALE, 0)
        d = Draw(m)  # svot's rasteriser: the same pixels whatever Pillow is installed
        d.ellipse([cx - outer, cy - outer, cx + outer, cy + outer], fill=255)
        d.ellipse([cx - inner, cy - inner, cx + inner, cy + inner], fill=0)
        a = np.asarray(m, np.uint32).reshape(h, SCALE, w, SCALE).sum(axis=(1, 3))
        a = (a + SCALE * SCALE // 2) // (SCALE * SCALE)
        a = a.astype(np.uint16)
        a.setflags(write=False)
        maps.append(a)
    return maps[0], maps[1]


def _blend(region: np.ndarray, alpha: np.ndarray, colour) -> None:
    a = alpha[:, :, None].astype(np.uint32)
    col = np.asarray(colour, np.uint32)
    region[...] = ((region.astype(np.uint32) * (255 - a) + col * a + 127) // 255).astype(np.uint8)


def apply_marker(interior: np.ndarray) -> np.ndarray:
    """A copy of a cell interior ``(h, w, 3)`` with the marker drawn on it."""
    out = np.array(interior, np.uint8, copy=True)
    halo, ring = marker_overlay(out.shape[0], out.shape[1])
    _blend(out, halo, MARKER_HALO)
    _blend(out, ring, MARKER_COLOUR)
    return out


def draw_marker(img: np.ndarray, lay: Layout, cell: Cell) -> None:
    """Draw the position marker in ``cell``'s interior, in place.

    Raises :class:`ConfigError` when ``cell`` is outside the grid.
    """
    r, c = cell
    if not (0 <= r < lay.n and 0 <= c < lay.n):
        raise ConfigError(f"cell {[r, c]} is outside the {lay.n}x{lay.n} grid")
    y0, y1, x0, x1 = lay.interior_box((r, c))
    img[y0:y1, x0:x1] = apply_marker(img[y0:y1, x0:x1])


# --------------------------------------------------------------------------- legend


def legend(scenario: str, size: int = 64) -> dict[str, np.ndarray]:
    """Symbol -> its ``(size, size, 3)`` reference tile (the paper's legend images)."""
    scenario = S.normalize_scenario(scenario)
    return {sym: tile(sym, size, size) for sym in S.cell_symbols(scenario)}


LEGEND_NAMES = {sym: name for s in scenarios() for sym, name in s.legend_names.items()}


def legend_image(scenario: str, tile_size: int = 48) -> np.ndarray:
    """A panel of every symbol's tile with its name, one row per symbol, plus the marker."""
    scenario = S.normalize_scenario(scenario)
    items = list(legend(scenario, tile_size).items())
    font = ImageFont.load_default()
    pad = 6
    row_h = tile_size + pad
    width = tile_size + 2 * pad + 150
    height = pad + row_h * (len(items) + 1)
    panel = Image.new("RGB", (width, height), (255, 255, 255))
    d = ImageDraw.Draw(panel)
    wall = STYLE[scenario][0]
    marked = apply_marker(tile(S.plain_symbol(scenario), tile_size, tile_size))
    for i, (sym, t) in enumerate(items + [("marker", marked)]):
        y = pad + i * row_h
        panel.paste(Image.fromarray(np.ascontiguousarray(t)), (pad, y))
        d.rectangle([pad - 1, y - 1, pad + tile_size, y + tile_size], outline=wall)
        name = "position marker" if sym == "marker" else LEGEND_NAMES.get(sym, sym)
        d.text((2 * pad + tile_size, y + tile_size // 2 - 5), name, fill=(0, 0, 0), font=font)
    return np.asarray(panel, np.uint8).copy()
