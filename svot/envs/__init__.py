"""Gymnasium environments for the SVoT domains.

The generic env is :class:`~svot.envs.base.SVoTEnv`; each domain's own env
class lives in its folder (``svot/domains/<name>/env.py``) and is reachable here
by its class name too (``svot.envs.MazeEnv``), imported when first asked for.
"""

from svot.envs.base import SVoTEnv
from svot.envs.registration import ENV_CLASSES, env_class, env_id, register_all, registered_ids


def _domain_env_classes() -> dict[str, str]:
    """Class name -> domain, for every domain whose env is a "module:Class" entry point."""
    return {entry.partition(":")[2]: name for name, entry in ENV_CLASSES.items() if isinstance(entry, str)}


def __getattr__(name: str):
    domain = _domain_env_classes().get(name)
    if domain is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return env_class(domain)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_domain_env_classes()))


__all__ = ["SVoTEnv", "env_class", "env_id", "register_all", "registered_ids"]
