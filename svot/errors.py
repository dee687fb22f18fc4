"""The project's exceptions: one small hierarchy, messages that name the culprit.

Every error raised on bad input derives from :class:`SvotError`, and each also
derives from the built-in type a caller would naturally catch (``ValueError``,
``KeyError``...), so ``except ValueError`` keeps working.
"""

from __future__ import annotations


class SvotError(Exception):
    """Base class of every error svot raises on bad input."""


class PDDLError(SvotError, ValueError):
    """A PDDL domain or problem text is malformed or inconsistent."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        where = ""
        if source is not None:
            where = f"{source}:{line}: " if line is not None else f"{source}: "
        super().__init__(where + message)
        self.source = source
        self.line = line


class ProblemError(SvotError, ValueError):
    """A problem does not fit its domain, size or generator parameters."""


class ActionError(SvotError, ValueError):
    """An action is out of range, of the wrong type or cannot be parsed."""


class ParseError(SvotError, ValueError):
    """A state description, answer or other model-facing text cannot be read."""


class ConfigError(SvotError, ValueError):
    """An unknown domain, size, split, option or argument."""


class DatasetError(SvotError, ValueError):
    """An export or a dataset on disk is inconsistent or cannot be written."""


class PredictionError(SvotError, ValueError):
    """A predictions file or one of its records is malformed."""


class RuleError(SvotError, ValueError):
    """A rule string or rule file is malformed."""
