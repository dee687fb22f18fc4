"""The one way svot reads a PDDL file: regular files only, bounded, UTF-8 (a byte-order mark dropped).

A FIFO or a device named as a domain or problem file is refused without blocking, and every
failure (missing, not a regular file, too large, not UTF-8) is one error naming the file
(docs/reliability.md, rule 1). A leaf module: the domain and problem readers import it.
"""

from __future__ import annotations

import os

from svot.errors import PDDLError, SvotError
from svot.safe_paths import read_text

#: The largest PDDL file read (bytes): a 64x64 problem is well under 1 MiB.
MAX_PDDL_BYTES = 16 * 1024 * 1024


def read_pddl_file(path: str | os.PathLike, *, what: str = "PDDL file", error: type[SvotError] = PDDLError) -> str:
    """The text of a PDDL file: :func:`svot.safe_paths.read_text` bounded by :data:`MAX_PDDL_BYTES`, raising
    ``error`` (:class:`~svot.errors.PDDLError` by default) naming the file."""
    return read_text(path, max_bytes=MAX_PDDL_BYTES, what=what, error=error)


__all__ = ["MAX_PDDL_BYTES", "read_pddl_file"]
