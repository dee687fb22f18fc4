"""Perception for the RuleMaze tools: grid geometry, cell symbols and the marker, from pixels only.

No network and no model: everything is measured on the image.

* **Grid geometry** (the paper's GridDivision): pixels close to one of the
  known line colours (walls and grid lines of either scenario,
  :data:`~.render.LINE_COLOURS`) form a mask; a column (row) belongs to a
  boundary line when more than half of its pixels are line pixels (the thin
  grid line runs along every inner boundary, walls and the frame are thicker
  and symmetric about it, icons and zones never use line colours). Runs of
  such columns give the boundaries (run centres) and, from the frame's run,
  the wall half-thickness; the cell interiors follow as in :mod:`.render`.
* **Cell symbols**: each interior is reduced to ``k`` x ``k`` x 3 box means and
  compared with the same features of every symbol's tile of both scenarios,
  drawn at that cell's exact pixel size, with and without the marker; the
  nearest template (RMS distance) wins. A rendered image is read back exactly.
* **Marker**: pixels close to the marker colour; the cell holding their
  centroid (and most of them) is the marker's cell.
* **Walls** (for :func:`read_maze`): a boundary segment is a wall when the band
  between the thin line and the wall's edge is made of line pixels.

Errors on images these functions cannot read raise :class:`PerceptionError`
(a :class:`svot.errors.ParseError`) saying what was not found.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from svot.errors import ParseError
from svot.render.perceive import as_rgb
from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.render import LINE_COLOURS, MARKER_COLOUR, apply_marker
from svot.rulemaze.scenario import get_scenario, scenario_of_symbols, scenarios
from svot.rulemaze.sprites import tile

LINE_TOLERANCE = 40  # RGB distance to a line colour
MARKER_TOLERANCE = 70  # RGB distance to the marker colour
LINE_FRACTION = 0.5  # share of line pixels that makes a column / row a boundary
FEATURE_K = 8

#: Every symbol of both scenarios, the template order of :func:`classify_cells`.
VOCABULARY: tuple[str, ...] = tuple(sym for s in scenarios() for sym in s.cell_symbols)


class PerceptionError(ParseError):
    """An image cannot be read as a RuleMaze image (no grid, no marker, ...)."""


@dataclass(frozen=True)
class Geometry:
    """Cell geometry recovered from an image.

    Attributes:
        rows: the ``n + 1`` row boundaries (pixel rows of the line centres).
        cols: the ``n + 1`` column boundaries.
        hw: wall half-thickness (from the frame).
    """

    rows: tuple[int, ...]
    cols: tuple[int, ...]
    hw: int

    @property
    def n(self) -> int:
        return len(self.rows) - 1

    @property
    def inset(self) -> int:
        return self.hw + 1

    def interior_box(self, cell: Cell) -> tuple[int, int, int, int]:
        r, c = cell
        k = self.inset
        return self.rows[r] + k, self.rows[r + 1] - k, self.cols[c] + k, self.cols[c + 1] - k

    def cell_at(self, y: float, x: float) -> Cell | None:
        r = int(np.searchsorted(self.rows, y, side="right")) - 1
        c = int(np.searchsorted(self.cols, x, side="right")) - 1
        if 0 <= r < self.n and 0 <= c < self.n:
            return r, c
        return None


@lru_cache(maxsize=1)
def _colour_lut() -> np.ndarray:
    """Flags per 5-bit-per-channel colour bin (bin centres): 1 line colour, 2 marker colour."""
    q = np.arange(32, dtype=np.int32) * 8 + 4
    rgb = np.stack(np.meshgrid(q, q, q, indexing="ij"), axis=-1).reshape(-1, 3)
    flags = np.zeros(len(rgb), np.uint8)
    for colours, tol, bit in ((LINE_COLOURS, LINE_TOLERANCE, 1), ((MARKER_COLOUR,), MARKER_TOLERANCE, 2)):
        for col in colours:
            d = rgb - np.asarray(col, np.int32)
            flags[(d * d).sum(axis=1) <= tol * tol] |= bit
    flags.setflags(write=False)
    return flags


def colour_flags(image) -> np.ndarray:
    """``(H, W)`` uint8 per pixel: bit 1 near a line colour, bit 2 near the marker colour
    (colours compared at 5 bits per channel, through a lookup table)."""
    a = as_rgb(image) >> 3
    idx = (a[:, :, 0].astype(np.uint16) << 10) | (a[:, :, 1].astype(np.uint16) << 5) | a[:, :, 2]
    return _colour_lut()[idx]


def line_mask(image) -> np.ndarray:
    """``(H, W)`` bool: pixels close to a wall or grid-line colour."""
    return (colour_flags(image) & 1).astype(bool)


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Half-open ``[start, end)`` runs of True."""
    f = np.concatenate([[False], flags, [False]]).astype(np.int8)
    d = np.diff(f)
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    return list(zip(starts.tolist(), ends.tolist()))


def _boundaries(frac: np.ndarray, axis: str) -> tuple[tuple[int, ...], int]:
    runs = _runs(frac > LINE_FRACTION)
    if len(runs) < 3:
        raise PerceptionError(f"no maze grid found: {len(runs)} boundary line(s) along the {axis} "
                              f"(a RuleMaze image has a frame and at least one inner line)")
    centres = [(a + b) // 2 for a, b in runs]
    gaps = np.diff(centres)
    if gaps.min() < 8 or gaps.max() - gaps.min() > 2:
        raise PerceptionError(f"no regular maze grid found along the {axis}: boundary lines at {centres}")
    hw = (runs[0][1] - runs[0][0]) // 2
    return tuple(int(c) for c in centres), int(hw)


def grid_geometry(image, flags: np.ndarray | None = None) -> Geometry:
    """The cell geometry of a maze image (see the module docstring); ``flags``: the
    image's :func:`colour_flags`, when already computed."""
    mask = (colour_flags(image) if flags is None else flags) & 1
    rows, hw_r = _boundaries(mask.mean(axis=1), "rows")
    cols, hw_c = _boundaries(mask.mean(axis=0), "columns")
    if len(rows) != len(cols):
        raise PerceptionError(f"the grid is not square: {len(rows) - 1} rows and {len(cols) - 1} columns")
    return Geometry(rows, cols, max(1, min(hw_r, hw_c)))


# --------------------------------------------------------------------------- features


def _features(region: np.ndarray, k: int) -> np.ndarray:
    h, w = region.shape[:2]
    rs = np.linspace(0, h, k + 1).round().astype(int)
    cs = np.linspace(0, w, k + 1).round().astype(int)
    s = np.add.reduceat(np.add.reduceat(region.astype(np.int64), cs[:-1], axis=1), rs[:-1], axis=0)
    cnt = np.outer(np.diff(rs), np.diff(cs))
    return (s / cnt[:, :, None]).ravel()


@lru_cache(maxsize=512)
def _templates(h: int, w: int, inset: int, k: int) -> np.ndarray:
    """``(2V, k*k*3)`` features of every symbol's interior at cell size ``(h, w)``: plain, then marked."""
    plain, marked = [], []
    for sym in VOCABULARY:
        inner = tile(sym, h, w)[inset:h - inset, inset:w - inset]
        plain.append(_features(inner, k))
        marked.append(_features(apply_marker(inner), k))
    out = np.stack(plain + marked)
    out.setflags(write=False)
    return out


def _interior(arr: np.ndarray, geo: Geometry, cell: Cell) -> tuple[np.ndarray, tuple[int, int]]:
    y0, y1, x0, x1 = geo.interior_box(cell)
    if y1 - y0 < 4 or x1 - x0 < 4:
        raise PerceptionError(f"cell {list(cell)} is too small to read ({y1 - y0}x{x1 - x0} pixels)")
    r, c = cell
    return arr[y0:y1, x0:x1], (geo.rows[r + 1] - geo.rows[r], geo.cols[c + 1] - geo.cols[c])


def classify_cell(image, geo: Geometry, cell: Cell, k: int = FEATURE_K) -> tuple[str, bool, float]:
    """``(symbol, marked, distance)`` of one cell: the nearest template, whether that
    template carries the marker, and its RMS distance (0..255 scale)."""
    arr = as_rgb(image)
    region, (h, w) = _interior(arr, geo, cell)
    kk = max(1, min(k, region.shape[0], region.shape[1]))
    t = _templates(int(h), int(w), geo.inset, kk)
    d = t - _features(region, kk)[None, :]
    dist = np.sqrt((d * d).mean(axis=1))
    i = int(dist.argmin())
    v = len(VOCABULARY)
    return VOCABULARY[i % v], i >= v, float(dist[i])


def read_cells(image, geo: Geometry | None = None) -> list[list[str]]:
    """The symbol of every cell (row-major lists), marker or not."""
    arr = as_rgb(image)
    geo = grid_geometry(arr) if geo is None else geo
    return [[classify_cell(arr, geo, (r, c))[0] for c in range(geo.n)] for r in range(geo.n)]


def scenario_of_cells(cells) -> str:
    """The scenario the read symbols belong to (majority; the later declared on a tie, or when none
    belongs to any)."""
    return scenario_of_symbols([s for row in cells for s in row], default=S.SCENARIOS[-1])


# --------------------------------------------------------------------------- marker


def find_marker(image, geo: Geometry | None = None, flags: np.ndarray | None = None) -> Cell | None:
    """The cell under the position marker, or None when the image has no marker.

    Raises :class:`PerceptionError` when marker pixels lie in more than one cell
    (e.g. two markers).
    """
    arr = as_rgb(image)
    flags = colour_flags(arr) if flags is None else flags
    geo = grid_geometry(arr, flags) if geo is None else geo
    ys, xs = np.nonzero(flags & 2)
    if len(ys) < 8:
        return None
    r_idx = np.searchsorted(geo.rows, ys, side="right") - 1
    c_idx = np.searchsorted(geo.cols, xs, side="right") - 1
    n2 = geo.n + 2  # cells -1..n on each axis
    counts = np.bincount((r_idx + 1) * n2 + (c_idx + 1), minlength=n2 * n2)
    big = np.flatnonzero(counts >= 0.1 * len(ys))
    cells = sorted((int(i) // n2 - 1, int(i) % n2 - 1) for i in big)
    if len(cells) != 1:
        raise PerceptionError(f"the marker is ambiguous: marker pixels in cells {[list(c) for c in cells]}")
    cell = cells[0]
    if not (0 <= cell[0] < geo.n and 0 <= cell[1] < geo.n):
        raise PerceptionError(f"the marker lies outside the grid (cell {list(cell)})")
    return cell


# --------------------------------------------------------------------------- whole mazes


def read_walls(image, geo: Geometry | None = None) -> tuple[tuple[Cell, Cell], ...]:
    """Open passages between neighbouring cells (the boundaries without a wall), sorted."""
    arr = as_rgb(image)
    geo = grid_geometry(arr) if geo is None else geo
    mask = line_mask(arr)
    n, hw, k = geo.n, geo.hw, geo.inset
    band = max(1, hw // 2)  # pixels just outside the thin line, inside a wall
    out = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:  # boundary between (r, c) and (r, c + 1)
                x = geo.cols[c + 1]
                strip = mask[geo.rows[r] + k:geo.rows[r + 1] - k, x - hw:x - hw + band]
                if strip.mean() <= 0.5:
                    out.append(((r, c), (r, c + 1)))
            if r + 1 < n:
                y = geo.rows[r + 1]
                strip = mask[y - hw:y - hw + band, geo.cols[c] + k:geo.cols[c + 1] - k]
                if strip.mean() <= 0.5:
                    out.append(((r, c), (r + 1, c)))
    return tuple(sorted(out))


def read_maze(image) -> Maze:
    """The :class:`Maze` drawn in an image (marker ignored; collected items read as plain).

    Raises :class:`PerceptionError` when the symbols read do not form a maze.
    """
    arr = as_rgb(image)
    geo = grid_geometry(arr)
    cells = read_cells(arr, geo)
    scenario = scenario_of_cells(cells)
    start_sym = S.start_symbol(scenario)
    starts = [(r, c) for r in range(geo.n) for c in range(geo.n) if cells[r][c] == start_sym]
    goals = [(r, c) for r in range(geo.n) for c in range(geo.n) if cells[r][c] in S.goal_symbols(scenario)]
    if len(starts) != 1:
        raise PerceptionError(f"expected one start cell ({start_sym}), found {len(starts)}")
    # an obstacle (a monster) blocks its cell: the open grid draws no walls around it
    obstacle = get_scenario(scenario).obstacle_symbol
    passages = tuple(p for p in read_walls(arr, geo)
                     if obstacle not in (cells[p[0][0]][p[0][1]], cells[p[1][0]][p[1][1]]))
    try:
        return Maze(scenario, geo.n, starts[0], tuple(goals), passages,
                    tuple(tuple(row) for row in cells))
    except ValueError as exc:
        raise PerceptionError(f"the image does not show a valid maze: {exc}") from None
