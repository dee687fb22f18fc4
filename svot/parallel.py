"""Worker processes that die with their parent.

Exports and pool generation fan work out to processes; if the parent is killed
(even by SIGKILL) an orphaned worker would wait forever or write files beside
a resumed run, so each worker asks the kernel to kill it when its parent dies.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor


def _die_with_parent(parent: int) -> None:
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` (fork where available) whose workers end when this process ends."""
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_die_with_parent,
                               initargs=(os.getpid(),))
