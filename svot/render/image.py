"""Images of states, composed from the cached tile atlas with numpy.

``render_state(spec, state)`` computes the label of every cell and copies the
matching tile of the atlas into place; ``render_labels`` takes the label ids
directly (the fast path for batches and vector environments). Both return
``(H, W, 3)`` (or ``(B, H, W, 3)``) uint8 arrays and give identical pixels for
the same state.
"""

from __future__ import annotations

import numpy as np

from svot.atomic import atomic_write_bytes
from svot.errors import ConfigError, ProblemError
from svot.render.atlas import cell_bounds, get_atlas
from svot.render.png import encode_png

__all__ = ["cell_bounds", "render_labels", "render_state", "render_states", "save_png"]


def _state_size(spec, state: dict) -> int:
    try:
        n = state["size"]
    except (KeyError, TypeError):
        raise ProblemError(f"a {spec.name} state must be a dict with a 'size' key, got {type(state).__name__}") from None
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ProblemError(f"{spec.name} state has an invalid size {n!r}")
    return int(n)


def render_state(spec, state: dict, image_size=256) -> np.ndarray:
    """The ``(H, W, 3)`` uint8 image of ``state`` (``image_size``: int or ``(H, W)``)."""
    atlas = get_atlas(spec, _state_size(spec, state), image_size)
    return atlas.render_ids(atlas.ids_for_state(state))


def render_states(spec, states, image_size=256) -> np.ndarray:
    """``(B, H, W, 3)`` images of equally sized states."""
    states = list(states)
    if not states:
        raise ProblemError("render_states needs at least one state")
    n = _state_size(spec, states[0])
    atlas = get_atlas(spec, n, image_size)
    ids = []
    for s in states:
        if _state_size(spec, s) != n:
            raise ProblemError(f"render_states: all states must have size {n}, got {s['size']}")
        ids.append(atlas.ids_for_state(s))
    return atlas.render_batch(np.asarray(ids, np.intp))


def render_labels(spec, label_ids, image_size=256, out: np.ndarray | None = None) -> np.ndarray:
    """Images from label ids: ``(n, n)`` -> ``(H, W, 3)``, ``(B, n, n)`` -> ``(B, H, W, 3)``.

    Ids index :func:`~svot.render.labels.label_vocabulary` ``(spec, n)``. ``out``
    (optional) is a C-contiguous uint8 array of the result's shape to write into.
    """
    ids = np.asarray(label_ids)
    if ids.ndim not in (2, 3) or ids.shape[-1] != ids.shape[-2] or ids.dtype.kind not in "iu":
        raise ConfigError(f"label_ids must be an integer array of shape (n, n) or (B, n, n), got {ids.dtype} {ids.shape}")
    n = ids.shape[-1]
    atlas = get_atlas(spec, n, image_size)
    v = atlas.vocab_size
    if ids.size and (ids.min() < 0 or ids.max() >= v):
        raise ConfigError(f"label ids must lie in 0..{v - 1} for {spec.name} {n}x{n}, got {int(ids.min())}..{int(ids.max())}")
    if out is not None:
        want = ids.shape[:-2] + (atlas.height, atlas.width, 3)
        if out.shape != want or out.dtype != np.uint8:
            raise ConfigError(f"out must be a uint8 array of shape {want}, got {out.dtype} {out.shape}")
    if ids.ndim == 2:
        return atlas.render_ids(ids.ravel().tolist(), out)
    return atlas.render_batch(ids.reshape(ids.shape[0], n * n).astype(np.intp, copy=False), out)


def save_png(path, image: np.ndarray) -> None:
    """Write an ``(H, W, 3)`` uint8 image as PNG: svot's encoder (the same bytes whatever Pillow is
    installed), written atomically (:func:`svot.atomic.atomic_write_bytes`)."""
    atomic_write_bytes(path, encode_png(np.asarray(image, np.uint8)))
