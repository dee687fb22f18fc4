"""JSON Lines in, the one way every svot reader splits and decodes them.

JSON Lines records are separated by ``"\\n"`` only. ``str.splitlines`` (and
text-mode iteration with universal newlines) also breaks on ``"\\r"``,
``"\\x0b"``, ``"\\x1c"``-``"\\x1e"``, ``"\\x85"``, U+2028 and U+2029, which
``json.dumps(..., ensure_ascii=False)`` writes raw inside strings; splitting
there cuts valid records in pieces and shifts every later line number. So
:func:`iter_lines` reads bytes and splits on ``b"\\n"`` alone (a trailing
``"\\r"`` of a CRLF file is whitespace to JSON), and :func:`loads` turns the
``RecursionError`` of a deeply nested line into a ``ValueError`` naming it.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Iterator

from svot.errors import DatasetError, SvotError
from svot.safe_paths import open_regular, read_text

#: Nesting deeper than this is refused before Python's recursive parser sees it.
MAX_JSON_DEPTH = 512
#: The largest JSON file :func:`read_json_file` reads by default (bytes).
MAX_JSON_BYTES = 1 << 30
_BRACKETS_AND_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def iter_lines(path: str | os.PathLike) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each line of a file, 1-based, split on ``"\\n"`` only.

    Only a regular file is read (a FIFO or device is refused without blocking:
    :func:`svot.safe_paths.open_regular`). Bytes that are not UTF-8 become U+FFFD (the line then fails to parse as
    JSON, or parses with the replacement character, rather than aborting the
    whole file).
    """
    with open_regular(path) as f:  # binary iteration splits on b"\n" and nothing else
        for number, raw in enumerate(f, 1):
            yield number, raw.decode("utf-8", errors="replace")


def split_lines(text: str) -> list[str]:
    """``text`` cut at ``"\\n"`` only (a final newline does not start an empty last line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _too_deep(text: str) -> int | None:
    """Where ``text`` first nests deeper than :data:`MAX_JSON_DEPTH` (brackets inside strings do not count)."""
    depth = 0
    for m in _BRACKETS_AND_STRINGS.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return m.start()
        elif c in "]}":
            depth -= 1
    return None


def loads(text: str | bytes) -> Any:
    """``json.loads`` whose only error is :class:`json.JSONDecodeError` (a ``ValueError``).

    Nesting deeper than :data:`MAX_JSON_DEPTH` is such an error at the first
    bracket too deep, never a ``RecursionError``; a leading byte-order mark is dropped.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8-sig")
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text)
    except RecursionError:
        pos = _too_deep(text)
        raise json.JSONDecodeError(f"nested too deeply (more than {MAX_JSON_DEPTH} levels)", text, pos or 0) from None


def read_json_file(path: str | os.PathLike, *, what: str = "a JSON file", error: type[SvotError] = DatasetError,
                   max_bytes: int = MAX_JSON_BYTES) -> Any:
    """The JSON document in a regular file of at most ``max_bytes``, UTF-8 (a byte-order mark dropped).

    Raises ``error`` naming the file, and for a decode error its line and column.
    """
    name = os.fspath(path)
    text = read_text(name, max_bytes=max_bytes, what=what, error=error)
    try:
        return loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{name}: cannot read {what}: invalid JSON at line {exc.lineno} column {exc.colno}: "
                    f"{exc.msg}") from None
