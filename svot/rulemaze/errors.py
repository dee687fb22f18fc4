"""Exceptions of the RuleMaze package.

They derive from the project-wide classes in :mod:`svot.errors`, so
``except svot.errors.RuleError`` (or plain ``except ValueError``) catches them
too; the lead may later fold them into that module.
"""

from __future__ import annotations

from svot import errors as _errors


class RuleError(_errors.RuleError):
    """A rule string is malformed.

    The message repeats the rule and puts a caret under the offending column::

        unknown colour 'teal' (expected one of: blue, ...) at column 11
          Zone(t, "teal")
                  ^

    Attributes:
        reason: the message without the rule excerpt.
        rule: the rule text that failed.
        position: 0-based character offset of the problem in ``rule``.
        column: 1-based column (``position + 1``).
    """

    def __init__(self, reason: str, rule: str, position: int):
        position = max(0, min(position, len(rule)))
        self.reason = reason
        self.rule = rule
        self.position = position
        self.column = position + 1
        # Show tabs as spaces so the caret lines up; a very long rule is shown around the column only.
        shown = rule.replace("\t", " ").replace("\n", " ")
        caret = position
        if len(shown) > 120:
            lo = max(0, position - 50)
            shown = ("..." if lo else "") + shown[lo : lo + 100] + ("..." if lo + 100 < len(shown) else "")
            caret = position - lo + (3 if lo else 0)
        super().__init__(f"{reason} at column {self.column}\n  {shown}\n  {' ' * caret}^")


class RuleFileError(_errors.RuleError):
    """A rules JSON file (or one of its records) is malformed.

    The message names the file, the 0-based rule index and the field.
    """

    def __init__(self, message: str, *, path: str | None = None, index: int | None = None,
                 field: str | None = None):
        where = []
        if path is not None:
            where.append(str(path))
        if index is not None:
            where.append(f"rule #{index}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__((": ".join(where) + ": " if where else "") + message)
        self.path = path
        self.index = index
        self.field = field


class MazeError(_errors.ProblemError):
    """A maze (or its dictionary form) is inconsistent; the message names the field."""


class PoolError(_errors.ProblemError):
    """Maze pool generation cannot satisfy its parameters."""
