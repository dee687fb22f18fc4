"""Small, total helpers shared by the text metrics: completions, cells, actions.

Everything here accepts any Python object and never raises on it; a value that
cannot be read comes back as ``None`` (or ``""`` for text).
"""

from __future__ import annotations

import re

DIRECTIONS = ("up", "down", "left", "right")

#: ``(r, c)`` or ``[r, c]`` (also ``(r c)`` / ``(r; c)``), at most 9 digits per coordinate.
CELL = r"[\(\[]\s*([0-9]{1,9})\s*(?:[,;]\s*)?([0-9]{1,9})\s*[\)\]]"
CELL_RE = re.compile(CELL)
_WORD_RE = re.compile(r"[a-z]+")
_INT_RE = re.compile(r"(?<![0-9])([0-9]{1,9})(?![0-9])")
_ORDINAL = re.compile(r"^\s*(?:step\s*)?[0-9]{1,9}\s*[.:)\-]\s*", re.IGNORECASE)


def completion_text(completion) -> str:
    """The text of one completion in TRL's conventions; ``""`` when there is none.

    * a string: itself;
    * a chat message ``{"role": ..., "content": ...}``: its content;
    * a list of messages (conversational completions): the contents of the
      assistant messages joined by newlines (all messages when none has
      ``role == "assistant"``);
    * content given as a list of parts (``[{"type": "text", "text": ...},
      {"type": "image", ...}]``): the text parts joined by newlines.
    """
    try:
        return _completion_text(completion, 0)
    except Exception:  # noqa: BLE001 - contract: never raises
        return ""


def _content_text(content, depth: int) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        if isinstance(content.get("text"), str):
            return content["text"]
        if "content" in content:
            return _content_text(content["content"], depth + 1) if depth < 8 else ""
        return ""
    if isinstance(content, (list, tuple)) and depth < 8:
        return "\n".join(t for t in (_content_text(p, depth + 1) for p in content) if t)
    return ""


def _completion_text(completion, depth: int) -> str:
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _content_text(completion.get("content", completion), depth + 1)
    if isinstance(completion, (list, tuple)):
        msgs = [m for m in completion if isinstance(m, dict)]
        if msgs and len(msgs) == len(completion):
            chosen = [m for m in msgs if m.get("role") == "assistant"] or msgs
            return "\n".join(t for t in (_content_text(m.get("content", ""), depth + 1) for m in chosen) if t)
        return _content_text(completion, depth + 1)
    return ""


def as_text(value) -> str:
    """``value`` if it is a string, else ``""``."""
    return value if isinstance(value, str) else ""


def cell_of(text: str):
    """The first ``(r, c)`` in ``text`` as a tuple, or None."""
    m = CELL_RE.search(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


def fmt_cell(cell) -> str:
    return f"({int(cell[0])}, {int(cell[1])})"


def norm_words(text: str) -> str:
    """Lower case, cells rewritten as ``(r, c)``, whitespace collapsed, outer punctuation stripped."""
    t = CELL_RE.sub(lambda m: f"({int(m.group(1))}, {int(m.group(2))})", text)
    return " ".join(t.lower().split()).strip(" .,;:!\"'`*")


def normalize_action(text) -> str | None:
    """A canonical action text: ``move <direction>`` or ``move <direction> <k>``; None if unreadable.

    The first direction word (up/down/left/right) is the direction; a number
    anywhere in the text (after a leading step ordinal such as ``3.`` is
    dropped) is the distance ``k``. The text is otherwise free: ``"up"``,
    ``"Move UP"``, ``"move down 3 steps"``, ``"down by 3"`` all read.
    Domains whose action texts take no distance (most of them) expect none, so
    ``"move up 2"`` does not equal ``"move up"`` there.
    """
    if not isinstance(text, str):
        return None
    t = _ORDINAL.sub("", text.lower(), count=1)
    direction = next((w for w in _WORD_RE.findall(t) if w in DIRECTIONS), None)
    if direction is None:
        return None
    m = _INT_RE.search(t)
    return f"move {direction} {int(m.group(1))}" if m else f"move {direction}"


__all__ = [
    "CELL",
    "CELL_RE",
    "DIRECTIONS",
    "as_text",
    "cell_of",
    "completion_text",
    "fmt_cell",
    "norm_words",
    "normalize_action",
]
