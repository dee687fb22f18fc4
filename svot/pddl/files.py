"""The one way svot reads a PDDL file: regular files only, bounded, UTF-8 (a byte-order mark dropped).

A FIFO or a device named as a domain or problem file is refused without blocking, and every
failure (missing, not a regular file, too large, not UTF-8) is one error naming the file
(docs/reliability.md, rule 1). A leaf module: the domain and problem readers import it.
"""

from __future__ import annotations

import os

from svot.errors import DatasetError, PDDLError, SvotError
from svot.safe_paths import read_regular

#: The largest PDDL file read (bytes): a 64x64 problem is well under 1 MiB.
MAX_PDDL_BYTES = 16 * 1024 * 1024


def read_pddl_file(path: str | os.PathLike, *, what: str = "PDDL file", error: type[SvotError] = PDDLError) -> str:
    """The text of a PDDL file: a regular file of at most :data:`MAX_PDDL_BYTES`, UTF-8 (a BOM is dropped).

    Raises ``error`` (:class:`~svot.errors.PDDLError` by default) naming the file.
    """
    name = os.fspath(path)
    try:
        data = read_regular(name, max_bytes=MAX_PDDL_BYTES, what="file")
    except DatasetError as exc:
        raise error(f"cannot read {what}: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {name!r} is not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x})") from None


__all__ = ["MAX_PDDL_BYTES", "read_pddl_file"]
