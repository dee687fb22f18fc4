"""Run a callback right after a module is first imported (a one-shot post-import hook).

``import svot`` must register the env ids with Gymnasium, yet ``import svot.errors`` or
``import svot.pddl`` run ``svot/__init__.py`` first and must not pay for Gymnasium, the envs and
the engine (the lower layers do not load the upper ones). Registering needs Gymnasium anyway and
is only observable through it, so it waits for Gymnasium: at once if it is already imported, else
when it is, through a finder on ``sys.meta_path`` that wraps Gymnasium's loader and then removes
itself. Standard library only: this module sits below every other.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Callable


def call_after_import(name: str, callback: Callable[[], None]) -> None:
    """Call ``callback()`` once module ``name`` is imported: now if it is, else right after its import."""
    if name in sys.modules:
        callback()
    else:
        sys.meta_path.insert(0, _OneShotFinder(name, callback))


class _OneShotFinder(importlib.abc.MetaPathFinder):
    """Finds nothing itself: hands the real spec back with its loader wrapped, once."""

    def __init__(self, name: str, callback: Callable[[], None]):
        self.name = name
        self.callback = callback

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # one shot; also keeps the lookup below from coming back here
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _CallbackLoader(spec.loader, self.callback)
        return spec


class _CallbackLoader(importlib.abc.Loader):
    """The real loader, then the callback; the module keeps the real loader afterwards."""

    def __init__(self, loader, callback: Callable[[], None]):
        self.loader = loader
        self.callback = callback

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        module.__loader__ = module.__spec__.loader = self.loader
        self.callback()
