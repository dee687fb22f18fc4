"""Visual reward ``r_v`` of SVoT (paper, Appendix A.3).

``r_v(pred, truth) = r_str * r_qua`` where

* ``r_str`` is the weighted fraction of grid cells whose composite similarity
  ``S = 0.4 s_hash + 0.3 s_edge + 0.3 s_color`` reaches ``tau`` (0.8); foreground
  cells (from the ground truth) weigh ``fg_weight`` (10), background cells
  ``bg_weight`` (1), normalised to sum to one (eq. 15, 17);
* ``r_qua = clip(phi(pred; Omega) / (phi(truth; Omega) + eps), 0, 1)``, with
  ``phi`` the mean variance of the Laplacian over the foreground cells ``Omega``
  of the ground truth (eq. 16).

The per-patch functions (:func:`s_hash`, :func:`s_edge`, :func:`s_color`,
:func:`composite`, :func:`laplacian_variance`) follow the paper's formulas
literally; :func:`visual_reward` computes the same quantities for all cells at
once with plain numpy + Pillow: cells of equal size are stacked (an ``n x n``
grid has at most four distinct cell sizes), colour histograms of all cells come
from one ``np.bincount``, per-cell variances from ``np.add.reduceat``.  Large
temporaries go to per-thread scratch buffers that are reused between calls
(a few MiB per thread for 256x256 images, kept for the thread's lifetime):
freshly allocated (page-faulting) temporaries, not arithmetic, dominated the
run time.

Choices made where the paper is silent (each is documented at its function):

* Cells: row/column boundaries ``np.linspace(0, L, n + 1).round()``.
* Grayscale: ITU-R BT.601 luma ``Y = 0.299 R + 0.587 G + 0.114 B``, not rounded
  (unlike ``Image.convert("L")``).  Internally it is held as the integer
  ``1000 * Y`` in float64, so Sobel and Laplacian responses are exact.
* ``s_hash`` downsampling: Pillow's ``BOX`` filter (as ``Image.resize(..., BOX)``
  on a float image), applied as two small averaging matrices.
* Sobel and Laplacian: 3x3 kernels, each cell padded on its own by edge
  replication (``np.pad(mode="edge")``; for a one-pixel border this equals
  ``scipy.ndimage``'s default ``mode="reflect"``).
* "Above the mean" (hash bits, edge maps) means above by more than 1e-10 grey
  levels, so values mathematically equal to the mean (flat patches, ties) never
  flip on float round-off.
* Variances (foreground mask, Laplacian) are population variances (ddof=0).
* :func:`laplacian_variance` is on the 0..255 grey scale, so ``eps`` = 1e-8 in
  ``r_qua`` is negligible for any textured foreground.
* ``s_color`` with a constant histogram (zero norm after centring): 1.0 if the
  two histograms are identical, else 0.0.
* ``r_qua`` is 1.0 when the ground truth has no foreground cell.
"""

from __future__ import annotations

import math
import numbers
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional, Sequence, Union

import numpy as np
from PIL import Image

from svot.metrics.errors import MetricError
from svot.render.perceive import as_rgb

__all__ = [
    "LUMA_BT601",
    "VisualScore",
    "cell_boundaries",
    "composite",
    "foreground_mask",
    "laplacian_variance",
    "s_color",
    "s_edge",
    "s_hash",
    "split_cells",
    "visual_reward",
]

ImageLike = Union[np.ndarray, Image.Image]

#: ITU-R BT.601 luma weights for (R, G, B).
LUMA_BT601 = (0.299, 0.587, 0.114)

# Internal grey scale: 1000 * luma, an exact integer in float64 (0 .. 255000).
_GRAY_SCALE = 1000.0
_LUMA_INT = (299.0, 587.0, 114.0)
# "Strictly above the mean" tolerance, in internal grey units (= 1e-10 grey levels).
_TIE_TOL = 1e-10 * _GRAY_SCALE

# Pillow modes that convert to RGB without guessing a value range.
_PIL_MODES = frozenset({"1", "L", "LA", "La", "P", "PA", "RGB", "RGBA", "RGBa", "RGBX", "CMYK", "YCbCr"})


# --------------------------------------------------------------------------- inputs


def _as_rgb(img: object, name: str) -> np.ndarray:
    """Return ``img`` as an ``(H, W, 3)`` uint8 array (:func:`svot.render.perceive.as_rgb`).

    Accepts a ``PIL.Image.Image`` in an 8-bit mode or a uint8 ndarray; errors
    are :class:`MetricError` naming ``name``.
    """
    if isinstance(img, Image.Image):
        if img.mode not in _PIL_MODES:
            raise MetricError(
                f"{name}: unsupported PIL image mode {img.mode!r}; expected an 8-bit mode such as RGB, RGBA or L"
            )
    elif not isinstance(img, np.ndarray):
        raise MetricError(f"{name}: expected a PIL.Image.Image or a numpy uint8 array, got {type(img).__name__}")
    arr = as_rgb(img, name, MetricError)
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise MetricError(f"{name}: image is empty (shape {arr.shape})")
    return arr


def _check_n(n: object, height: int, width: int) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise MetricError(f"n must be an integer, got {n!r}")
    n = int(n)
    if n < 1:
        raise MetricError(f"n must be >= 1, got {n}")
    if n > min(height, width):
        raise MetricError(
            f"n={n} exceeds the image size {height}x{width}: every cell needs at least one pixel"
        )
    return n


def _check_pair(x: object, y: object) -> tuple[np.ndarray, np.ndarray]:
    xa = _as_rgb(x, "x")
    ya = _as_rgb(y, "y")
    if xa.shape != ya.shape:
        raise MetricError(f"x and y must have the same shape, got {xa.shape} and {ya.shape}")
    return xa, ya


def _check_real(value: object, name: str, *, minimum: Optional[float] = None, strict: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
        raise MetricError(f"{name} must be a finite real number, got {value!r}")
    value = float(value)
    if minimum is not None and (value <= minimum if strict else value < minimum):
        raise MetricError(f"{name} must be {'>' if strict else '>='} {minimum}, got {value}")
    return value


def _check_positive_int(value: object, name: str, maximum: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise MetricError(f"{name} must be a positive integer, got {value!r}")
    if maximum is not None and value > maximum:
        raise MetricError(f"{name} must be <= {maximum}, got {value}")
    return int(value)


def _check_weights(weights: Sequence[float]) -> tuple[float, float, float]:
    try:
        ws = tuple(weights)
    except TypeError:
        raise MetricError(f"weights must be a sequence of 3 numbers, got {weights!r}") from None
    if len(ws) != 3:
        raise MetricError(f"weights must have 3 entries (hash, edge, color), got {len(ws)}")
    wh, we, wc = (_check_real(w, "weights entry", minimum=0.0) for w in ws)
    return wh, we, wc


# --------------------------------------------------------------------------- scratch buffers


class _Scratch:
    """Named flat buffers, grown on demand and handed out as reshaped views.

    One instance per thread (see :func:`_scratch`); callers must not let a view
    escape (results are always fresh reductions).  Requests above
    ``_MAX_CACHED`` elements are allocated fresh and not retained.
    """

    _MAX_CACHED = 1 << 22  # elements per buffer (32 MiB of float64)

    def __init__(self) -> None:
        self._bufs: dict[tuple[str, np.dtype], np.ndarray] = {}

    def get(self, key: str, shape: tuple[int, ...], dtype: type = np.float64) -> np.ndarray:
        size = math.prod(shape)
        dt = np.dtype(dtype)
        if size > self._MAX_CACHED:
            return np.empty(shape, dt)
        buf = self._bufs.get((key, dt))
        if buf is None or buf.size < size:
            buf = self._bufs[(key, dt)] = np.empty(size, dt)
        return buf[:size].reshape(shape)


_TLS = threading.local()


def _scratch() -> _Scratch:
    s = getattr(_TLS, "scratch", None)
    if s is None:
        s = _TLS.scratch = _Scratch()
    return s


def _empty(
    scratch: Optional[_Scratch], key: str, shape: tuple[int, ...], dtype: type = np.float64
) -> np.ndarray:
    return np.empty(shape, dtype) if scratch is None else scratch.get(key, shape, dtype)


# --------------------------------------------------------------------------- cells


def cell_boundaries(length: int, n: int) -> np.ndarray:
    """Cell boundaries along one axis: ``np.linspace(0, length, n + 1).round().astype(int)``.

    Cell ``i`` spans ``[b[i], b[i + 1])``; sizes differ by at most one pixel.
    """
    length = _check_positive_int(length, "length")
    n = _check_n(n, length, length)
    return np.linspace(0, length, n + 1).round().astype(np.intp)


def split_cells(img: ImageLike, n: int) -> list[list[np.ndarray]]:
    """Split an image into an ``n x n`` grid; ``cells[i][j]`` is the (row i, col j) patch.

    Patches are ``(Hc, Wc, 3)`` uint8 views (RGB); see :func:`cell_boundaries`.
    """
    arr = _as_rgb(img, "img")
    h, w = arr.shape[:2]
    n = _check_n(n, h, w)
    rb, cb = cell_boundaries(h, n), cell_boundaries(w, n)
    return [[arr[rb[i] : rb[i + 1], cb[j] : cb[j + 1]] for j in range(n)] for i in range(n)]


@dataclass(frozen=True)
class _Group:
    """All cells of one size ``(hc, wc)``."""

    ids: np.ndarray  # (m,) row-major cell indices
    flat: np.ndarray  # (|I|, |J|, hc + 2, wc + 2) flat pixel index, edge padding per cell


@dataclass(frozen=True)
class _Layout:
    rb: np.ndarray  # (n + 1,) row boundaries
    cb: np.ndarray  # (n + 1,) column boundaries
    counts: np.ndarray  # (n, n) pixels per cell
    cell_id: np.ndarray  # (H, W) row-major cell index of every pixel
    groups: tuple[_Group, ...]


def _padded_index(bounds: np.ndarray, cells: np.ndarray, size: int) -> np.ndarray:
    """Per cell, the indices ``start-1 .. start+size`` clamped into the cell (edge padding)."""
    start = bounds[cells][:, None]
    return np.clip(start + np.arange(-1, size + 1), start, start + size - 1)


@lru_cache(maxsize=16)
def _layout(height: int, width: int, n: int) -> _Layout:
    rb, cb = cell_boundaries(height, n), cell_boundaries(width, n)
    hs, ws = np.diff(rb), np.diff(cb)
    if hs.min() < 1 or ws.min() < 1:  # cannot happen for n <= min(H, W); kept as a guard
        raise MetricError(f"n={n} produces empty cells on a {height}x{width} image")
    groups = []
    for hc in np.unique(hs):
        rows_i = np.flatnonzero(hs == hc)
        rows = _padded_index(rb, rows_i, int(hc))
        for wc in np.unique(ws):
            cols_j = np.flatnonzero(ws == wc)
            cols = _padded_index(cb, cols_j, int(wc))
            flat = rows[:, None, :, None] * width + cols[None, :, None, :]
            groups.append(_Group(ids=(rows_i[:, None] * n + cols_j[None, :]).ravel(), flat=flat))
    cell_id = np.repeat(np.arange(n), hs)[:, None] * n + np.repeat(np.arange(n), ws)[None, :]
    return _Layout(rb=rb, cb=cb, counts=np.outer(hs, ws), cell_id=cell_id, groups=tuple(groups))


# --------------------------------------------------------------------------- kernels
# Kernels take arrays with arbitrary leading (batch) axes, image axes last.  With
# ``scratch=None`` they allocate; visual_reward passes the thread's scratch.


def _gray_into(rgb: np.ndarray, out: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    """``1000 * BT.601 luma`` = ``299 R + 587 G + 114 B`` (exact integers in float64)."""
    wr, wg, wb = _LUMA_INT
    np.multiply(rgb[..., 0], wr, out=out)
    np.multiply(rgb[..., 1], wg, out=tmp)
    out += tmp
    np.multiply(rgb[..., 2], wb, out=tmp)
    out += tmp
    return out


def _gray(rgb: np.ndarray) -> np.ndarray:
    shape = rgb.shape[:-1]
    return _gray_into(rgb, np.empty(shape), np.empty(shape))


def _pad_edge(g: np.ndarray) -> np.ndarray:
    """Pad the last two axes by one pixel, replicating the border."""
    return np.pad(g, [(0, 0)] * (g.ndim - 2) + [(1, 1), (1, 1)], mode="edge")


def _edge_maps(p: np.ndarray, scratch: Optional[_Scratch] = None) -> np.ndarray:
    """Binary edge maps ``|Sobel| > mean |Sobel|`` of edge-padded grey patches.

    ``p`` is ``(..., h + 2, w + 2)``; returns ``(..., h, w)`` bool.  Gx and Gy are
    the separable 3x3 Sobel responses ([1, 2, 1] smoothing x [-1, 0, 1]
    difference); on integer grey values they are exact.
    """
    *lead, hp, wp = p.shape
    h, w = hp - 2, wp - 2
    dx = _empty(scratch, "dx", (*lead, hp, w))
    np.subtract(p[..., :, 2:], p[..., :, :-2], out=dx)
    gx = _empty(scratch, "gx", (*lead, h, w))
    np.add(dx[..., :-2, :], dx[..., 2:, :], out=gx)
    gx += dx[..., 1:-1, :]
    gx += dx[..., 1:-1, :]
    dy = _empty(scratch, "dy", (*lead, h, wp))
    np.subtract(p[..., 2:, :], p[..., :-2, :], out=dy)
    gy = _empty(scratch, "gy", (*lead, h, w))
    np.add(dy[..., :, :-2], dy[..., :, 2:], out=gy)
    gy += dy[..., :, 1:-1]
    gy += dy[..., :, 1:-1]
    np.multiply(gx, gx, out=gx)
    np.multiply(gy, gy, out=gy)
    gx += gy
    mag = np.sqrt(gx, out=gx)
    threshold = mag.mean(axis=(-2, -1), keepdims=True)
    threshold += _TIE_TOL
    edges = _empty(scratch, "edges", (*lead, h, w), np.bool_)
    return np.greater(mag, threshold, out=edges)


def _iou(ex: np.ndarray, ey: np.ndarray, eps: float, scratch: Optional[_Scratch] = None) -> np.ndarray:
    """IoU of boolean maps over the last two axes; 1.0 where both are empty."""
    tmp = _empty(scratch, "iou", ex.shape, np.bool_)
    inter = np.count_nonzero(np.logical_and(ex, ey, out=tmp), axis=(-2, -1))
    union = np.count_nonzero(np.logical_or(ex, ey, out=tmp), axis=(-2, -1))
    return np.where(union == 0, 1.0, inter / (union + eps))


def _laplacian_var(p: np.ndarray, scratch: Optional[_Scratch] = None) -> np.ndarray:
    """Variance (ddof=0) of the 4-neighbour Laplacian of edge-padded grey patches.

    ``p`` is ``(..., h + 2, w + 2)`` in internal grey units; the result is in
    (0..255 grey levels)^2.
    """
    *lead, hp, wp = p.shape
    h, w = hp - 2, wp - 2
    lap = _empty(scratch, "lap", (*lead, h, w))
    np.add(p[..., :-2, 1:-1], p[..., 2:, 1:-1], out=lap)
    lap += p[..., 1:-1, :-2]
    lap += p[..., 1:-1, 2:]
    tmp = _empty(scratch, "lap_tmp", (*lead, h, w))
    np.multiply(p[..., 1:-1, 1:-1], 4.0, out=tmp)
    lap -= tmp
    # Integer-valued responses: both sums are exact (while below 2**53), and with
    # edge padding the Laplacian sums to zero over a patch, so there is no cancellation.
    s1 = lap.sum(axis=(-2, -1))
    s2 = np.multiply(lap, lap, out=tmp).sum(axis=(-2, -1))
    cnt = float(h * w)
    return (s2 / cnt - (s1 / cnt) ** 2) / (_GRAY_SCALE * _GRAY_SCALE)


@lru_cache(maxsize=256)
def _box_matrix(size: int, k: int) -> np.ndarray:
    """``(k, size)`` matrix ``M`` with ``M @ v`` == Pillow BOX resize of ``v`` to length ``k``.

    The support of each output pixel is read off Pillow itself (resizing an
    identity image); Pillow's box filter weighs the pixels of its support
    equally, so each row is ``1/count`` on its support (exact, in float64).
    """
    eye = Image.fromarray(np.eye(size, dtype=np.float32), mode="F")
    support = np.asarray(eye.resize((size, k), Image.Resampling.BOX)) > 0
    m = support / support.sum(axis=1, keepdims=True)
    m.setflags(write=False)
    return m


def _hash_bits(g: np.ndarray, k: int, scratch: Optional[_Scratch] = None) -> np.ndarray:
    """Average-hash bits of grey patches ``(..., h, w) -> (..., k, k)`` bool."""
    h, w = g.shape[-2:]
    if not g.flags.c_contiguous:  # matmul on strided views can miss BLAS and be ~100x slower
        contiguous = _empty(scratch, "hash_in", g.shape)
        np.copyto(contiguous, g)
        g = contiguous
    small = _box_matrix(h, k) @ (g @ _box_matrix(w, k).T)
    return small > small.mean(axis=(-2, -1), keepdims=True) + _TIE_TOL


def _color_codes_into(rgb: np.ndarray, bins: int, out: np.ndarray, tmp: np.ndarray) -> np.ndarray:
    """Joint bin ``(r_bin * bins + g_bin) * bins + b_bin`` per pixel; ``v_bin = v * bins // 256``."""
    np.multiply(rgb[..., 0], bins, out=out, dtype=np.intp)
    np.right_shift(out, 8, out=out)
    for c in (1, 2):
        np.multiply(rgb[..., c], bins, out=tmp, dtype=np.intp)
        np.right_shift(tmp, 8, out=tmp)
        out *= bins
        out += tmp
    return out


def _histogram(rgb: np.ndarray, bins: int) -> np.ndarray:
    shape = rgb.shape[:-1]
    codes = _color_codes_into(rgb, bins, np.empty(shape, np.intp), np.empty(shape, np.intp))
    return np.bincount(codes.ravel(), minlength=bins**3).astype(np.float64)


def _pearson(hx: np.ndarray, hy: np.ndarray) -> np.ndarray:
    """Clipped Pearson correlation of histograms along the last axis (see :func:`s_color`)."""
    cx = hx - hx.mean(axis=-1, keepdims=True)
    cy = hy - hy.mean(axis=-1, keepdims=True)
    denom = np.sqrt(np.einsum("...i,...i->...", cx, cx) * np.einsum("...i,...i->...", cy, cy))
    dot = np.einsum("...i,...i->...", cx, cy)
    degenerate = denom == 0
    r = dot / np.where(degenerate, 1.0, denom)
    r = np.where(degenerate, np.all(hx == hy, axis=-1).astype(np.float64), r)
    return np.clip(r, 0.0, 1.0)


# --------------------------------------------------------------------------- per-patch API


def s_hash(x: ImageLike, y: ImageLike, k: int = 8) -> float:
    """Perceptual (average) hash similarity, eq. 18.

    Each patch is converted to grayscale (ITU-R BT.601 luma, unrounded),
    downsampled to ``k x k`` with Pillow's BOX filter, and bit ``i`` is set when
    pixel ``i`` exceeds the mean of the ``k x k`` image.  Returns
    ``1 - hamming(bits_x, bits_y) / k**2``.  ``x`` and ``y`` must have equal shapes.
    """
    xa, ya = _check_pair(x, y)
    k = _check_positive_int(k, "k")
    bx, by = _hash_bits(_gray(xa), k), _hash_bits(_gray(ya), k)
    return float(1.0 - np.count_nonzero(bx != by) / bx.size)


def s_edge(x: ImageLike, y: ImageLike, eps: float = 1e-8) -> float:
    """Edge alignment, eq. 19-20: IoU of binary Sobel edge maps.

    Sobel ``Gx``, ``Gy`` (3x3) on the grey patch, padded by edge replication;
    a pixel is an edge when its gradient magnitude exceeds the patch's mean
    magnitude.  Returns ``|Ex & Ey| / (|Ex | Ey| + eps)``, or 1.0 when both
    maps are empty.
    """
    xa, ya = _check_pair(x, y)
    eps = _check_real(eps, "eps", minimum=0.0)
    ex, ey = _edge_maps(_pad_edge(_gray(xa))), _edge_maps(_pad_edge(_gray(ya)))
    return float(_iou(ex, ey, eps))


def s_color(x: ImageLike, y: ImageLike, bins: int = 8) -> float:
    """Colour consistency, eq. 21: clipped Pearson correlation of joint RGB histograms.

    Each channel is split into ``bins`` uniform bins over 0..255
    (``v * bins // 256``), giving a ``bins**3`` histogram of pixel counts;
    histograms are mean-centred and their cosine similarity is clipped to
    [0, 1].  Degenerate case: if a centred histogram has zero norm (all bins
    equal), the result is 1.0 when the two histograms are identical and 0.0
    otherwise.
    """
    xa, ya = _check_pair(x, y)
    bins = _check_positive_int(bins, "bins", maximum=256)
    return float(_pearson(_histogram(xa, bins), _histogram(ya, bins)))


def composite(x: ImageLike, y: ImageLike, weights: Sequence[float] = (0.4, 0.3, 0.3)) -> float:
    """Composite similarity ``S``, eq. 22: ``wh * s_hash + we * s_edge + wc * s_color``."""
    wh, we, wc = _check_weights(weights)
    return wh * s_hash(x, y) + we * s_edge(x, y) + wc * s_color(x, y)


def laplacian_variance(patch: ImageLike) -> float:
    """Variance (ddof=0) of the 3x3 Laplacian ``[[0,1,0],[1,-4,1],[0,1,0]]`` response.

    Computed on the BT.601 grey patch on the **0..255** scale (unrounded),
    padded by edge replication; i.e. the common ``cv2.Laplacian(gray).var()``
    sharpness measure up to rounding and border handling.
    """
    return float(_laplacian_var(_pad_edge(_gray(_as_rgb(patch, "patch")))))


def _foreground(
    truth: np.ndarray, layout: _Layout, delta: float, scratch: Optional[_Scratch] = None
) -> np.ndarray:
    """Per cell: mean over R, G, B of the per-channel (ddof=0) variance of v / 255 > delta."""
    starts_r, starts_c = layout.rb[:-1], layout.cb[:-1]
    sq = np.multiply(truth, truth, out=_empty(scratch, "fg_sq", truth.shape, np.uint16), dtype=np.uint16)
    s1 = np.add.reduceat(np.add.reduceat(truth, starts_r, axis=0, dtype=np.int64), starts_c, axis=1)
    s2 = np.add.reduceat(np.add.reduceat(sq, starts_r, axis=0, dtype=np.int64), starts_c, axis=1)
    cnt = layout.counts[:, :, None].astype(np.float64)
    s1f = s1.astype(np.float64)  # exact integer sums, then one float step
    var = (s2 - s1f * s1f / cnt) / cnt / (255.0 * 255.0)
    return var.mean(axis=2) > delta


def foreground_mask(truth: ImageLike, n: int, delta: float = 0.002) -> np.ndarray:
    """Foreground cells ``Omega`` of the ground truth, as an ``(n, n)`` bool array.

    A cell is foreground when the mean over R, G, B of the per-channel
    population variance of its pixel values (scaled to [0, 1]) exceeds ``delta``.
    """
    arr = _as_rgb(truth, "truth")
    n = _check_n(n, *arr.shape[:2])
    delta = _check_real(delta, "delta", minimum=0.0)
    return _foreground(arr, _layout(arr.shape[0], arr.shape[1], n), delta)


# --------------------------------------------------------------------------- reward


@dataclass(frozen=True, eq=False)
class VisualScore:
    """Result of :func:`visual_reward`; all matrices are ``(n, n)`` and read-only.

    Attributes:
        r_v: the visual reward ``r_str * r_qua``.
        r_str: weighted fraction of matched cells.
        r_qua: sharpness ratio of the foreground, clipped to [0, 1].
        fg: foreground mask ``Omega`` (from the ground truth).
        S: composite similarity per cell.
        matched: ``S >= tau``.
        weights: normalised cell weights (sum to 1); ``r_str = weights[matched].sum()``.
        s_hash, s_edge, s_color: the three components of ``S`` per cell.
        phi_pred, phi_truth: mean Laplacian variance over ``Omega`` (0.0 if empty).
    """

    r_v: float
    r_str: float
    r_qua: float
    fg: np.ndarray
    S: np.ndarray
    matched: np.ndarray
    weights: np.ndarray
    s_hash: np.ndarray
    s_edge: np.ndarray
    s_color: np.ndarray
    phi_pred: float
    phi_truth: float


def _frozen(a: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    a = a.reshape(shape)
    a.setflags(write=False)
    return a


def visual_reward(
    pred: ImageLike,
    truth: ImageLike,
    n: int,
    *,
    delta: float = 0.002,
    tau: float = 0.8,
    fg_weight: float = 10.0,
    bg_weight: float = 1.0,
    weights: Sequence[float] = (0.4, 0.3, 0.3),
    eps: float = 1e-8,
) -> VisualScore:
    """Visual reward ``r_v(pred, truth)`` on an ``n x n`` grid (paper eq. 14-22).

    ``pred`` is resized to ``truth``'s size with Pillow's bilinear filter when the
    sizes differ.  The foreground ``Omega`` comes from ``truth``
    (:func:`foreground_mask`).  ``r_str = sum_ij w_ij [S_ij >= tau]`` with
    ``w_ij`` proportional to ``fg_weight`` on ``Omega`` and ``bg_weight`` elsewhere.
    ``r_qua = clip(phi(pred) / (phi(truth) + eps), 0, 1)`` with ``phi`` the mean of
    :func:`laplacian_variance` over the cells of ``Omega``; ``r_qua = 1.0`` when
    ``Omega`` is empty.  Per-cell values equal :func:`s_hash`, :func:`s_edge`,
    :func:`s_color` and :func:`composite` on the patches of :func:`split_cells`.
    """
    truth_a = _as_rgb(truth, "truth")
    pred_a = _as_rgb(pred, "pred")
    height, width = truth_a.shape[:2]
    n = _check_n(n, height, width)
    delta = _check_real(delta, "delta", minimum=0.0)
    tau = _check_real(tau, "tau")
    fg_weight = _check_real(fg_weight, "fg_weight", minimum=0.0, strict=True)
    bg_weight = _check_real(bg_weight, "bg_weight", minimum=0.0, strict=True)
    wh, we, wc = _check_weights(weights)
    eps = _check_real(eps, "eps", minimum=0.0, strict=True)

    if pred_a.shape[:2] != (height, width):
        pred_a = np.asarray(Image.fromarray(pred_a).resize((width, height), Image.Resampling.BILINEAR))

    layout = _layout(height, width, n)
    scratch = _scratch()
    ncell = n * n
    fg = _foreground(truth_a, layout, delta, scratch).ravel()
    any_fg = bool(fg.any())

    # Grey-level terms (hash, edges, Laplacian): pred and truth stacked, one batch per cell size.
    gray = scratch.get("gray", (2, height, width))
    tmp = scratch.get("gray_tmp", (height, width))
    _gray_into(pred_a, gray[0], tmp)
    _gray_into(truth_a, gray[1], tmp)
    gray_flat = gray.reshape(2, height * width)
    sh = np.empty(ncell)
    se = np.empty(ncell)
    lap = np.zeros((2, ncell))
    for grp in layout.groups:
        p = scratch.get("cells", (2, *grp.flat.shape))
        np.take(gray_flat, grp.flat, axis=1, out=p, mode="clip")  # indices are in range
        p = p.reshape(2, grp.ids.size, *grp.flat.shape[-2:])
        bits = _hash_bits(p[..., 1:-1, 1:-1], 8, scratch)
        sh[grp.ids] = 1.0 - np.count_nonzero(bits[0] != bits[1], axis=(-2, -1)) / 64.0
        edges = _edge_maps(p, scratch)
        se[grp.ids] = _iou(edges[0], edges[1], eps, scratch)
        if any_fg:
            lap[:, grp.ids] = _laplacian_var(p, scratch)

    # Colour histograms of all cells of both images: one bincount over (image, cell, bin) codes.
    nb = 8**3
    codes = scratch.get("codes", (2, height, width), np.intp)
    ctmp = scratch.get("codes_tmp", (height, width), np.intp)
    for i, img in enumerate((pred_a, truth_a)):
        _color_codes_into(img, 8, codes[i], ctmp)
        np.multiply(layout.cell_id, nb, out=ctmp)
        ctmp += i * ncell * nb
        codes[i] += ctmp
    hist = np.bincount(codes.ravel(), minlength=2 * ncell * nb).reshape(2, ncell, nb).astype(np.float64)
    sc = _pearson(hist[0], hist[1])

    s = wh * sh + we * se + wc * sc
    matched = s >= tau
    raw = np.where(fg, fg_weight, bg_weight)
    r_str = float(raw[matched].sum() / raw.sum())  # all matched -> exactly 1.0

    if any_fg:
        phi_pred = float(lap[0, fg].mean())
        phi_truth = float(lap[1, fg].mean())
        r_qua = float(np.clip(phi_pred / (phi_truth + eps), 0.0, 1.0))
    else:
        phi_pred = phi_truth = 0.0
        r_qua = 1.0

    shape = (n, n)
    return VisualScore(
        r_v=r_str * r_qua,
        r_str=r_str,
        r_qua=r_qua,
        fg=_frozen(fg, shape),
        S=_frozen(s, shape),
        matched=_frozen(matched, shape),
        weights=_frozen(raw / raw.sum(), shape),
        s_hash=_frozen(sh, shape),
        s_edge=_frozen(se, shape),
        s_color=_frozen(sc, shape),
        phi_pred=phi_pred,
        phi_truth=phi_truth,
    )
