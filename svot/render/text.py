"""State descriptions: ``describe(spec, state) -> str`` and back, driven by ``spec.fields``.

Format (one line each)::

    <Title>, 5x5 grid.
    Player: (0, 0)
    Blocks: (1, 1), (2, 2)
    Goals: (2, 4), (3, 1)
    Walls: none

Values by field kind: ``cell`` ``(r, c)``; ``cells`` ``(r, c), (r, c)`` or
``none``; ``int`` ``3``; ``word`` ``running``; ``colour_cells``
``red (0, 1), (2, 3); green none``; ``colour_counts`` ``red 1, green 0``.

:func:`parse` is strict (``parse(spec, describe(spec, s)) == s`` and anything
else malformed raises :class:`StateTextError`, a
:class:`~svot.errors.ParseError` naming the line and field);
:func:`parse_fields` is lenient, for model output: it returns whatever fields
it can read and never raises.

Every key of a state dict besides ``domain`` and ``size`` is one of the
spec's fields, so the round trip is exact.
"""

from __future__ import annotations

import re
from functools import lru_cache

from svot.kernel.spec import Field
from svot.errors import ParseError, ProblemError
from svot.numbers import is_ascii_digits

__all__ = ["StateTextError", "describe", "describe_value", "parse", "parse_fields", "text_fields"]

KINDS = ("cell", "cells", "int", "word", "colour_cells", "colour_counts")
_MAX_DIGITS = 9  # lenient reader ignores longer numbers (no huge ints from garbage)


class StateTextError(ParseError):
    """A state description that :func:`parse` cannot read; names the line and the field."""

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None):
        where = []
        if line is not None:
            where.append(f"line {line}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__((", ".join(where) + ": " if where else "") + message)
        self.line = line
        self.field = field


def text_fields(spec) -> tuple[Field, ...]:
    """The fields written by :func:`describe`, in order."""
    return tuple(spec.fields)


# --------------------------------------------------------------------------- describe


def _cell(c) -> str:
    return f"({int(c[0])}, {int(c[1])})"


def _cells(cs) -> str:
    return ", ".join(_cell(c) for c in cs) if len(cs) else "none"


def describe_value(kind: str, value) -> str:
    """The text of one field value."""
    if kind == "cell":
        return _cell(value)
    if kind == "cells":
        return _cells(value)
    if kind == "int":
        return str(int(value))
    if kind == "word":
        return str(value)
    if kind == "colour_cells":
        return "; ".join(f"{col} {_cells(cs)}" for col, cs in value.items()) if value else "none"
    if kind == "colour_counts":
        return ", ".join(f"{col} {int(k)}" for col, k in value.items()) if value else "none"
    raise ParseError(f"unknown field kind {kind!r}; expected one of {', '.join(KINDS)}")


def describe(spec, state: dict) -> str:
    """The state description: a title line, then ``Label: value`` per field."""
    try:
        n = state["size"]
    except (KeyError, TypeError):
        raise ProblemError(f"a {spec.name} state must be a dict with a 'size' key") from None
    lines = [f"{spec.title}, {n}x{n} grid."]
    for f in text_fields(spec):
        if f.key not in state:
            raise ProblemError(f"{spec.name} state has no {f.key!r} (field {f.label!r})")
        lines.append(f"{f.label}: {describe_value(f.kind, state[f.key])}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- strict parse

_TITLE = re.compile(r"^(?P<title>.+?),\s*(?P<n>[0-9]+)\s*x\s*(?P<m>[0-9]+)\s+grid\.?$", re.IGNORECASE)
_FIELD_LINE = re.compile(r"^(?P<label>[^:]+?)\s*:\s*(?P<value>.*)$")
_CELL_STRICT = re.compile(r"^\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)$")
_CELL_ANY = re.compile(r"\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)")
_WORD_STRICT = re.compile(r"^[a-z][a-z0-9_]*$", re.IGNORECASE)
_COLOUR_ITEM = re.compile(r"^(?P<colour>[a-z][a-z0-9_]*)\s+(?P<rest>.+)$", re.IGNORECASE)
_COUNT_ITEM = re.compile(r"^(?P<colour>[a-z][a-z0-9_]*)\s+(?P<k>[0-9]+)$", re.IGNORECASE)


def _strict_cell(text: str, n: int, line: int, label: str) -> list[int]:
    m = _CELL_STRICT.match(text.strip())
    if not m or len(m.group(1)) > _MAX_DIGITS or len(m.group(2)) > _MAX_DIGITS:
        raise StateTextError(f"expected a cell '(row, col)', got {text.strip()!r}", line=line, field=label)
    r, c = int(m.group(1)), int(m.group(2))
    if not (r < n and c < n):
        raise StateTextError(f"cell ({r}, {c}) is outside the {n}x{n} grid", line=line, field=label)
    return [r, c]


def _strict_cells(text: str, n: int, line: int, label: str) -> list[list[int]]:
    t = text.strip()
    if t.lower() == "none":
        return []
    parts = [p for p in re.split(r"(?<=\))\s*,\s*", t)]
    out = [_strict_cell(p, n, line, label) for p in parts]
    if len({tuple(c) for c in out}) != len(out):
        raise StateTextError(f"a cell is listed twice in {t!r}", line=line, field=label)
    return sorted(out)


def _strict_int(text: str, line: int, label: str) -> int:
    t = text.strip()
    if not is_ascii_digits(t) or len(t) > _MAX_DIGITS:
        raise StateTextError(f"expected a non-negative integer, got {t!r}", line=line, field=label)
    return int(t)


def _strict_word(text: str, line: int, label: str) -> str:
    t = text.strip()
    if not _WORD_STRICT.match(t):
        raise StateTextError(f"expected one word, got {t!r}", line=line, field=label)
    return t.lower()


def _strict_colour_cells(text: str, n: int, line: int, label: str) -> dict:
    t = text.strip()
    if t.lower() == "none":
        return {}
    out: dict = {}
    for item in t.split(";"):
        m = _COLOUR_ITEM.match(item.strip())
        if not m:
            raise StateTextError(f"expected '<colour> (r, c), ...' or '<colour> none', got {item.strip()!r}", line=line, field=label)
        col = m.group("colour").lower()
        if col in out:
            raise StateTextError(f"colour {col!r} is listed twice", line=line, field=label)
        out[col] = _strict_cells(m.group("rest"), n, line, label)
    seen: set = set()
    for cs in out.values():
        for c in cs:
            if tuple(c) in seen:
                raise StateTextError(f"cell {_cell(c)} holds two balls", line=line, field=label)
            seen.add(tuple(c))
    return out


def _strict_colour_counts(text: str, line: int, label: str) -> dict:
    t = text.strip()
    if t.lower() == "none":
        return {}
    out: dict = {}
    for item in t.split(","):
        m = _COUNT_ITEM.match(item.strip())
        if not m or len(m.group("k")) > _MAX_DIGITS:
            raise StateTextError(f"expected '<colour> <count>', got {item.strip()!r}", line=line, field=label)
        col = m.group("colour").lower()
        if col in out:
            raise StateTextError(f"colour {col!r} is listed twice", line=line, field=label)
        out[col] = int(m.group("k"))
    return out


def _strict_value(f: Field, text: str, n: int, line: int):
    if f.kind == "cell":
        return _strict_cell(text, n, line, f.label)
    if f.kind == "cells":
        return _strict_cells(text, n, line, f.label)
    if f.kind == "int":
        return _strict_int(text, line, f.label)
    if f.kind == "word":
        return _strict_word(text, line, f.label)
    if f.kind == "colour_cells":
        return _strict_colour_cells(text, n, line, f.label)
    if f.kind == "colour_counts":
        return _strict_colour_counts(text, line, f.label)
    raise StateTextError(f"unknown field kind {f.kind!r}", line=line, field=f.label)


def parse(spec, text: str) -> dict:
    """Read a description written by :func:`describe` back into the state dict.

    Lines may come in any order and blank lines are ignored; labels are
    case-insensitive. Raises :class:`StateTextError` (a ``ProblemError``) naming
    the line and field for a wrong title, an unknown, repeated or missing field,
    a malformed value or a cell outside the grid.
    """
    if not isinstance(text, str):
        raise StateTextError(f"expected a description string, got {type(text).__name__}")
    lines = [(i + 1, ln.strip()) for i, ln in enumerate(text.splitlines()) if ln.strip()]
    if not lines:
        raise StateTextError("the description is empty", line=1)
    lineno, first = lines[0]
    m = _TITLE.match(first)
    if not m:
        raise StateTextError(f"expected a title like '{spec.title}, 5x5 grid.', got {first!r}", line=lineno)
    if m.group("title").strip().lower() != spec.title.lower():
        raise StateTextError(f"this is a {spec.title} description, but the title says {m.group('title').strip()!r}", line=lineno)
    if len(m.group("n")) > 4 or m.group("n") != m.group("m") or int(m.group("n")) < 1:
        raise StateTextError(f"expected a square grid size such as 5x5, got {m.group('n')}x{m.group('m')}", line=lineno)
    n = int(m.group("n"))
    fields = text_fields(spec)
    by_label = {f.label.lower(): f for f in fields}
    values: dict = {}
    for lineno, ln in lines[1:]:
        fm = _FIELD_LINE.match(ln)
        if not fm:
            raise StateTextError(f"expected '<Field>: <value>', got {ln!r}", line=lineno)
        label = fm.group("label").strip()
        f = by_label.get(label.lower())
        if f is None:
            raise StateTextError(
                f"unknown field for {spec.title}; expected one of {', '.join(x.label for x in fields)}", line=lineno, field=label
            )
        if f.key in values:
            raise StateTextError("the field appears twice", line=lineno, field=f.label)
        values[f.key] = _strict_value(f, fm.group("value"), n, lineno)
    missing = [f.label for f in fields if f.key not in values]
    if missing:
        raise StateTextError(f"missing field(s): {', '.join(missing)}", line=lines[-1][0] + 1, field=missing[0])
    out = {"domain": spec.name, "size": n}
    out.update((f.key, values[f.key]) for f in fields)
    return out


# --------------------------------------------------------------------------- lenient parse

_CELL_LENIENT = re.compile(r"[\(\[]\s*([0-9]{1,9})\s*(?:[,;]\s*)?([0-9]{1,9})\s*[\)\]]")
_INT_LENIENT = re.compile(r"(?<![0-9])([0-9]{1,9})(?![0-9])")
_WORD_LENIENT = re.compile(r"[a-z][a-z0-9_]*", re.IGNORECASE)
_NONE_WORDS = re.compile(r"(?:\b(?:none|empty|nothing|no)\b|n/a|\[\s*\])", re.IGNORECASE)
_TOKENS = re.compile(
    r"[\(\[]\s*([0-9]{1,9})\s*(?:[,;]\s*)?([0-9]{1,9})\s*[\)\]]|([a-z][a-z0-9_]*)|(?<![0-9])([0-9]{1,9})(?![0-9])", re.IGNORECASE
)
_STOP = frozenset({"none", "and", "no", "empty", "balls", "ball", "at", "cells", "cell", "nothing", "is", "are", "remaining"})
_TITLE_LENIENT = re.compile(r"([0-9]{1,4})\s*[x×]\s*([0-9]{1,4})\s+grid", re.IGNORECASE)


@lru_cache(maxsize=64)
def _label_pattern(fields: tuple) -> re.Pattern:
    alts = []
    for f in fields:
        for name in {f.label, f.key, f.key.replace("_", " ")}:
            alts.append(re.escape(name).replace(r"\ ", r"\s+"))
    alts = sorted(set(alts), key=lambda a: (-len(a), a))
    return re.compile(r"(?<![a-z0-9_])(" + "|".join(alts) + r")\s*(?:\*+\s*)?[:=]", re.IGNORECASE)


def _allowed_words(spec, key: str) -> frozenset:
    """Known values of a word field, if the spec lists them (:attr:`DomainSpec.word_values`)."""
    return frozenset(x.lower() for x in spec.word_values.get(key, ()))


def _lenient_value(kind: str, text: str, allowed: frozenset = frozenset()):
    """The value of one field from free text, or ``None`` when none can be read."""
    if kind == "cell":
        m = _CELL_LENIENT.search(text)
        return [int(m.group(1)), int(m.group(2))] if m else None
    if kind == "cells":
        cs = sorted({(int(a), int(b)) for a, b in _CELL_LENIENT.findall(text)})
        if cs:
            return [list(c) for c in cs]
        return [] if _NONE_WORDS.search(text) else None
    if kind == "int":
        m = _INT_LENIENT.search(text)
        return int(m.group(1)) if m else None
    if kind == "word":
        words = [w.lower() for w in _WORD_LENIENT.findall(text)]
        if allowed:
            for w in words:
                if w in allowed:
                    return w
        return words[0] if words else None
    if kind == "colour_cells":
        out: dict = {}
        current = None
        for m in _TOKENS.finditer(text):
            if m.group(3) is not None:
                w = m.group(3).lower()
                if w not in _STOP:
                    current = w
                    out.setdefault(current, set())
            elif m.group(1) is not None and current is not None:
                out[current].add((int(m.group(1)), int(m.group(2))))
        if not out:
            return {} if _NONE_WORDS.search(text) else None
        return {k: [list(c) for c in sorted(v)] for k, v in out.items()}
    if kind == "colour_counts":
        out2: dict = {}
        current = None
        for m in _TOKENS.finditer(text):
            if m.group(3) is not None:
                w = m.group(3).lower()
                current = None if w in _STOP else w
            elif m.group(4) is not None and current is not None:
                out2[current] = int(m.group(4))
                current = None
        if not out2:
            return {} if _NONE_WORDS.search(text) else None
        return out2
    return None


def parse_fields(spec, text) -> dict:
    """Whatever fields can be read from ``text`` (e.g. model output); never raises.

    Looks for ``<Label>:`` (or ``<key>:``/``=``, any case, also inside a line) and
    reads the value up to the next label or the end of the line; a field given
    several times keeps its last readable value. Adds ``"size"`` (and
    ``"domain"`` when the title names this domain) if a ``<N>x<N> grid`` title is
    present. Coordinates are not range-checked; cell lists come back sorted.
    """
    try:
        return _parse_fields(spec, text)
    except Exception:  # defensive: the contract is "never raises"
        return {}


def _parse_fields(spec, text) -> dict:
    if not isinstance(text, str):
        return {}
    fields = text_fields(spec)
    by_name = {}
    for f in fields:
        for name in (f.label, f.key, f.key.replace("_", " ")):
            by_name[" ".join(name.lower().split())] = f
    pat = _label_pattern(fields)
    out: dict = {}
    for raw in text.splitlines():
        matches = list(pat.finditer(raw))
        for i, m in enumerate(matches):
            end = matches[i + 1].start() if i + 1 < len(matches) else len(raw)
            f = by_name.get(" ".join(m.group(1).lower().split()))
            if f is None:
                continue
            v = _lenient_value(f.kind, raw[m.end() : end], _allowed_words(spec, f.key) if f.kind == "word" else frozenset())
            if v is not None:
                out[f.key] = v
    t = _TITLE_LENIENT.search(text)
    if t and t.group(1) == t.group(2):
        out["size"] = int(t.group(1))
        head = text[: t.start()].lower()
        if spec.title.lower() in head[-len(spec.title) - 8 :]:
            out["domain"] = spec.name
    return out
