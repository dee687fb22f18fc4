"""Run a callback right after a module is first imported (a one-shot post-import hook).

``import svot`` must register the env ids with Gymnasium, yet ``import svot.errors`` or
``import svot.pddl`` run ``svot/__init__.py`` first and must not pay for Gymnasium, the envs and
the engine (the lower layers do not load the upper ones). Registering needs Gymnasium anyway and
is only observable through it, so it waits for Gymnasium: at once if it is already imported, else
when it is, through a finder on ``sys.meta_path`` that wraps Gymnasium's loader and then removes
itself. It imports nothing but ``sys`` (not even ``importlib.abc``, which alone would cost more than
``svot.errors``): it sits below every other module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable


def call_after_import(name: str, callback: Callable[[], None]) -> None:
    """Call ``callback()`` once module ``name`` is imported: now if it is, else right after its import."""
    if name in sys.modules:
        callback()
    else:
        sys.meta_path.insert(0, _OneShotFinder(name, callback))


class _OneShotFinder:
    """A meta path finder that finds nothing itself: it hands the real spec back with its loader wrapped, once."""

    def __init__(self, name: str, callback: Callable[[], None]):
        self.name = name
        self.callback = callback

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)  # one shot; also keeps the lookup below from coming back here
        spec = None
        for finder in sys.meta_path:  # what the import system would do next
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                break
        if spec is not None and spec.loader is not None:
            spec.loader = _CallbackLoader(spec.loader, self.callback)
        return spec


class _CallbackLoader:
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
