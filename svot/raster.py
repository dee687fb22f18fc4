"""svot's own rasteriser: the few filled shapes its sprites are drawn with, in numpy.

A dataset's bytes must depend on the seed and svot's version only (docs/reliability.md,
rule 8). Pillow's ``ImageDraw`` changes how it fills an ellipse or a wide line between
releases (the 3.11 lane has Pillow 9.5, pinned by PDDLGym; newer Pythons get the newest),
so the sprites are drawn here instead, by a rule short enough to state: a pixel
``(x, y)`` is painted when its centre ``(x + 0.5, y + 0.5)`` lies inside the shape, whose
coordinates are continuous (a box ``[x0, y0, x1, y1]`` spans ``x0 <= x <= x1``). Every
test compares float64 values computed with ``+ - * /`` only, which IEEE 754 rounds the same
everywhere (arcs compare cross products, not ``atan2``); the only other functions are
``math.cos``/``math.sin`` of a shape's few corner angles, computed once per shape, not per
pixel. So the same call paints the same pixels whatever Pillow is installed.

:class:`Draw` has the subset of ``ImageDraw.Draw``'s methods the sprites use, with the
same arguments (``fill``, ``outline``, ``width``; angles in degrees, clockwise from
3 o'clock as on screen). :func:`box_reduce` is the exact mean of ``k`` x ``k`` blocks
(round half up), the box filter the sprites are antialiased with.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

__all__ = ["Draw", "box_reduce", "canvas", "unpack"]


def _packed(colour) -> int:
    r, g, b = (int(v) for v in colour)
    return (r << 16) | (g << 8) | b


def canvas(width: int, height: int, colour) -> np.ndarray:
    """A ``(height, width)`` image filled with ``colour``: uint8 grey for an int, else RGB packed one
    uint32 per pixel (``0xRRGGBB``), so that painting a shape is one masked store (see :func:`unpack`)."""
    if isinstance(colour, (int, np.integer)):
        return np.full((height, width), int(colour), np.uint8)
    return np.full((height, width), _packed(colour), np.uint32)


def unpack(image: np.ndarray) -> np.ndarray:
    """A packed RGB canvas as a ``(height, width, 3)`` uint8 image (a grey or RGB image as it is)."""
    if image.dtype != np.uint32:
        return image
    out = np.empty(image.shape + (3,), np.uint8)
    out[..., 0] = image >> 16
    out[..., 1] = (image >> 8) & 0xFF
    out[..., 2] = image & 0xFF
    return out


def box_reduce(image: np.ndarray, factor: int) -> np.ndarray:
    """``image`` (a canvas, packed or not) shrunk by ``factor`` on both axes: each pixel the mean of its
    block, rounded half up."""
    image = unpack(image)
    h, w = image.shape[0] // factor, image.shape[1] // factor
    rest = image.shape[2:]
    n = factor * factor
    wide = np.uint16 if 255 * n + n // 2 < 1 << 16 else np.uint32
    # rows first, then columns: two contiguous sums (one 4-axis sum is several times slower)
    rows = image[: h * factor, : w * factor].reshape(h, factor, -1).sum(axis=1, dtype=wide)
    sums = rows.reshape(h, w, factor, *rest).sum(axis=2, dtype=wide)
    return ((sums + n // 2) // n).astype(np.uint8)


def _box(box) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _direction(degrees: float) -> tuple[float, float]:
    """The unit vector at ``degrees`` clockwise from 3 o'clock (y grows downwards)."""
    a = math.radians(degrees % 360.0)
    return math.cos(a), math.sin(a)


class Draw:
    """Filled shapes painted in place into a :func:`canvas` (packed RGB or grey) or a ``(H, W, 3)`` uint8 image."""

    def __init__(self, image: np.ndarray):
        self.image = image
        self.height, self.width = image.shape[:2]

    # --- the pixel window of a shape, and painting -------------------------------------------------
    def _window(self, x0: float, y0: float, x1: float, y1: float):
        """``(rows, cols, ys, xs)``: the pixels whose centres may lie in ``[x0, x1] x [y0, y1]``."""
        i0, i1 = max(0, math.floor(y0 - 0.5)), min(self.height, math.ceil(y1 + 0.5))
        j0, j1 = max(0, math.floor(x0 - 0.5)), min(self.width, math.ceil(x1 + 0.5))
        if i0 >= i1 or j0 >= j1:
            return None
        ys = (np.arange(i0, i1, dtype=np.float64) + 0.5)[:, None]
        xs = (np.arange(j0, j1, dtype=np.float64) + 0.5)[None, :]
        return slice(i0, i1), slice(j0, j1), ys, xs

    def _paint(self, window, mask: np.ndarray, colour) -> None:
        if colour is None or window is None:
            return
        region = self.image[window[0], window[1]]  # a view: painted in place
        if self.image.dtype == np.uint32:
            value = _packed(colour)
        elif self.image.ndim == 3:
            value = np.asarray(colour, np.uint8)
            mask = mask[..., None]
        else:
            value = int(colour)
        np.copyto(region, value, where=mask, casting="unsafe")

    def _shape(self, bounds, inside, fill, outline=None, border=None) -> None:
        """Paint ``inside(ys, xs)`` with ``fill``, then ``border(ys, xs)`` with ``outline``."""
        window = self._window(*bounds)
        if window is None:
            return
        ys, xs = window[2], window[3]
        if fill is not None:
            self._paint(window, inside(ys, xs), fill)
        if outline is not None and border is not None:
            self._paint(window, border(ys, xs), outline)

    # --- shapes --------------------------------------------------------------------------------
    def rectangle(self, box, fill=None, outline=None, width: int = 1) -> None:
        x0, y0, x1, y1 = _box(box)

        def inside_box(b):
            return lambda ys, xs: (xs >= b[0]) & (xs <= b[2]) & (ys >= b[1]) & (ys <= b[3])

        inner = (x0 + width, y0 + width, x1 - width, y1 - width)
        self._shape((x0, y0, x1, y1), inside_box((x0, y0, x1, y1)), fill, outline,
                    lambda ys, xs: inside_box((x0, y0, x1, y1))(ys, xs) & ~inside_box(inner)(ys, xs))

    def rounded_rectangle(self, box, radius: float = 0, fill=None, outline=None, width: int = 1) -> None:
        x0, y0, x1, y1 = _box(box)

        def inside(b, r):
            bx0, by0, bx1, by1 = b
            r = max(0.0, min(r, (bx1 - bx0) / 2, (by1 - by0) / 2))

            def test(ys, xs):
                qx = np.maximum(np.maximum(bx0 + r - xs, xs - (bx1 - r)), 0.0)
                qy = np.maximum(np.maximum(by0 + r - ys, ys - (by1 - r)), 0.0)
                in_box = (xs >= bx0) & (xs <= bx1) & (ys >= by0) & (ys <= by1)
                return in_box & (qx * qx + qy * qy <= r * r)

            return test

        outer = inside((x0, y0, x1, y1), float(radius))
        inner = inside((x0 + width, y0 + width, x1 - width, y1 - width), float(radius) - width)
        self._shape((x0, y0, x1, y1), outer, fill, outline, lambda ys, xs: outer(ys, xs) & ~inner(ys, xs))

    def _ellipse_test(self, box, shrink: float = 0.0):
        x0, y0, x1, y1 = _box(box)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rx, ry = (x1 - x0) / 2 - shrink, (y1 - y0) / 2 - shrink
        if rx <= 0 or ry <= 0:
            return lambda ys, xs: np.zeros(np.broadcast(ys, xs).shape, bool)
        return lambda ys, xs: ((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2 <= 1.0

    def ellipse(self, box, fill=None, outline=None, width: int = 1) -> None:
        outer, inner = self._ellipse_test(box), self._ellipse_test(box, width)
        self._shape(_box(box), outer, fill, outline, lambda ys, xs: outer(ys, xs) & ~inner(ys, xs))

    def _sector_test(self, box, start: float, end: float):
        """Points whose direction from the ellipse's centre lies on the clockwise arc start..end."""
        x0, y0, x1, y1 = _box(box)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rx, ry = max((x1 - x0) / 2, 1e-9), max((y1 - y0) / 2, 1e-9)
        diff = float(end) - float(start)
        span = 360.0 if diff >= 360.0 or (diff != 0 and diff % 360.0 == 0) else diff % 360.0
        if span >= 360.0:
            return lambda ys, xs: np.ones(np.broadcast(ys, xs).shape, bool)
        sx, sy = _direction(start)
        ex, ey = _direction(start + span)

        def test(ys, xs):
            u, v = (xs - cx) / rx, (ys - cy) / ry
            after_start = sx * v - sy * u >= 0  # clockwise of the start ray
            before_end = ex * v - ey * u <= 0  # counter-clockwise of the end ray
            return (after_start & before_end) if span <= 180.0 else (after_start | before_end)

        return test

    def pieslice(self, box, start: float, end: float, fill=None, outline=None, width: int = 1) -> None:
        inside_e, sector = self._ellipse_test(box), self._sector_test(box, start, end)
        inner = self._ellipse_test(box, width)
        self._shape(_box(box), lambda ys, xs: inside_e(ys, xs) & sector(ys, xs), fill, outline,
                    lambda ys, xs: inside_e(ys, xs) & ~inner(ys, xs) & sector(ys, xs))

    def arc(self, box, start: float, end: float, fill=None, width: int = 1) -> None:
        outer, inner = self._ellipse_test(box), self._ellipse_test(box, width)
        sector = self._sector_test(box, start, end)
        self._shape(_box(box), lambda ys, xs: outer(ys, xs) & ~inner(ys, xs) & sector(ys, xs), fill)

    def chord(self, box, start: float, end: float, fill=None, outline=None, width: int = 1) -> None:
        """The part of the ellipse cut off by the chord from ``start`` to ``end`` (the side holding the arc)."""
        x0, y0, x1, y1 = _box(box)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        rx, ry = max((x1 - x0) / 2, 1e-9), max((y1 - y0) / 2, 1e-9)
        span = (end - start) % 360.0 or 360.0
        ax, ay = _direction(start)
        bx, by = _direction(start + span)
        mx, my = _direction(start + span / 2)
        side_of_arc = (bx - ax) * (my - ay) - (by - ay) * (mx - ax)
        inside_e, inner = self._ellipse_test(box), self._ellipse_test(box, width)

        def cut(ys, xs):
            u, v = (xs - cx) / rx, (ys - cy) / ry
            side = (bx - ax) * (v - ay) - (by - ay) * (u - ax)
            return side * side_of_arc >= 0

        self._shape((x0, y0, x1, y1), lambda ys, xs: inside_e(ys, xs) & cut(ys, xs), fill, outline,
                    lambda ys, xs: inside_e(ys, xs) & ~inner(ys, xs) & cut(ys, xs))

    def line(self, points: Sequence, fill=None, width: int = 1) -> None:
        """Segments ``width`` wide with flat ends; the inner joints of a polyline are rounded."""
        pts = [(float(p[0]), float(p[1])) for p in points]
        half = max(1.0, float(width)) / 2
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            dx, dy = bx - ax, by - ay
            length = math.hypot(dx, dy)
            if length == 0:
                continue

            def segment(ys, xs, ax=ax, ay=ay, dx=dx, dy=dy, length=length):
                along = ((xs - ax) * dx + (ys - ay) * dy) / length
                across = ((xs - ax) * dy - (ys - ay) * dx) / length
                return (along >= 0) & (along <= length) & (np.abs(across) <= half)

            bounds = (min(ax, bx) - half, min(ay, by) - half, max(ax, bx) + half, max(ay, by) + half)
            self._shape(bounds, segment, fill)
        for x, y in pts[1:-1]:
            self.ellipse([x - half, y - half, x + half, y + half], fill=fill)

    def polygon(self, points: Sequence, fill=None, outline=None, width: int = 1) -> None:
        """A polygon filled by the even-odd rule; ``outline`` strokes its edges ``width`` wide."""
        pts = [(float(p[0]), float(p[1])) for p in points]
        if len(pts) < 3:
            return
        xs_, ys_ = [p[0] for p in pts], [p[1] for p in pts]

        def inside(ys, xs):
            odd = np.zeros(np.broadcast(ys, xs).shape, bool)
            for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
                if ay == by:
                    continue
                crosses = (ay > ys) != (by > ys)
                x_at = ax + (ys - ay) * (bx - ax) / (by - ay)
                odd ^= crosses & (xs < x_at)
            return odd

        self._shape((min(xs_), min(ys_), max(xs_), max(ys_)), inside, fill)
        if outline is not None:
            self.line(pts + pts[:1], fill=outline, width=width)

    def regular_polygon(self, bounding_circle, n_sides: int, rotation: float = 0, fill=None, outline=None,
                        width: int = 1) -> None:
        """A regular polygon in the circle ``(cx, cy, r)``: the bottom edge level at rotation 0, as in Pillow."""
        cx, cy, r = (float(v) for v in bounding_circle)
        step = 360.0 / n_sides
        first = 270.0 - step / 2 + rotation
        pts = []
        for k in range(n_sides):
            a = math.radians(first + k * step)
            pts.append((cx + r * math.cos(a), cy - r * math.sin(a)))
        self.polygon(pts, fill=fill, outline=outline, width=width)
