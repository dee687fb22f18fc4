"""Run the ``svot`` CLI and SIGKILL this process at a chosen file event: a crash at a precise point.

Usage::

    python reliability_killer.py <N> <mode> -- <svot arguments...>

File events are calls of ``os.replace`` (every atomic write ends with one) and
``os.unlink`` (parts deleted after a merge, ``.parts`` removed at the end),
counted in this process. At event ``N`` the process kills itself with SIGKILL:

* ``before``: before the call (the ``.tmp`` file is complete but not renamed);
* ``after``: right after it;
* ``torn``: before an ``os.replace``, first cut its ``.tmp`` source to half its
  size (a write interrupted half-way), then kill; for an unlink, as ``before``.

``N = 0`` never kills; the run ends by printing ``EVENTS <count>`` to stderr.
Meant for single-process runs (``--workers 1``): worker processes count their own events.
"""

from __future__ import annotations

import os
import signal
import sys


def main() -> int:
    kill_at, mode = int(sys.argv[1]), sys.argv[2]
    assert sys.argv[3] == "--" and mode in ("before", "after", "torn")
    argv = sys.argv[4:]
    count = [0]
    real_replace, real_unlink = os.replace, os.unlink

    def die() -> None:
        os.kill(os.getpid(), signal.SIGKILL)

    def event(kind: str, src) -> bool:
        """Count an event; kill now if it is the chosen one and the mode says so; True = kill after it."""
        count[0] += 1
        if count[0] != kill_at:
            return False
        if mode == "torn" and kind == "replace":
            try:
                size = os.stat(src).st_size
                os.truncate(src, size // 2)
            except OSError:
                pass
        if mode in ("before", "torn"):
            die()
        return True

    def replace(src, dst, *args, **kwargs):
        after = event("replace", src)
        real_replace(src, dst, *args, **kwargs)
        if after:
            die()

    def unlink(path, *args, **kwargs):
        after = event("unlink", path)
        real_unlink(path, *args, **kwargs)
        if after:
            die()

    os.replace, os.unlink = replace, unlink
    from svot.cli import main as svot_main

    rc = svot_main(argv)
    sys.stdout.flush()
    sys.stderr.write(f"EVENTS {count[0]}\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
