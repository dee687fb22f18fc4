"""Importing PDDLGym quietly and lazily.

``import pddlgym`` pulls in gym 0.26, which prints a deprecation banner and
costs about two seconds; svot imports it only when an engine or a domain parse
needs it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import warnings


@functools.lru_cache(maxsize=None)
def import_pddlgym_core():
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        import pddlgym.core as core
    return core
