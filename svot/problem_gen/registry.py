"""Which domains svot.problem_gen can sample, and where their generator, sizes and solver come from.

A domain is samplable when its :class:`~svot.domains.DomainSpec` names a
generator module (``generator_module``, the built-in domains) or when a
generator was registered for it (:func:`register`, which
``svot.extend.register_domain`` calls). The registration wins over the spec.
Nothing here names a domain: everything is read off the specs.

``PARAMS`` is a read-only view of Table 5 assembled from the samplable domains:
``PARAMS[name] == {"sizes": <sizes>, **spec.table5}``.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Iterator

from svot.domains import SPECS, DomainSpec
from svot.errors import ConfigError


@dataclass(frozen=True)
class Registration:
    """A generator registered from outside: any object with ``sample(size, split, rng) -> Draw``."""

    generator: Any
    sizes: tuple[int, ...]


_REGISTERED: dict[str, Registration] = {}


def register(domain: str, generator: Any, sizes: tuple[int, ...]) -> None:
    if not callable(getattr(generator, "sample", None)):
        raise ConfigError(f"generator for {domain!r} has no sample(size, split, rng) -> svot.problem_gen.Draw function")
    _REGISTERED[str(domain).lower()] = Registration(generator, tuple(sizes))


def unregister(domain: str) -> None:
    _REGISTERED.pop(str(domain).lower(), None)


def domains() -> tuple[str, ...]:
    """The samplable domains: the specs' order (built-ins first), then generators registered without a spec."""
    named = [n for n, spec in SPECS.items() if n in _REGISTERED or spec.generator_module is not None]
    return tuple(named + [n for n in _REGISTERED if n not in SPECS])


def is_known(domain: str) -> bool:
    return domain in _REGISTERED or (domain in SPECS and SPECS[domain].generator_module is not None)


def sizes(domain: str) -> tuple[int, ...]:
    """The domain's Table 5 sizes (``domain`` must be known)."""
    if domain in _REGISTERED:
        return _REGISTERED[domain].sizes
    return tuple(SPECS[domain].sizes)


def generator(domain: str) -> Any:
    """The domain's generator: the registered object, or the spec's generator module (imported on first use)."""
    if domain in _REGISTERED:
        return _REGISTERED[domain].generator
    spec = SPECS.get(domain)
    if spec is None or spec.generator_module is None:
        raise ConfigError(
            f"domain {domain!r} has no generator: set generator_module on its DomainSpec "
            "or pass one to svot.extend.register_domain(spec, generator)"
        )
    # an env's reset asks on every call: a loaded module is sys.modules' entry (what import_module returns)
    return sys.modules.get(spec.generator_module) or importlib.import_module(spec.generator_module)


def plan_optional(domain: str) -> bool:
    """Whether ``generate(..., plan=False)`` may skip planning (the spec's ``plan_optional``)."""
    return domain in SPECS and SPECS[domain].plan_optional


def solver(spec: DomainSpec) -> Any | None:
    """The spec's solver module (imported on first use), or None for breadth-first search."""
    return None if spec.solver_module is None else importlib.import_module(spec.solver_module)


class Table5View(Mapping):
    """``PARAMS``: domain → ``{"sizes": ..., **spec.table5}``, read off the samplable domains on each access."""

    def __getitem__(self, domain: str) -> dict[str, Any]:
        if not is_known(domain):
            raise KeyError(domain)
        row = SPECS[domain].table5 if domain in SPECS else {}
        return {"sizes": sizes(domain), **row}

    def __iter__(self) -> Iterator[str]:
        return iter(domains())

    def __len__(self) -> int:
        return len(domains())

    def __repr__(self) -> str:
        return repr(dict(self))


PARAMS = Table5View()

# the domains known at import (the built-ins); domains() also lists the ones registered since
DOMAINS = domains()
