"""A predictions file for :func:`svot.metrics.evaluate`: its keys, and reading it without failing.

One JSON object per line (or an iterable of dicts from Python); the keys are
:data:`FIELDS` plus ``id``, with :data:`ALIASES` and the :data:`DEPRECATED`
names still read. Whatever a line gets wrong is an :class:`Issue`, never an
exception: :mod:`svot.metrics.evaluation` scores what remains.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from svot.errors import PredictionError
from svot.jsonl import iter_lines, loads
from svot.safe_paths import contained, open_image, read_image_file

FIELDS = ("choice", "answer", "z_texts", "cz_texts", "cv_texts", "images")
ALIASES = {
    "instance_id": "id",
    "letter": "choice",
    "free_response": "answer",
    "image_paths": "images",
}
#: Earlier key names: still read as the new key, with a note (issue 14: ``state_texts``
#: read like the data's ``state_text`` column, which is s_i, while the key wants z_i).
DEPRECATED = {
    "states": "z_texts",
    "state_texts": "z_texts",
    "reasoning": "cz_texts",
    "reasoning_texts": "cz_texts",
}


#: What each step key holds, for messages.
KEY_MEANINGS = {
    "z_texts": "z_i = the 'Action i: ...' line and the state, the data's z_text column",
    "cz_texts": "the state chain c_i^z, the data's reasoning column",
    "cv_texts": "the visualization chain c_i^v, the data's reasoning_visual column",
}


@dataclass(frozen=True)
class Issue:
    """One problem in a predictions file; ``line`` is 1-based (None for API input without lines)."""

    line: int | None
    kind: str  # json | not_object | missing_id | unknown_id | duplicate_id | type | image | length | unknown_field | wrong_kind
    message: str
    id: str | None = None
    step: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "record"
        if self.step is not None:
            where += f", step {self.step}"
        return f"{where}: {self.kind}: {self.message}"


def read_predictions(source) -> tuple[list[tuple[int, object]], list[Issue], Path | None]:
    """``([(line, record)], issues, base_dir)`` from a JSONL path or an iterable of dicts."""
    issues: list[Issue] = []
    records: list[tuple[int, object]] = []
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise PredictionError(f"no predictions file at {str(path)!r}")
        for lineno, text in iter_lines(path):
            if not text.strip():
                continue
            try:
                obj = loads(text)
            except ValueError as exc:
                issues.append(Issue(lineno, "json", f"not valid JSON ({str(exc)[:80]})"))
                continue
            records.append((lineno, obj))
        return records, issues, path.parent
    try:
        items = list(source)
    except TypeError:
        raise PredictionError(f"predictions must be a JSONL path or an iterable of dicts, got {type(source).__name__}") from None
    return [(i, obj) for i, obj in enumerate(items, 1)], issues, None


def load_image(src, root: Path | None, what: str = "image") -> np.ndarray:
    """An image as RGB: PNG bytes, or a path read only under ``root`` (see :mod:`svot.safe_paths`).

    Paths of the data were checked when the data was read (``root=None``).
    Raises :class:`~svot.errors.DatasetError` naming the file.
    """
    if isinstance(src, (bytes, bytearray)):
        im = open_image(bytes(src), what=what)
    else:
        path = contained(root, src, what=f"{what} path") if root is not None else Path(src)
        im = read_image_file(path, what=what)
    with im:
        return np.asarray(im.convert("RGB"))
