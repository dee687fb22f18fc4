"""A predictions file for :func:`svot.metrics.evaluate`: its keys, and reading it without failing.

One JSON object per line (or an iterable of dicts from Python), read by
:func:`read_prediction_lines`, the one reader of predictions files in svot; the keys are
:data:`FIELDS` plus ``id``, with :data:`ALIASES` and the :data:`DEPRECATED`
names still read. Whatever a line gets wrong is an :class:`Issue`, never an
exception: :mod:`svot.metrics.evaluation` scores what remains.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from svot.errors import DatasetError, PredictionError
from svot.jsonl import loads, split_lines
from svot.safe_paths import contained, open_image, read_image_file, read_regular

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


#: Largest predictions file read (a FIFO or device is refused, never waited on; docs/reliability.md).
MAX_PREDICTIONS_BYTES = 2 * 1024**3
BOM = "\ufeff"


@dataclass(frozen=True)
class PredictionLines:
    """A JSON Lines predictions file as records: what every svot reader of predictions starts from.

    ``records``: ``(line, position, value)`` per line that is JSON (any value: the caller says
    which it accepts); ``issues``: the lines that are not JSON; ``lines``: how many lines are not
    blank. ``position`` is the 0-based index among the non-blank lines, bad ones included, so that
    lines without ids (LLaMA-Factory's ``generated_predictions.jsonl``) are matched to items by
    where they stand even when a line before them is cut short.
    """

    records: list
    issues: list
    lines: int


def read_prediction_lines(path: str | os.PathLike) -> PredictionLines:
    """Read a predictions file, the one way ``svot evaluate``, ``svot rulemaze evaluate`` and
    ``svot gallery --predictions`` do.

    Lines are split on ``"\n"`` only (:mod:`svot.jsonl`); a UTF-8 byte-order mark at the start
    of the file is skipped (Windows editors write one; the first record would be lost); a line
    that is not JSON, nested too deeply included, is an :class:`Issue` of kind ``json``, never an
    exception. Raises :class:`~svot.errors.PredictionError` when the file cannot be read (missing,
    not a regular file, too large).
    """
    try:
        data = read_regular(path, max_bytes=MAX_PREDICTIONS_BYTES, what="predictions file")
    except DatasetError as exc:
        raise PredictionError(str(exc)) from None
    text = data.decode("utf-8", errors="replace")  # a bad byte spoils its line, not the file
    if text.startswith(BOM):
        text = text[len(BOM):]
    records, issues, position = [], [], 0
    for number, line in enumerate(split_lines(text), 1):
        if not line.strip():
            continue
        try:
            records.append((number, position, loads(line)))
        except ValueError as exc:
            issues.append(Issue(number, "json", f"not valid JSON ({str(exc)[:80]})"))
        position += 1
    return PredictionLines(records, issues, position)


def read_predictions(source) -> tuple[list[tuple[int, object]], list[Issue], Path | None]:
    """``([(line, record)], issues, base_dir)`` from a JSONL path (:func:`read_prediction_lines`)
    or an iterable of dicts."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise PredictionError(f"no predictions file at {str(path)!r}")
        read = read_prediction_lines(path)
        return [(number, obj) for number, _, obj in read.records], list(read.issues), path.parent
    try:
        items = list(source)
    except TypeError:
        raise PredictionError(f"predictions must be a JSONL path or an iterable of dicts, got {type(source).__name__}") from None
    return [(i, obj) for i, obj in enumerate(items, 1)], [], None


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
