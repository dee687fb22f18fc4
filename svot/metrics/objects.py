"""Object-level correctness of generated images (SVoT Table 7): FGAcc, BkgErr, FullAcc.

Each cell of a predicted image is classified against the renderer's sprites
(:class:`svot.render.perceive.Perceiver`: nearest tile template per cell, on
the same cell split as the renderer and :mod:`svot.metrics.visual`) and
compared with the ground truth's cell labels (the dataset's ``labels`` grid,
or :func:`svot.render.labels.label_grid` of the state):

* **foreground** cells are those whose true label is not ``"empty"`` (player,
  walls, blocks, goals, coins, balls, holes, start... and their combinations);
* **Foreground Cell Accuracy** = foreground cells predicted with exactly the
  true label / foreground cells;
* **Background Error Rate** = background cells predicted as anything but
  ``"empty"`` / background cells;
* **Full Visualization Accuracy** = images with every foreground cell right and
  no background error / images.

Over a set of images, FGAcc and BkgErr pool the cells of all images (micro
average) and FullAcc averages over images (:class:`ObjectTotals`). A
prediction whose size differs from ``image_size`` is first resized to it with
Pillow's bilinear filter, as :func:`svot.metrics.visual.visual_reward` does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

import numpy as np
from PIL import Image

from svot.metrics.errors import MetricError
from svot.metrics.state import _spec
from svot.metrics.visual import _as_rgb
from svot.render.perceive import get_perceiver
from svot.render.labels import label_grid

__all__ = ["EMPTY", "ObjectScore", "ObjectTotals", "object_metrics", "read_cells"]

EMPTY = "empty"


def _image_hw(image_size) -> tuple[int, int]:
    if isinstance(image_size, (tuple, list)) and len(image_size) == 2:
        h, w = image_size
    else:
        h = w = image_size
    if any(isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1 for x in (h, w)):
        raise MetricError(f"image_size must be a positive int or a (height, width) pair, got {image_size!r}")
    return int(h), int(w)


def _resized(arr: np.ndarray, hw: tuple[int, int]) -> np.ndarray:
    if arr.shape[:2] == hw:
        return arr
    return np.asarray(Image.fromarray(arr).resize((hw[1], hw[0]), Image.Resampling.BILINEAR))


def read_cells(pred, domain, n: int, *, image_size=256) -> list[list[str]]:
    """The label of every cell of ``pred`` (resized to ``image_size`` first) by nearest sprite."""
    spec = _spec(domain)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise MetricError(f"the grid size must be a positive int, got {n!r}")
    hw = _image_hw(image_size)
    if n > min(hw):
        raise MetricError(f"a {n}x{n} grid does not fit a {hw[0]}x{hw[1]} image")
    arr = _resized(_as_rgb(pred, "pred"), hw)
    return get_perceiver(spec, int(n), hw).read(arr)


def _truth_labels(spec, truth) -> list[list[str]]:
    if isinstance(truth, Mapping):
        try:
            return label_grid(spec, dict(truth))
        except Exception as exc:  # noqa: BLE001 - a malformed state
            raise MetricError(f"cannot read the ground-truth {spec.name} state: {exc}") from None
    try:
        grid = [list(row) for row in truth]
    except TypeError:
        raise MetricError(f"truth must be a label grid (list of rows of labels) or a state dict, got {type(truth).__name__}") from None
    n = len(grid)
    if n < 1 or any(len(row) != n for row in grid) or not all(isinstance(x, str) for row in grid for x in row):
        raise MetricError("the ground-truth label grid must be a square list of rows of label strings")
    return grid


@dataclass(frozen=True)
class ObjectScore:
    """Object-level comparison of one predicted image with its ground truth (see the module docstring)."""

    fg_cells: int
    fg_correct: int
    bg_cells: int
    bg_errors: int
    predicted: list = field(default_factory=list)  # labels read from the prediction
    truth: list = field(default_factory=list)

    @property
    def fg_accuracy(self) -> float:
        """Foreground cells right / foreground cells (1.0 when there is no foreground)."""
        return self.fg_correct / self.fg_cells if self.fg_cells else 1.0

    @property
    def bg_error_rate(self) -> float:
        """Background cells read as an object / background cells (0.0 when there is no background)."""
        return self.bg_errors / self.bg_cells if self.bg_cells else 0.0

    @property
    def full(self) -> bool:
        """Every foreground cell right and no background error."""
        return self.fg_correct == self.fg_cells and self.bg_errors == 0


def object_metrics(pred, truth, domain, *, image_size=256) -> ObjectScore:
    """FGAcc / BkgErr / Full of one predicted image.

    Args:
        pred: the predicted image (PIL image or uint8 array); resized to ``image_size`` if needed.
        truth: the ground truth's label grid (``labels`` column: rows of label
            strings) or its state dict.
        domain: the domain name.
        image_size: the ground-truth image size (int or ``(height, width)``).
    """
    spec = _spec(domain)
    grid = _truth_labels(spec, truth)
    n = len(grid)
    got = read_cells(pred, spec.name, n, image_size=image_size)
    t = np.array(grid, dtype=object)
    p = np.array(got, dtype=object)
    fg = t != EMPTY
    return ObjectScore(
        fg_cells=int(fg.sum()),
        fg_correct=int((fg & (p == t)).sum()),
        bg_cells=int((~fg).sum()),
        bg_errors=int((~fg & (p != EMPTY)).sum()),
        predicted=got,
        truth=grid,
    )


@dataclass
class ObjectTotals:
    """Accumulates :class:`ObjectScore` over images: pooled FGAcc / BkgErr, per-image FullAcc."""

    images: int = 0
    full: int = 0
    fg_cells: int = 0
    fg_correct: int = 0
    bg_cells: int = 0
    bg_errors: int = 0

    def add(self, s: ObjectScore) -> None:
        self.images += 1
        self.full += int(s.full)
        self.fg_cells += s.fg_cells
        self.fg_correct += s.fg_correct
        self.bg_cells += s.bg_cells
        self.bg_errors += s.bg_errors

    def merge(self, other: "ObjectTotals") -> None:
        for k in ("images", "full", "fg_cells", "fg_correct", "bg_cells", "bg_errors"):
            setattr(self, k, getattr(self, k) + getattr(other, k))

    @property
    def fg_accuracy(self) -> float | None:
        return self.fg_correct / self.fg_cells if self.fg_cells else None

    @property
    def bg_error_rate(self) -> float | None:
        return self.bg_errors / self.bg_cells if self.bg_cells else None

    @property
    def full_accuracy(self) -> float | None:
        return self.full / self.images if self.images else None
