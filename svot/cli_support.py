"""What every ``svot`` command line module shares: exit codes, the one-line argument error, and the
check that an output file can be written before any work starts.

A leaf module, so that a command group (``svot.rulemaze.cli``) uses these without importing
``svot.cli``, which imports it: the command line's arrows run one way.
"""

from __future__ import annotations

import os
from pathlib import Path

EXIT_USAGE = 2
EXIT_INTERNAL = 1
EXIT_INTERRUPTED = 130
EXIT_NOTHING_SCORED = 3
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what the shell reports for coreutils cut short by `| head`


class CLIError(Exception):
    """An argument problem found after parsing; printed as one line."""


def check_writable(path: str) -> None:
    """Refuse (one line) an output file that cannot be written, before any work is done.

    Creates the parent folders and a probe file next to the target, then
    removes the probe; the target itself is untouched.
    """
    out = Path(path)
    if out.is_dir():
        raise CLIError(f"cannot write {path!r}: it is a directory")
    probe = out.with_name(out.name + ".probe.tmp")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise CLIError(f"cannot write {path!r}: {exc.strerror or exc}") from None
