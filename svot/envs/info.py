"""The ``info`` dict of :class:`~svot.envs.base.SVoTEnv`: its fields are computed when read.

Building ``state``, ``state_text`` and ``atoms`` on every step costs several
times what the step itself does, and most loops (RL, benchmarks) never read
them. :class:`LazyInfo` is a real ``dict`` (Gymnasium's env checker asserts
``isinstance(info, dict)``) whose keys are all present from the start; a key's
value is computed the first time it is read, from the state the env was in when
it returned the info (not the env's current state), then kept.

The contract, which ``tests/envs/test_lazy_info.py`` checks:

* every read goes through the mapping protocol (``info[k]``, ``get``, ``items``,
  ``values``, ``dict(info)``, ``{**info}``, ``json.dumps``, ``==``, ``repr``) and
  sees computed values, never a placeholder;
* keys can be added, replaced and removed as in any dict (Gymnasium's
  ``RecordEpisodeStatistics`` adds ``"episode"``);
* ``copy.copy``, ``copy.deepcopy`` and ``pickle`` (``AsyncVectorEnv`` sends infos
  through a pipe) give a plain ``dict`` with every field computed;
* each info owns its values: mutating ``info["state"]`` changes neither the env
  nor another step's info.

What does not hold: C code that reads a ``dict`` subclass's storage directly
(``dict.values(info)``, ``dict.__getitem__(info, k)``) sees the placeholder
:data:`PENDING` for fields not yet read.
"""

from __future__ import annotations

from collections.abc import ItemsView, ValuesView
from typing import Any, Callable

class _Pending:
    """The placeholder of a field not yet computed (one instance, :data:`PENDING`; pickles as that name)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<pending>"

    def __reduce__(self) -> str:
        return "PENDING"  # an env holding its info template pickles, and unpickles to the same object


PENDING = _Pending()
_MISSING = object()
_new = dict.__new__
_update = dict.update


class LazyInfo(dict):
    """A ``dict`` whose pending fields are computed by ``fill(key)`` on first read."""

    __slots__ = ("_fill",)

    def __init__(self, eager: dict, lazy_keys: tuple[str, ...], fill: Callable[[str], Any]):
        dict.__init__(self, eager)
        for k in lazy_keys:
            dict.__setitem__(self, k, PENDING)
        self._fill = fill

    @classmethod
    def from_template(cls, template: dict, fill: Callable[[str], Any]) -> "LazyInfo":
        """A ``LazyInfo`` holding ``template``'s items (lazy fields already :data:`PENDING` in it), filled by ``fill``.

        The same info as ``LazyInfo(eager, lazy_keys, fill)`` with ``template = {**eager, **{k: PENDING ...}}``
        (keys in that order), built with one C-level copy: what the env does on every step.
        """
        info = _new(cls)
        _update(info, template)
        info._fill = fill
        return info

    def __getitem__(self, key):
        v = dict.__getitem__(self, key)
        if v is PENDING:
            v = self._fill(key)
            dict.__setitem__(self, key, v)
        return v

    # overriding __iter__ makes CPython's dict merge (dict(x), {**x}, d.update(x)) use keys() + __getitem__
    def __iter__(self):
        return dict.__iter__(self)

    def get(self, key, default=None):
        return self[key] if dict.__contains__(self, key) else default

    def items(self):
        return ItemsView(self)

    def values(self):
        return ValuesView(self)

    def pop(self, key, default=_MISSING):
        if dict.__contains__(self, key):
            v = self[key]
            dict.__delitem__(self, key)
            return v
        if default is _MISSING:
            raise KeyError(key)
        return default

    def popitem(self):
        key = next(reversed(dict.keys(self)))  # LIFO, as dict.popitem
        return key, self.pop(key)

    def setdefault(self, key, default=None):
        if dict.__contains__(self, key):
            return self[key]
        dict.__setitem__(self, key, default)
        return default

    def materialized(self) -> dict:
        """A plain ``dict`` with every field computed."""
        return {k: self[k] for k in dict.__iter__(self)}

    def copy(self) -> dict:
        return self.materialized()

    def __or__(self, other):
        out = self.materialized()
        out.update(other)
        return out

    def __ror__(self, other):
        out = dict(other)
        out.update(self.materialized())
        return out

    def __eq__(self, other):
        if isinstance(other, LazyInfo):
            other = other.materialized()
        return self.materialized() == other

    def __ne__(self, other):
        return not self == other

    __hash__ = None  # as dict

    def __repr__(self) -> str:
        return repr(self.materialized())

    def __reduce__(self):
        return dict, (self.materialized(),)
