"""One digest of a JSON-able state, the same on every process and Python: what the agent episodes compare.

A leaf module, so that a driver in any layer (the grid envs' in :mod:`svot.agents.drivers`, RuleMaze's in
:mod:`svot.rulemaze.agent_driver`) hashes the same way without importing another layer.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np


def canonical_hash(obj) -> str:
    """sha256 (16 hex digits) of a JSON-able object, keys sorted: the same on every process."""
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _plain(obj):
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, tuple):
        return list(obj)
    raise TypeError(f"not JSON-able: {type(obj).__name__}")


__all__ = ["canonical_hash"]
