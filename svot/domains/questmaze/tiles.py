"""QuestMaze's cell tiles in RuleMaze's images (:mod:`svot.rulemaze.render`), drawn by svot's rasteriser.

A grass field (a flat green with a few fixed darker and lighter blades) with an icon in the
middle: prince (start), princess and treasure (targets), key, heart and food (items), and the
monster that blocks a cell of the open grid. Icons are drawn at ``scale`` times the tile size
(:mod:`svot.raster`: svot's own code, so no Pillow release changes a pixel) and
reduced with a box filter (exact means: antialiasing), so a tile depends only on the symbol and its
size. No icon uses the renderer's wall, grid-line or marker colours (it finds the grid and the
marker by those colours). The scenario (:mod:`.scenario`) hands them to the renderer.
"""

from __future__ import annotations

import numpy as np

from svot.raster import Draw, box_reduce, canvas

#: The plain cell: the grass field alone.
GRASS_CELL = "grass"

GRASS = (126, 192, 88)
GRASS_DARK = (92, 156, 62)
GRASS_LIGHT = (162, 214, 120)
SKIN = (248, 208, 168)
SKIN_EDGE = (196, 140, 104)
EYE = (70, 46, 36)

# Blades of grass: (x, y) of the stroke's foot in fractions of the tile, kept off the icon's centre.
_BLADES = ((0.12, 0.2), (0.86, 0.16), (0.1, 0.62), (0.9, 0.58), (0.2, 0.92), (0.5, 0.95),
           (0.8, 0.92), (0.46, 0.1))


class _Canvas:
    """A ``scale`` x canvas with helpers in fractions of the tile."""

    def __init__(self, w: int, h: int, fill, scale: int):
        self.W, self.H = w * scale, h * scale
        self.scale = scale
        self.img = canvas(self.W, self.H, tuple(fill))
        self.d = Draw(self.img)
        self.m = min(self.W, self.H)

    def box(self, u0: float, v0: float, u1: float, v1: float, side: float = 0.62):
        """Box at fractions of a centred square of side ``side`` * min(W, H)."""
        s = side * self.m
        x0, y0 = (self.W - s) / 2, (self.H - s) / 2
        return [x0 + u0 * s, y0 + v0 * s, x0 + u1 * s, y0 + v1 * s]

    def pt(self, u: float, v: float, side: float = 0.62):
        s = side * self.m
        return ((self.W - s) / 2 + u * s, (self.H - s) / 2 + v * s)

    def w(self, frac: float, side: float = 0.62) -> int:
        return max(1, int(round(frac * side * self.m)))


def _grass(cv: _Canvas) -> None:
    lw = max(1, int(round(0.012 * cv.m)))
    for i, (u, v) in enumerate(_BLADES):
        x, y = u * cv.W, v * cv.H
        h = 0.07 * cv.m
        col = GRASS_DARK if i % 2 == 0 else GRASS_LIGHT
        cv.d.line([(x, y), (x - 0.35 * h, y - h)], fill=col, width=lw)
        cv.d.line([(x, y), (x + 0.05 * h, y - 1.15 * h)], fill=col, width=lw)
        cv.d.line([(x, y), (x + 0.4 * h, y - 0.9 * h)], fill=col, width=lw)


def _face(cv: _Canvas, cx: float, cy: float, r: float) -> None:
    cv.d.ellipse(cv.box(cx - r, cy - r, cx + r, cy + r), fill=SKIN, outline=SKIN_EDGE, width=cv.w(0.015))
    for du in (-0.36, 0.36):
        ex, ey = cx + du * r, cy + 0.02
        cv.d.ellipse(cv.box(ex - 0.035, ey - 0.045, ex + 0.035, ey + 0.045), fill=EYE)
    cv.d.arc(cv.box(cx - 0.4 * r, cy + 0.05, cx + 0.4 * r, cy + 0.55 * r), start=25, end=155,
             fill=(200, 90, 90), width=cv.w(0.018))


def _crown(cv: _Canvas, cx: float, base: float, half: float, gem) -> None:
    gold, edge = (246, 196, 40), (186, 130, 20)
    top = base - 0.16
    pts = [cv.pt(cx - half, base), cv.pt(cx - half, top), cv.pt(cx - half / 2, base - 0.07),
           cv.pt(cx, top - 0.03), cv.pt(cx + half / 2, base - 0.07), cv.pt(cx + half, top),
           cv.pt(cx + half, base)]
    cv.d.polygon(pts, fill=gold, outline=edge)
    cv.d.ellipse(cv.box(cx - 0.04, base - 0.09, cx + 0.04, base - 0.01), fill=gem)


def _prince(cv: _Canvas) -> None:
    tunic, tunic_edge = (44, 92, 204), (24, 52, 130)
    # shoulders / tunic
    cv.d.pieslice(cv.box(0.12, 0.62, 0.88, 1.38), start=180, end=360, fill=tunic, outline=tunic_edge,
                  width=cv.w(0.02))
    cv.d.rectangle(cv.box(0.46, 0.66, 0.54, 1.0), fill=(250, 214, 60))  # a gold sash
    # hair behind the face, then the face, then the crown
    cv.d.ellipse(cv.box(0.25, 0.2, 0.75, 0.64), fill=(122, 72, 36))
    _face(cv, 0.5, 0.45, 0.22)
    cv.d.chord(cv.box(0.27, 0.21, 0.73, 0.52), start=180, end=360, fill=(122, 72, 36))
    _crown(cv, 0.5, 0.26, 0.2, (40, 170, 90))


def _princess(cv: _Canvas) -> None:
    dress, dress_edge = (234, 92, 160), (170, 40, 104)
    hair = (248, 204, 64)
    cv.d.ellipse(cv.box(0.18, 0.18, 0.82, 0.86), fill=hair)  # long hair behind
    cv.d.polygon([cv.pt(0.5, 0.6), cv.pt(0.12, 1.0), cv.pt(0.88, 1.0)], fill=dress, outline=dress_edge)
    _face(cv, 0.5, 0.45, 0.21)
    cv.d.chord(cv.box(0.28, 0.22, 0.72, 0.5), start=180, end=360, fill=hair)
    _crown(cv, 0.5, 0.26, 0.15, (70, 120, 230))


def _treasure(cv: _Canvas) -> None:
    wood, wood_dark, edge = (170, 104, 48), (136, 78, 34), (118, 64, 22)
    gold, gold_edge = (246, 196, 40), (186, 130, 20)
    # coins heaped above the open lid
    for u, v in ((0.32, 0.2), (0.5, 0.14), (0.66, 0.22), (0.42, 0.26), (0.58, 0.28)):
        cv.d.ellipse(cv.box(u - 0.09, v - 0.09, u + 0.09, v + 0.09), fill=gold, outline=gold_edge,
                     width=cv.w(0.015))
    cv.d.rectangle(cv.box(0.06, 0.46, 0.94, 0.94), fill=wood, outline=edge, width=cv.w(0.025))
    cv.d.rectangle(cv.box(0.04, 0.32, 0.96, 0.5), fill=wood_dark, outline=edge, width=cv.w(0.025))
    for u in (0.2, 0.8):
        cv.d.rectangle(cv.box(u - 0.045, 0.32, u + 0.045, 0.94), fill=gold)
    cv.d.rectangle(cv.box(0.42, 0.44, 0.58, 0.62), fill=gold, outline=gold_edge, width=cv.w(0.015))
    cv.d.ellipse(cv.box(0.475, 0.5, 0.525, 0.55), fill=edge)


def _key(cv: _Canvas) -> None:
    gold, edge = (236, 184, 36), (170, 118, 14)
    cv.d.ellipse(cv.box(0.06, 0.28, 0.5, 0.72), fill=gold, outline=edge, width=cv.w(0.025))
    cv.d.ellipse(cv.box(0.18, 0.4, 0.38, 0.6), fill=GRASS, outline=edge, width=cv.w(0.02))
    cv.d.rectangle(cv.box(0.46, 0.44, 0.96, 0.56), fill=gold, outline=edge, width=cv.w(0.02))
    for u0, u1, v1 in ((0.7, 0.78, 0.74), (0.84, 0.94, 0.78)):
        cv.d.rectangle(cv.box(u0, 0.54, u1, v1), fill=gold, outline=edge, width=cv.w(0.02))


def _heart(cv: _Canvas) -> None:
    red, edge = (222, 36, 72), (150, 16, 44)
    r = 0.25
    cv.d.ellipse(cv.box(0.06, 0.14, 0.06 + 2 * r, 0.14 + 2 * r), fill=red)
    cv.d.ellipse(cv.box(0.94 - 2 * r, 0.14, 0.94, 0.14 + 2 * r), fill=red)
    cv.d.polygon([cv.pt(0.08, 0.46), cv.pt(0.92, 0.46), cv.pt(0.5, 0.92)], fill=red)
    cv.d.polygon([cv.pt(0.5, 0.3), cv.pt(0.3, 0.5), cv.pt(0.7, 0.5)], fill=red)
    cv.d.arc(cv.box(0.06, 0.14, 0.06 + 2 * r, 0.14 + 2 * r), start=140, end=300, fill=edge,
             width=cv.w(0.02))
    cv.d.arc(cv.box(0.94 - 2 * r, 0.14, 0.94, 0.14 + 2 * r), start=240, end=40, fill=edge,
             width=cv.w(0.02))
    cv.d.line([cv.pt(0.1, 0.5), cv.pt(0.5, 0.92), cv.pt(0.9, 0.5)], fill=edge, width=cv.w(0.02))
    cv.d.ellipse(cv.box(0.2, 0.24, 0.34, 0.36), fill=(250, 140, 160))


def _food(cv: _Canvas) -> None:
    meat, meat_edge, crust = (196, 112, 48), (132, 66, 24), (222, 150, 80)
    bone, bone_edge = (246, 238, 218), (186, 170, 140)
    # the bone, diagonal towards the lower right, with two knobs
    cv.d.line([cv.pt(0.5, 0.5), cv.pt(0.84, 0.84)], fill=bone_edge, width=cv.w(0.15))
    cv.d.line([cv.pt(0.5, 0.5), cv.pt(0.84, 0.84)], fill=bone, width=cv.w(0.1))
    for u, v in ((0.8, 0.92), (0.92, 0.8)):
        cv.d.ellipse(cv.box(u - 0.08, v - 0.08, u + 0.08, v + 0.08), fill=bone, outline=bone_edge,
                     width=cv.w(0.015))
    # the meat, an egg shape towards the upper left
    cv.d.ellipse(cv.box(0.06, 0.06, 0.66, 0.62), fill=meat, outline=meat_edge, width=cv.w(0.025))
    cv.d.ellipse(cv.box(0.16, 0.14, 0.42, 0.34), fill=crust)


def _monster(cv: _Canvas) -> None:
    body, edge = (104, 62, 140), (76, 36, 118)
    horn, horn_edge = (236, 226, 204), (150, 134, 110)
    # horns, then a round body with a lighter belly, two big eyes and a toothy mouth
    for u in (0.22, 0.78):
        side = -1 if u < 0.5 else 1
        cv.d.polygon([cv.pt(u - 0.08, 0.34), cv.pt(u + 0.08, 0.3), cv.pt(u + side * 0.1, 0.06)],
                     fill=horn, outline=horn_edge)
    cv.d.ellipse(cv.box(0.1, 0.2, 0.9, 0.96), fill=body, outline=edge, width=cv.w(0.03))
    cv.d.ellipse(cv.box(0.28, 0.56, 0.72, 0.92), fill=(150, 104, 182))
    for u in (0.34, 0.66):
        cv.d.ellipse(cv.box(u - 0.1, 0.34, u + 0.1, 0.54), fill=(250, 246, 226), outline=edge,
                     width=cv.w(0.015))
        cv.d.ellipse(cv.box(u - 0.04, 0.4, u + 0.04, 0.5), fill=(44, 28, 132))
    cv.d.chord(cv.box(0.3, 0.52, 0.7, 0.8), start=0, end=180, fill=(150, 30, 70))
    for u in (0.38, 0.5, 0.62):
        cv.d.polygon([cv.pt(u - 0.04, 0.66), cv.pt(u + 0.04, 0.66), cv.pt(u, 0.73)], fill=horn)


ICONS = {"prince": _prince, "princess": _princess, "treasure": _treasure, "key": _key,
          "heart": _heart, "food": _food, "monster": _monster}


def draw_tile(symbol: str, h: int, w: int, scale: int) -> np.ndarray | None:
    """The ``(h, w, 3)`` uint8 tile of a QuestMaze cell symbol, or None for a symbol not drawn here."""
    if symbol != GRASS_CELL and symbol not in ICONS:
        return None
    cv = _Canvas(w, h, GRASS, scale)
    _grass(cv)
    if symbol in ICONS:
        ICONS[symbol](cv)
    return box_reduce(cv.img, scale)
