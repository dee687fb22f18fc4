"""The tile atlas: every label's tile at every cell size of one (domain, grid, image size).

An image of an ``n`` x ``n`` grid is split into cells by
:func:`cell_bounds` (``np.linspace(0, L, n + 1).round()``, the split the scoring
code uses), so cells differ by at most one pixel and there are at most four cell
shapes. For each shape the atlas stacks the tiles of the whole label
vocabulary into one ``(V, h, w, 3)`` array; rendering is then one slice copy
per cell (or per cell and batch) from that stack.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from svot.errors import ConfigError, ProblemError
from svot.render.labels import EMPTY, canonical_label, label_vocabulary
from svot.render.sprites import tile_for


def cell_bounds(image_size: int, n: int) -> np.ndarray:
    """Cell boundaries along one axis: ``np.linspace(0, image_size, n + 1).round().astype(int)``.

    Cell ``i`` spans pixels ``[b[i], b[i + 1])``.
    """
    return np.linspace(0, int(image_size), int(n) + 1).round().astype(int)


def image_hw(image_size) -> tuple[int, int]:
    """``image_size`` as ``(height, width)``: an int (square) or a ``(height, width)`` pair."""
    if isinstance(image_size, (tuple, list)) and len(image_size) == 2:
        h, w = image_size
    else:
        h = w = image_size
    try:
        if isinstance(h, bool) or isinstance(w, bool) or int(h) != h or int(w) != w:
            raise TypeError
        h, w = int(h), int(w)
    except (TypeError, ValueError):
        raise ConfigError(f"image_size must be an int or a (height, width) pair of ints, got {image_size!r}") from None
    return h, w


class TileAtlas:
    """Tiles of one domain for an ``n`` x ``n`` grid on a ``height`` x ``width`` image.

    ``labels`` starts as :func:`label_vocabulary` (so label ids agree with it) and
    grows if a state holds a combination outside it (drawn by stacking sprites).
    """

    def __init__(self, spec, n: int, height: int, width: int):
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
            raise ConfigError(f"grid size must be a positive int, got {n!r}")
        if height < n or width < n:
            raise ConfigError(f"a {height}x{width} image is too small for a {n}x{n} grid")
        self.spec = spec
        self.n = int(n)
        self.height, self.width = int(height), int(width)
        self.rb = cell_bounds(self.height, self.n)
        self.cb = cell_bounds(self.width, self.n)
        self.hs = np.diff(self.rb)
        self.ws = np.diff(self.cb)
        self.shapes = sorted({(int(h), int(w)) for h in self.hs for w in self.ws})
        self.labels: list[str] = []
        self.index: dict[str, int] = {}
        self.stacks: dict[tuple[int, int], np.ndarray] = {}
        self._by_kinds: dict[frozenset, int] = {frozenset(): 0}
        self._add_labels(label_vocabulary(spec, self.n))
        self.vocab_size = len(self.labels)

    # --- labels -----------------------------------------------------------------------
    def _add_labels(self, labels) -> None:
        new = [lab for lab in labels if lab not in self.index]
        if not new:
            return
        for lab in new:
            self.index[lab] = len(self.labels)
            self.labels.append(lab)
        for shape in self.shapes:
            tiles = [tile_for(self.spec, lab, *shape) for lab in new]
            old = self.stacks.get(shape)
            stack = np.stack(tiles) if old is None else np.concatenate([old, np.stack(tiles)])
            stack.setflags(write=False)
            self.stacks[shape] = stack
        self._build_plan()

    def _build_plan(self) -> None:
        # one (row slice, col slice, stack) per cell, row-major
        self._plan = [
            (slice(int(self.rb[r]), int(self.rb[r + 1])), slice(int(self.cb[c]), int(self.cb[c + 1])), self.stacks[(int(self.hs[r]), int(self.ws[c]))])
            for r in range(self.n)
            for c in range(self.n)
        ]

    def label_id(self, label: str) -> int:
        """Id of ``label``, adding it to the atlas if new."""
        i = self.index.get(label)
        if i is None:
            if label != EMPTY and any(not k for k in label.split("+")):
                raise ProblemError(f"malformed label {label!r}")
            self._add_labels([label])
            i = self.index[label]
        return i

    def ids_for_state(self, state: dict) -> list[int]:
        """Row-major label ids of ``state``'s cells."""
        n = self.n
        ids = [0] * (n * n)
        by_kinds = self._by_kinds
        try:
            cell_kinds = self.spec.cell_kinds(state)
        except KeyError as exc:
            raise ProblemError(f"{self.spec.name} state has no {exc.args[0]!r} field") from None
        for cell, kinds in cell_kinds.items():
            try:
                r, c = cell
                ok = 0 <= r < n and 0 <= c < n
            except (TypeError, ValueError):
                ok = False
            if not ok:
                raise ProblemError(f"{self.spec.name} state has cell {cell!r} outside the {n}x{n} grid")
            key = frozenset(kinds)
            i = by_kinds.get(key)
            if i is None:
                i = by_kinds[key] = self.label_id(canonical_label(self.spec, key))
            ids[r * n + c] = i
        return ids

    # --- images -----------------------------------------------------------------------
    def tile(self, label: str, h: int | None = None, w: int | None = None) -> np.ndarray:
        """The tile of ``label`` at shape ``(h, w)`` (default: the first cell's shape)."""
        if h is None or w is None:
            h, w = int(self.hs[0]), int(self.ws[0])
        return tile_for(self.spec, label, h, w)

    def render_ids(self, ids, out: np.ndarray | None = None) -> np.ndarray:
        """One image from ``n * n`` row-major label ids (a flat sequence of ints)."""
        if out is None:
            out = np.empty((self.height, self.width, 3), np.uint8)
        for (ys, xs, stack), i in zip(self._plan, ids):
            out[ys, xs] = stack[i]
        return out

    def render_batch(self, ids: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Images from a ``(B, n * n)`` int array of label ids: ``(B, H, W, 3)``."""
        b = ids.shape[0]
        if out is None:
            out = np.empty((b, self.height, self.width, 3), np.uint8)
        # frame by frame: one copy per cell, no (B, h, w, 3) temporaries (faster than per-cell gathers)
        for frame, row in zip(out, np.asarray(ids).tolist()):
            self.render_ids(row, frame)
        return out


_ATLASES: OrderedDict = OrderedDict()
_MAX_ATLASES = 64


def get_atlas(spec, n: int, image_size=256) -> TileAtlas:
    """The cached :class:`TileAtlas` of ``spec``'s domain, an ``n`` x ``n`` grid and ``image_size``."""
    h, w = image_hw(image_size)
    key = (type(spec), spec.name, tuple(spec.kinds), int(n), h, w)
    atlas = _ATLASES.get(key)
    if atlas is None:
        atlas = TileAtlas(spec, int(n), h, w)
        _ATLASES[key] = atlas
        if len(_ATLASES) > _MAX_ATLASES:
            _ATLASES.popitem(last=False)
    else:
        _ATLASES.move_to_end(key)
    return atlas
