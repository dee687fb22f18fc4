"""PDDL from the user: the one rule that tells text from a path, and the one way a PDDL file is read.

A problem handed to svot (``env.reset(options={"problem": ...})``, the vector env's
``problems=``) may be PDDL text, a path, or a parsed :class:`~svot.pddl.Problem`. The rule,
in this order, so that a user can predict it:

1. a :class:`~svot.pddl.Problem` is used as it is;
2. an ``os.PathLike`` (``pathlib.Path``) is a path, and so is a string naming a file or
   link that exists (``"runs (copy)/p (1).pddl"`` is a path, although it holds ``(``);
3. a string whose first token after whitespace and ``;`` comments is ``(define`` is PDDL text;
4. anything else is refused with a :class:`~svot.errors.ProblemError` saying so (a
   missing file, a name too long for the file system, and stray text all land here).

A path is read by :func:`svot.pddl.files.read_pddl_file`: regular files only (a FIFO or ``/dev/zero``
is refused without blocking, :func:`svot.safe_paths.read_regular`), at most
:data:`MAX_PDDL_BYTES`, UTF-8 with or without a byte-order mark; every failure is the
caller's error class naming the file. The domain reader (:func:`svot.pddl.load_domain_file`)
and :func:`svot.pddl.problem.read_problem_file` read through it too.
"""

from __future__ import annotations

import os
import re
from typing import Any

from svot.errors import ProblemError
from svot.pddl.domain import Domain
from svot.pddl.files import read_pddl_file
from svot.pddl.problem import Problem, parse_problem

# whitespace and ';' comment lines, then '(define' (PDDL is case-insensitive)
_PDDL_TEXT = re.compile(r"\A\ufeff?(?:\s|;[^\n]*(?:\n|\Z))*\(\s*define\b", re.IGNORECASE)


def looks_like_pddl(text: str) -> bool:
    """Whether ``text`` starts (after whitespace and ``;`` comments) with ``(define``."""
    return bool(_PDDL_TEXT.match(text))


def _is_existing_path(text: str) -> bool:
    try:
        return os.path.lexists(text)
    except (OSError, ValueError):  # a name too long, a NUL byte: not a file name
        return False


def problem_from_input(value: Any, domain: Domain, *, what: str = "options['problem']") -> Problem:
    """A parsed problem from PDDL text, a path or a :class:`Problem`, told apart by the module's rule.

    Raises :class:`~svot.errors.ProblemError` for a value that is neither, or a file that
    cannot be read, and :class:`~svot.errors.PDDLError` (naming the file or ``what``, and
    the line) for PDDL that does not parse.
    """
    if isinstance(value, Problem):
        return value
    if isinstance(value, os.PathLike) or (isinstance(value, str) and _is_existing_path(value)):
        name = os.fspath(value)
        if not isinstance(name, str):
            raise ProblemError(f"{what}: a path must be text, got {type(name).__name__}")
        text = read_pddl_file(name, what="problem file", error=ProblemError)
        return parse_problem(text, domain, source=name)
    if isinstance(value, str):
        if looks_like_pddl(value):
            return parse_problem(value.removeprefix("\ufeff"), domain, source=f"<{what}>")
        shown = value if len(value) <= 300 else f"{value[:150]}...{value[-60:]}"  # the end names the file
        raise ProblemError(f"{what}: {shown!r} does not exist as a file and is not PDDL text (PDDL text starts "
                           f"with '(define'; a pathlib.Path is always read as a path)")
    raise ProblemError(f"{what} must be PDDL text, a path or a svot.pddl.Problem, got {type(value).__name__}")


__all__ = ["looks_like_pddl", "problem_from_input"]
