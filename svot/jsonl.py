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
from typing import Iterator


def iter_lines(path: str | os.PathLike) -> Iterator[tuple[int, str]]:
    """``(line number, text)`` of each line of a file, 1-based, split on ``"\\n"`` only.

    Bytes that are not UTF-8 become U+FFFD (the line then fails to parse as
    JSON, or parses with the replacement character, rather than aborting the
    whole file).
    """
    with open(path, "rb") as f:  # binary iteration splits on b"\n" and nothing else
        for number, raw in enumerate(f, 1):
            yield number, raw.decode("utf-8", errors="replace")


def split_lines(text: str) -> list[str]:
    """``text`` cut at ``"\\n"`` only (a final newline does not start an empty last line)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def loads(text: str):
    """``json.loads`` whose only error is ``ValueError`` (nesting too deep included)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply for the JSON parser") from None
