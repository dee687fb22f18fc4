"""RGB frames on device: the tile atlas's pixels gathered by label id, equal to the numpy renderer's.

:class:`~svot.render.atlas.TileAtlas` draws an image as one tile copy per cell
(cells of at most four shapes, :func:`~svot.render.atlas.cell_bounds`). Here the
atlas's tile stacks are padded to one ``(V, shapes, h, w, 3)`` array and every
pixel knows its cell, its cell's shape and its offset in the cell, so a frame is
one gather: ``tiles[label[cell[y, x]], shape[y, x], dy[y, x], dx[y, x]]``.
Labels come from the bit-flag grid through the same flags→label table the numpy
vector env's ``render_batch`` builds (:func:`svot.render.labels.canonical_label`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from svot.render.atlas import get_atlas
from svot.render.labels import canonical_label


class AtlasRenderer:
    """Frames of one (domain, grid size, image size) from bit-flag grids, on device."""

    def __init__(self, dspec, n: int, image_size=64):
        atlas = get_atlas(dspec, n, image_size)
        kinds = dspec.kinds
        lut = np.zeros(1 << len(kinds), np.int32)
        for flags in range(1, 1 << len(kinds)):
            present = [k for i, k in enumerate(kinds) if flags >> i & 1]
            lut[flags] = atlas.label_id(canonical_label(dspec, present))
        shapes = atlas.shapes
        hmax, wmax = max(h for h, _ in shapes), max(w for _, w in shapes)
        tiles = np.zeros((len(atlas.labels), len(shapes), hmax, wmax, 3), np.uint8)
        for s, shape in enumerate(shapes):
            stack = atlas.stacks[shape]
            tiles[:, s, : shape[0], : shape[1]] = stack
        H, W = atlas.height, atlas.width
        row = np.searchsorted(atlas.rb, np.arange(H), side="right") - 1
        col = np.searchsorted(atlas.cb, np.arange(W), side="right") - 1
        shape_id = {sh: i for i, sh in enumerate(shapes)}
        shape_of = np.array([[shape_id[(int(atlas.hs[r]), int(atlas.ws[c]))] for c in col] for r in row], np.int32)
        self.height, self.width = H, W
        self._lut = jnp.asarray(lut)
        self._tiles = jnp.asarray(tiles)
        self._cell = jnp.asarray((row[:, None] * n + col[None, :]).astype(np.int32))
        self._shape = jnp.asarray(shape_of)
        self._dy = jnp.asarray(np.broadcast_to((np.arange(H) - atlas.rb[row])[:, None], (H, W)).astype(np.int32))
        self._dx = jnp.asarray(np.broadcast_to((np.arange(W) - atlas.cb[col])[None, :], (H, W)).astype(np.int32))

    def render(self, grid: jax.Array) -> jax.Array:
        """``(H, W, 3)`` uint8 frame of one ``(N, N)`` bit-flag grid."""
        labels = self._lut[grid.reshape(-1).astype(jnp.int32)]
        return self._tiles[labels[self._cell], self._shape, self._dy, self._dx]
