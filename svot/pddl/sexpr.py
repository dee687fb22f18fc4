"""A small s-expression reader for PDDL text that remembers line numbers.

PDDLGym's parser reports problems as bare assertions; svot reads the text here
first so that a malformed file is refused with its name and the line at fault.
"""

from __future__ import annotations

from dataclasses import dataclass

from svot.errors import PDDLError


@dataclass(frozen=True)
class Sym:
    """A symbol with the line it came from."""

    text: str
    line: int


@dataclass
class SList:
    """A parenthesised list with the line of its opening parenthesis."""

    items: list
    line: int

    def head(self) -> str | None:
        return self.items[0].text if self.items and isinstance(self.items[0], Sym) else None


def strip_comment(line: str) -> str:
    cut = line.find(";")
    return line if cut < 0 else line[:cut]


def read(text: str, source: str = "<pddl>") -> SList:
    """Read exactly one top-level list from ``text`` (comments removed, lower-cased)."""
    stack: list[SList] = []
    top: SList | None = None
    lines = text.splitlines()
    shape = _shape(lines)
    for lineno, raw in enumerate(lines, start=1):
        line = strip_comment(raw).lower().replace("(", " ( ").replace(")", " ) ")
        for token in line.split():
            if token == "(":
                stack.append(SList([], lineno))
            elif token == ")":
                if not stack:
                    raise PDDLError("unbalanced ')' with no matching '('" + _closer_hint(shape, lineno), source=source,
                                    line=lineno)
                done = stack.pop()
                if stack:
                    stack[-1].items.append(done)
                elif top is None:
                    top = done
                else:
                    raise PDDLError("text after the closing ')' of the definition" + _closer_hint(shape, lineno),
                                    source=source, line=lineno)
            else:
                if not stack:
                    raise PDDLError(f"unexpected {token!r} outside any '(...)'" + _closer_hint(shape, lineno),
                                    source=source, line=lineno)
                stack[-1].items.append(Sym(token, lineno))
    if stack:
        # The innermost open list is often the whole definition: also name the first line that opens
        # more than it closes although the next line is not indented under it.
        suspect = next(
            (ln for (ln, ind, delta), (_n, nxt, _d) in zip(shape, shape[1:]) if delta > 0 and nxt <= ind), None
        )
        hint = ""
        if suspect is not None and suspect != stack[-1].line:
            hint = (f"; probably the '(' on line {suspect}, which opens more than it closes while the next line "
                    "is not indented under it")
        raise PDDLError(
            f"unbalanced '(': {len(stack)} list(s) never closed, the innermost opened here{hint}",
            source=source,
            line=stack[-1].line,
        )
    if top is None:
        raise PDDLError("no '(define ...)' found", source=source, line=1)
    return top


def _shape(lines: list[str]) -> list[tuple[int, int, int]]:
    """(line, indentation, opened minus closed parentheses) of every line holding code."""
    out = []
    for lineno, raw in enumerate(lines, start=1):
        code = strip_comment(raw)
        if code.strip():
            out.append((lineno, len(code) - len(code.lstrip()), code.count("(") - code.count(")")))
    return out


def _closer_hint(shape: list[tuple[int, int, int]], upto: int) -> str:
    """Name the first line before ``upto`` that closes more than it opens without ending a block (its
    indentation is not below the previous line's, and the next line is not indented below it)."""
    for (_p, prev, _pd), (ln, ind, delta), (_n, nxt, _nd) in zip(shape, shape[1:], shape[2:]):
        if ln >= upto:
            break
        if delta < 0 and ind >= prev and nxt >= ind:
            return f"; probably the ')' on line {ln}, which closes more than it opens"
    return ""


def section(define: SList, key: str) -> SList | None:
    """The first sub-list of ``define`` whose head is ``key`` (e.g. ``:init``)."""
    for item in define.items:
        if isinstance(item, SList) and item.head() == key:
            return item
    return None


def parse_typed_list(items: list, source: str) -> list[tuple[str, str, int]]:
    """``a b - t c - u`` → [(a, t, line), (b, t, line), (c, u, line)]; untyped names get 'object'."""
    names: list[Sym] = []
    out: list[tuple[str, str, int]] = []
    i = 0
    while i < len(items):
        item = items[i]
        if not isinstance(item, Sym):
            raise PDDLError("expected a name, found a '(...)' list", source=source, line=item.line)
        if item.text == "-":
            if i + 1 >= len(items) or not isinstance(items[i + 1], Sym):
                raise PDDLError("'-' must be followed by a type name", source=source, line=item.line)
            if not names:
                raise PDDLError("'-' with no names before it", source=source, line=item.line)
            out.extend((n.text, items[i + 1].text, n.line) for n in names)
            names = []
            i += 2
            continue
        names.append(item)
        i += 1
    out.extend((n.text, "object", n.line) for n in names)
    return out
