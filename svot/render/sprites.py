"""Procedural sprites: one RGB tile per (domain, label, height, width), drawn by svot's rasteriser.

The library draws a fixed set of sprites (:data:`LIBRARY`); which one a kind
gets, the floor colour and the ice sheen are the domain's choice, read from
its spec (``sprites``, ``floor``, ``floor_sheen``: see
:class:`~svot.kernel.DomainSpec`).

Every tile is drawn at 4x its size with :mod:`svot.raster` (svot's own
numpy code, so the pixels do not change with the installed Pillow) on the domain's
floor colour, downsampled with a box filter (exact 4x4 means: antialiasing),
and framed with a one-pixel grid line a little darker (lighter on a dark floor)
than the floor. Drawing is deterministic, so a tile depends only on its
arguments.

Layers of a label are drawn bottom to top: floor marks (goal square, start
tile, goal tile, hole), objects (wall, crate, coin, balls), then the player,
shrunk when it shares its cell so that what lies under it stays visible. A
crate on a goal square is its own sprite (the crate tinted green).

Empty cells are flat: the floor plus the grid line (and an ice floor's faint
sheen) keep the mean per-channel variance of an empty cell well below the
visual reward's foreground threshold (0.002 on [0, 1] values); every sprite is
far above it.
"""

from __future__ import annotations

import zlib
from functools import lru_cache

import numpy as np
from svot.kernel.spec import DomainSpec
from svot.raster import Draw, box_reduce, canvas

SCALE = 4  # supersampling factor

DEFAULT_FLOOR = DomainSpec.floor  # a domain's floor is its spec's ``floor`` hook
GRID_DELTA = 20  # grid line: floor -/+ this on each channel

#: The sprite of a kind its domain's spec does not name (``spec.sprites``), besides the
#: library sprite of the kind's own name.
KIND_SPRITES: dict[str, str] = {"block": "crate", "goal": "flag"}
#: Sprite pairs drawn as one sprite.
MERGED: dict[frozenset, str] = {frozenset({"crate", "target"}): "crate_on_target"}

# drawing order: floor marks, then objects, then the player
_UNDER = ("target", "start", "gift", "flag", "hole")
_TOP = ("player",)

#: The ball sprite's colours: the library draws ``ball_<colour>`` for each.
BALL_COLOURS = {
    "red": (216, 44, 44),
    "green": (46, 168, 68),
    "blue": (48, 92, 222),
    "yellow": (238, 202, 36),
}
#: Fills of the whole cell (painted zones, a lighter centre): the library draws ``paint_<colour>`` for each.
PAINT_COLOURS = {
    "green": (67, 176, 71),
    "red": (226, 50, 50),
    "blue": (58, 120, 232),
    "yellow": (250, 214, 40),
    "pink": (246, 150, 196),
    "purple": (144, 96, 206),
    "orange": (250, 136, 20),
    "blue_green": (0, 166, 156),
}
#: Walls on a cell's edge (grids whose walls lie between cells): ``edge_<side>``.
EDGE_SIDES = ("right", "down")
#: Every sprite the library draws (others are ``generic:<kind>``, a shape of the kind's own).
LIBRARY = frozenset(
    {"player", "wall", "crate", "crate_on_target", "target", "coin", "hole", "start", "gift", "flag"}
    | {f"ball_{c}" for c in BALL_COLOURS}
    | {f"edge_{side}" for side in EDGE_SIDES}
    | {f"paint_{c}" for c in PAINT_COLOURS}
)


def floor_colour(spec) -> tuple[int, int, int]:
    return tuple(spec.floor)


def sprite_for(spec, kind: str) -> str:
    """The sprite ``kind`` is drawn with: the spec's choice, else the library's, else a generic one."""
    if kind in spec.sprites:
        return spec.sprites[kind]
    if kind in KIND_SPRITES:
        return KIND_SPRITES[kind]
    return kind if kind in LIBRARY else f"generic:{kind}"


def layers_for(spec, label: str) -> tuple[str, ...]:
    """Sprite names of a label, bottom to top (``()`` for ``"empty"``)."""
    if label == "empty":
        return ()
    names = {sprite_for(spec, k) for k in label.split("+")}
    for pair, merged in MERGED.items():
        if pair <= names:
            names = (names - pair) | {merged}

    def rank(s):
        if s.startswith("paint_"):  # a fill covers the whole floor: below every mark
            return (-1, 0, s)
        if s in _UNDER:
            return (0, _UNDER.index(s), s)
        if s in _TOP:
            return (2, 0, s)
        return (1, 0, s)

    return tuple(sorted(names, key=rank))


# --------------------------------------------------------------------------- geometry helpers


class _Canvas:
    """A 4x canvas with helpers in fractions of the tile."""

    def __init__(self, w: int, h: int, floor):
        self.W, self.H = w * SCALE, h * SCALE
        self.img = canvas(self.W, self.H, tuple(floor))
        self.d = Draw(self.img)
        self.m = min(self.W, self.H)

    def sq(self, frac: float, cx: float = 0.5, cy: float = 0.5):
        """Box of a centred square of side ``frac`` * min(W, H), centre in fractions of W, H."""
        s = frac * self.m / 2
        x, y = cx * self.W, cy * self.H
        return [x - s, y - s, x + s, y + s]

    def pt(self, u: float, v: float, box):
        """Point at fractions (u, v) of ``box``."""
        x0, y0, x1, y1 = box
        return (x0 + u * (x1 - x0), y0 + v * (y1 - y0))

    def sub(self, box, u0, v0, u1, v1):
        a, b = self.pt(u0, v0, box), self.pt(u1, v1, box)
        return [a[0], a[1], b[0], b[1]]

    def px(self, frac: float) -> int:
        return max(1, int(round(frac * self.m)))


def _mix(c, other, t):
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c, other))


# --------------------------------------------------------------------------- sprites


def _player(cv: _Canvas, shrink: bool):
    box = cv.sq(0.58 if shrink else 0.76)
    side = box[2] - box[0]
    w = max(1, int(round(0.05 * side)))
    cv.d.ellipse(box, fill=(126, 78, 216), outline=(52, 26, 104), width=w)
    # cheek highlight
    cv.d.ellipse(cv.sub(box, 0.18, 0.12, 0.46, 0.34), fill=(160, 124, 236))
    for u in (0.36, 0.64):
        cv.d.ellipse(cv.sub(box, u - 0.12, 0.28, u + 0.12, 0.54), fill=(255, 255, 255), outline=(52, 26, 104), width=max(1, w // 2))
        cv.d.ellipse(cv.sub(box, u - 0.055, 0.38, u + 0.055, 0.5), fill=(16, 16, 24))
    cv.d.arc(cv.sub(box, 0.3, 0.48, 0.7, 0.8), start=20, end=160, fill=(40, 16, 70), width=max(1, w))


def _wall(cv: _Canvas):
    mortar, brick, brick2, light = (64, 56, 54), (142, 64, 46), (122, 54, 40), (170, 92, 72)
    cv.d.rectangle([0, 0, cv.W, cv.H], fill=mortar)
    rows = 4
    gap = max(1.0, 0.045 * cv.m)
    bh = cv.H / rows
    for r in range(rows):
        y0, y1 = r * bh + gap / 2, (r + 1) * bh - gap / 2
        off = 0.0 if r % 2 == 0 else -cv.W / 4
        for k in range(3):
            x0 = off + k * cv.W / 2 + gap / 2
            x1 = off + (k + 1) * cv.W / 2 - gap / 2
            x0c, x1c = max(0.0, x0), min(float(cv.W), x1)
            if x1c - x0c < 1:
                continue
            cv.d.rectangle([x0c, y0, x1c, y1], fill=brick if (r + k) % 2 == 0 else brick2)
            cv.d.line([(x0c, y0), (x1c, y0)], fill=light, width=max(1, int(gap / 2)))


def _crate(cv: _Canvas, green: bool):
    if green:
        wood, frame, cross, edge = (120, 198, 104), (40, 116, 52), (66, 150, 70), (18, 64, 26)
    else:
        wood, frame, cross, edge = (204, 146, 78), (126, 82, 38), (152, 100, 48), (70, 42, 16)
    box = cv.sq(0.8)
    side = box[2] - box[0]
    t = 0.13 * side
    cv.d.rectangle(box, fill=frame, outline=edge, width=max(1, int(0.03 * side)))
    inner = [box[0] + t, box[1] + t, box[2] - t, box[3] - t]
    cv.d.rectangle(inner, fill=wood)
    lw = max(1, int(0.09 * side))
    cv.d.line([(inner[0], inner[1]), (inner[2], inner[3])], fill=cross, width=lw)
    cv.d.line([(inner[0], inner[3]), (inner[2], inner[1])], fill=cross, width=lw)
    cv.d.rectangle(inner, outline=edge, width=max(1, int(0.025 * side)))


def _target(cv: _Canvas):
    red = (214, 58, 58)
    box = cv.sq(0.74)
    side = box[2] - box[0]
    cv.d.rectangle(box, outline=red, width=max(1, int(0.07 * side)))
    cv.d.regular_polygon((cv.W / 2, cv.H / 2, 0.14 * side), 4, rotation=45, fill=red)


def _coin(cv: _Canvas):
    box = cv.sq(0.54)
    side = box[2] - box[0]
    cv.d.ellipse(box, fill=(214, 158, 28), outline=(138, 92, 8), width=max(1, int(0.06 * side)))
    cv.d.ellipse(cv.sub(box, 0.18, 0.18, 0.82, 0.82), fill=(250, 208, 64), outline=(198, 140, 20), width=max(1, int(0.04 * side)))
    cv.d.ellipse(cv.sub(box, 0.3, 0.26, 0.48, 0.44), fill=(255, 246, 190))


def _ball(cv: _Canvas, colour: str):
    base = BALL_COLOURS[colour]
    dark = _mix(base, (0, 0, 0), 0.55)
    light = _mix(base, (255, 255, 255), 0.45)
    box = cv.sq(0.66)
    x0, y0, x1, y1 = box
    r0 = (x1 - x0) / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hx, hy = cx - 0.35 * r0, cy - 0.35 * r0
    steps = 20
    for i in range(steps):
        t = i / (steps - 1)
        r = r0 * (1 - 0.85 * t)
        x = cx + (hx - cx) * t
        y = cy + (hy - cy) * t
        col = _mix(dark, base, min(1.0, 2 * t)) if t < 0.5 else _mix(base, light, 2 * t - 1)
        cv.d.ellipse([x - r, y - r, x + r, y + r], fill=col)
    cv.d.ellipse(box, outline=_mix(base, (0, 0, 0), 0.7), width=max(1, int(0.05 * r0)))
    s = 0.16 * r0
    cv.d.ellipse([hx - s, hy - s, hx + s, hy + s], fill=(255, 255, 255))


def _hole(cv: _Canvas):
    rim = cv.sub([0, 0, cv.W, cv.H], 0.06, 0.16, 0.94, 0.84)
    cv.d.ellipse(rim, fill=(240, 248, 255), outline=(120, 150, 190), width=cv.px(0.02))
    water = cv.sub([0, 0, cv.W, cv.H], 0.1, 0.21, 0.9, 0.79)
    cv.d.ellipse(water, fill=(24, 50, 116))
    deep = cv.sub([0, 0, cv.W, cv.H], 0.2, 0.36, 0.8, 0.76)
    cv.d.ellipse(deep, fill=(10, 22, 62))


def _start(cv: _Canvas):
    box = cv.sq(0.84)
    side = box[2] - box[0]
    cv.d.rounded_rectangle(box, radius=0.12 * side, fill=(168, 176, 190), outline=(96, 104, 122), width=max(1, int(0.05 * side)))
    for v in (0.35, 0.5, 0.65):
        y = box[1] + v * side
        cv.d.line([(box[0] + 0.2 * side, y), (box[2] - 0.2 * side, y)], fill=(132, 140, 158), width=max(1, int(0.04 * side)))


def _gift(cv: _Canvas):
    full = cv.sq(0.8)
    body = cv.sub(full, 0.1, 0.38, 0.9, 1.0)
    lid = cv.sub(full, 0.04, 0.26, 0.96, 0.42)
    side = full[2] - full[0]
    red, dark, ribbon = (212, 44, 62), (120, 18, 30), (250, 212, 58)
    w = max(1, int(0.03 * side))
    cv.d.rectangle(body, fill=red, outline=dark, width=w)
    cv.d.rectangle(lid, fill=(232, 64, 82), outline=dark, width=w)
    cv.d.rectangle(cv.sub(full, 0.43, 0.26, 0.57, 1.0), fill=ribbon)
    cv.d.ellipse(cv.sub(full, 0.18, 0.02, 0.5, 0.27), outline=ribbon, width=max(1, int(0.07 * side)))
    cv.d.ellipse(cv.sub(full, 0.5, 0.02, 0.82, 0.27), outline=ribbon, width=max(1, int(0.07 * side)))


def _flag(cv: _Canvas):
    pad = cv.sq(0.84)
    side = pad[2] - pad[0]
    cv.d.rounded_rectangle(pad, radius=0.14 * side, fill=(150, 214, 140), outline=(64, 138, 66), width=max(1, int(0.05 * side)))
    cv.d.line([cv.pt(0.34, 0.14, pad), cv.pt(0.34, 0.86, pad)], fill=(60, 60, 60), width=max(1, int(0.06 * side)))
    cv.d.polygon([cv.pt(0.37, 0.14, pad), cv.pt(0.8, 0.3, pad), cv.pt(0.37, 0.47, pad)], fill=(224, 40, 40), outline=(128, 18, 18))
    cv.d.ellipse(cv.sub(pad, 0.22, 0.8, 0.46, 0.9), fill=(60, 60, 60))


def _generic(cv: _Canvas, kind: str):
    h = zlib.crc32(kind.encode("utf-8"))
    col = (64 + h % 160, 64 + (h >> 8) % 160, 64 + (h >> 16) % 160)
    sides = 3 + (h >> 24) % 4  # triangle .. hexagon, so kinds differ in shape as well as colour
    cv.d.regular_polygon((cv.W / 2, cv.H / 2, 0.38 * cv.m), sides, rotation=0, fill=_mix(col, (0, 0, 0), 0.6))
    cv.d.regular_polygon((cv.W / 2, cv.H / 2, 0.32 * cv.m), sides, rotation=0, fill=col)


def _paint(cv: _Canvas, colour):
    """A painted cell: the colour over the whole tile, its centre lighter, so that the tile is not flat
    (the visual reward tells foreground cells by their colour variance, SVoT A.3)."""
    cv.d.rectangle((0, 0, cv.W, cv.H), fill=colour)
    a, b = 0.22, 0.78
    cv.d.rectangle((a * cv.W, a * cv.H, b * cv.W, b * cv.H), fill=_mix(colour, (255, 255, 255), 0.45))


def _edge(cv: _Canvas, side: str):
    """A dark bar along the tile's right or lower edge, an eighth of the tile thick: at least two
    pixels, so that one stays beside the grid line drawn over the tile's last row and column."""
    t = max(2 * SCALE, round(0.125 * cv.m))
    box = (cv.W - t, 0, cv.W, cv.H) if side == "right" else (0, cv.H - t, cv.W, cv.H)
    cv.d.rectangle(box, fill=(52, 44, 38))


def _draw(cv: _Canvas, name: str, shrink_player: bool) -> None:
    if name == "player":
        _player(cv, shrink_player)
    elif name == "wall":
        _wall(cv)
    elif name == "crate":
        _crate(cv, green=False)
    elif name == "crate_on_target":
        _crate(cv, green=True)
    elif name == "target":
        _target(cv)
    elif name == "coin":
        _coin(cv)
    elif name.startswith("ball_") and name[5:] in BALL_COLOURS:
        _ball(cv, name[5:])
    elif name == "hole":
        _hole(cv)
    elif name == "start":
        _start(cv)
    elif name == "gift":
        _gift(cv)
    elif name == "flag":
        _flag(cv)
    elif name.startswith("paint_") and name[6:] in PAINT_COLOURS:
        _paint(cv, PAINT_COLOURS[name[6:]])
    elif name.startswith("edge_") and name[5:] in EDGE_SIDES:
        _edge(cv, name[5:])
    else:
        _generic(cv, name.removeprefix("generic:"))


def _sheen(cv: _Canvas, floor):
    """An ice floor (``spec.floor_sheen``): two faint diagonal streaks (keeps the tile flat)."""
    c = _mix(floor, (255, 255, 255), 0.3)
    W, H = cv.W, cv.H
    for a, b in ((0.18, 0.26), (0.34, 0.38)):
        cv.d.polygon([(a * W, 0), (b * W, 0), (0, b * H), (0, a * H)], fill=c)


def grid_colour(floor) -> tuple[int, int, int]:
    lum = 0.299 * floor[0] + 0.587 * floor[1] + 0.114 * floor[2]
    d = -GRID_DELTA if lum > 100 else GRID_DELTA
    return tuple(int(np.clip(v + d, 0, 255)) for v in floor)


@lru_cache(maxsize=2048)
def draw_tile(floor: tuple, layers: tuple, h: int, w: int, ice: bool = False) -> np.ndarray:
    """One ``(h, w, 3)`` uint8 tile (read-only) for sprite ``layers`` on ``floor``."""
    if h < 1 or w < 1:
        raise ValueError(f"tile size must be positive, got {h}x{w}")
    cv = _Canvas(w, h, floor)
    if ice:
        _sheen(cv, floor)
    shrink = len(layers) > 1
    for name in layers:
        _draw(cv, name, shrink_player=shrink)
    tile = box_reduce(cv.img, SCALE)
    if h >= 4 and w >= 4:
        g = np.array(grid_colour(floor), np.uint8)
        tile[0, :] = g
        tile[-1, :] = g
        tile[:, 0] = g
        tile[:, -1] = g
    tile.setflags(write=False)
    return tile


def tile_for(spec, label: str, h: int, w: int) -> np.ndarray:
    """The tile of ``label`` in ``spec``'s domain at ``h`` x ``w`` pixels (cached, read-only)."""
    return draw_tile(floor_colour(spec), layers_for(spec, label), int(h), int(w), spec.floor_sheen)
