"""Reading cell labels back from an image: nearest tile template per cell.

Each cell (split by :func:`~svot.render.atlas.cell_bounds`, as the renderer and
the scoring code split it) is reduced to a ``k`` x ``k`` x 3 feature by box
averaging (sub-cell boundaries ``cell_start + linspace(0, cell_size, k + 1).round()``),
and compared with the same feature of every label's tile *at that cell's exact
pixel size*; the label with the smallest RMS distance (0..255 scale) wins. A
rendered image is therefore read back exactly (distance 0 to its own tile).

The scoring code (Table 7: foreground accuracy, background error) reuses
:class:`Perceiver`: ``labels``, ``templates(h, w)``, ``distances(image)`` and
``classify(image)``.
"""

from __future__ import annotations

import numbers
from functools import lru_cache

import numpy as np
from PIL import Image

from svot.errors import ConfigError
from svot.render.atlas import cell_bounds, get_atlas, image_hw

__all__ = ["Perceiver", "cell_features", "get_perceiver", "label_templates", "read_label_ids", "read_labels"]

DEFAULT_K = 8


def as_rgb(image, what: str = "image", error: type[Exception] = ConfigError) -> np.ndarray:
    """``image`` as ``(H, W, 3)`` uint8: a PIL image (any 8-bit mode) or a uint8 array
    of shape ``(H, W)``, ``(H, W, 1)`` (grey, replicated), ``(H, W, 3)`` or ``(H, W, 4)``
    (alpha dropped, like Pillow's RGBA -> RGB). Anything else raises ``error`` naming ``what``."""
    if isinstance(image, Image.Image):
        return np.asarray(image.convert("RGB"))
    arr = np.asarray(image)
    if arr.dtype != np.uint8:
        raise error(f"{what}: expected dtype uint8, got {arr.dtype}")
    if arr.ndim == 2:
        arr = np.repeat(arr[:, :, None], 3, axis=2)
    elif arr.ndim == 3 and arr.shape[2] == 1:
        arr = np.repeat(arr, 3, axis=2)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = arr[:, :, :3]
    elif not (arr.ndim == 3 and arr.shape[2] == 3):
        raise error(f"{what}: expected shape (H, W), (H, W, 1), (H, W, 3) or (H, W, 4), got {arr.shape}")
    return arr


def _sub_starts(bounds: np.ndarray, k: int) -> np.ndarray:
    """Start pixel of each of the ``k`` sub-bins of every cell (``len(bounds) - 1`` cells)."""
    out = []
    for i in range(len(bounds) - 1):
        size = int(bounds[i + 1] - bounds[i])
        out.append(int(bounds[i]) + np.linspace(0, size, k + 1).round().astype(int)[:-1])
    return np.concatenate(out)


def _features(arr: np.ndarray, rb: np.ndarray, cb: np.ndarray, k: int) -> np.ndarray:
    """``(n_rows, n_cols, k * k * 3)`` float64 box means of each cell's k x k sub-bins."""
    rs, cs = _sub_starts(rb, k), _sub_starts(cb, k)
    # columns first (the faster reduceat here), exact integer sums, one division
    s = np.add.reduceat(np.add.reduceat(arr.astype(np.int32 if arr.shape[0] * arr.shape[1] < 2**23 else np.int64), cs, axis=1), rs, axis=0)
    cnt = np.outer(np.diff(np.append(rs, rb[-1])), np.diff(np.append(cs, cb[-1])))
    m = s / cnt[:, :, None]
    nr, nc = len(rb) - 1, len(cb) - 1
    return m.reshape(nr, k, nc, k, 3).transpose(0, 2, 1, 3, 4).reshape(nr, nc, k * k * 3)


def _check_n(n, h: int, w: int) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ConfigError(f"n must be a positive int, got {n!r}")
    if n > min(h, w):
        raise ConfigError(f"n={n} exceeds the image size {h}x{w}")
    return int(n)


def cell_features(image, n: int, k: int = DEFAULT_K) -> np.ndarray:
    """``(n, n, k' * k' * 3)`` cell features of an image, ``k' = min(k, smallest cell side)``."""
    arr = as_rgb(image)
    h, w = arr.shape[:2]
    n = _check_n(n, h, w)
    rb, cb = cell_bounds(h, n), cell_bounds(w, n)
    kk = max(1, min(int(k), int(np.diff(rb).min()), int(np.diff(cb).min())))
    return _features(arr, rb, cb, kk)


class Perceiver:
    """Nearest-template cell classifier for one domain, grid size ``n`` and image size."""

    def __init__(self, spec, n: int, image_size=256, k: int = DEFAULT_K):
        self.atlas = get_atlas(spec, n, image_size)
        self.spec, self.n = spec, self.atlas.n
        self.height, self.width = self.atlas.height, self.atlas.width
        self.rb, self.cb = self.atlas.rb, self.atlas.cb
        self.k = max(1, min(int(k), int(self.atlas.hs.min()), int(self.atlas.ws.min())))
        #: class labels (``labels[i]`` is class ``i``; ``labels[0] == "empty"``)
        self.labels: list[str] = list(self.atlas.labels[: self.atlas.vocab_size])
        self._templates = {}
        for (h, w), stack in self.atlas.stacks.items():
            feats = [_features(t, np.array([0, h]), np.array([0, w]), self.k)[0, 0] for t in stack[: len(self.labels)]]
            self._templates[(h, w)] = np.stack(feats)
        # per cell, the template array of its shape
        self._cell_shape = [[(int(self.atlas.hs[r]), int(self.atlas.ws[c])) for c in range(self.n)] for r in range(self.n)]
        groups: dict = {}
        for r in range(self.n):
            for c in range(self.n):
                groups.setdefault(self._cell_shape[r][c], []).append(r * self.n + c)
        self._groups = {s: np.array(v) for s, v in groups.items()}

    def templates(self, h: int, w: int) -> np.ndarray:
        """``(V, k * k * 3)`` features of every label's tile at cell shape ``(h, w)``."""
        return self._templates[(int(h), int(w))]

    def template_images(self, h: int, w: int) -> np.ndarray:
        """``(V, h, w, 3)`` uint8 tiles of every label at cell shape ``(h, w)``."""
        return self.atlas.stacks[(int(h), int(w))][: len(self.labels)]

    def features(self, image) -> np.ndarray:
        arr = as_rgb(image)
        if arr.shape[:2] != (self.height, self.width):
            raise ConfigError(
                f"this perceiver reads {self.height}x{self.width} images, got {arr.shape[0]}x{arr.shape[1]}"
            )
        return _features(arr, self.rb, self.cb, self.k)

    def distances(self, image) -> np.ndarray:
        """``(n, n, V)`` RMS distance (0..255 scale) between each cell and each label's template."""
        f = self.features(image).reshape(self.n * self.n, -1)
        out = np.empty((self.n * self.n, len(self.labels)))
        for shape, idx in self._groups.items():
            d = f[idx][:, None, :] - self._templates[shape][None, :, :]
            out[idx] = np.sqrt((d * d).mean(axis=2))
        return out.reshape(self.n, self.n, -1)

    def classify(self, image) -> np.ndarray:
        """``(n, n)`` label ids (indices into ``labels``) of the nearest templates."""
        return self.distances(image).argmin(axis=2)

    def read(self, image) -> list[list[str]]:
        ids = self.classify(image)
        return [[self.labels[i] for i in row] for row in ids.tolist()]


@lru_cache(maxsize=64)
def _perceiver(spec, n: int, h: int, w: int, k: int) -> Perceiver:
    return Perceiver(spec, n, (h, w), k)


def get_perceiver(spec, n: int, image_size=256, k: int = DEFAULT_K) -> Perceiver:
    """A cached :class:`Perceiver` (``image_size``: int or ``(H, W)``)."""
    h, w = image_hw(image_size)
    return _perceiver(spec, int(n), h, w, int(k))


def read_label_ids(spec, image, n: int, k: int = DEFAULT_K) -> np.ndarray:
    """``(n, n)`` label ids (indices into ``label_vocabulary(spec, n)``) read from ``image``."""
    arr = as_rgb(image)
    n = _check_n(n, *arr.shape[:2])
    return get_perceiver(spec, n, arr.shape[:2], k).classify(arr)


def read_labels(spec, image, n: int, k: int = DEFAULT_K) -> list[list[str]]:
    """The label of every cell of ``image`` (any size; uint8 array or PIL image)."""
    arr = as_rgb(image)
    n = _check_n(n, *arr.shape[:2])
    return get_perceiver(spec, n, arr.shape[:2], k).read(arr)


def label_templates(spec, n: int, image_size=256, k: int = DEFAULT_K) -> tuple[list[str], dict]:
    """``(labels, {(h, w): (V, k*k*3) features})`` for an ``n`` x ``n`` grid on ``image_size``."""
    p = get_perceiver(spec, n, image_size, k)
    return list(p.labels), {shape: p.templates(*shape) for shape in p._templates}
