"""Problem pools: many generated problems from one seed, shared within a process.

RL loops reset often, and a fresh solvability-checked problem costs a
millisecond or more; a pool pays that once, at the seeded ``reset``, and every
later reset draws from it. Problem ``j`` is :func:`svot.problem_gen.generate`'s on its own
Generator, seeded with ``SeedSequence(seed, spawn_key=(1, j))`` (a sampler may draw ahead of what
it keeps: no problem depends on another's draws), so a smaller pool is a prefix of a larger one
and the same seed gives the same pool in any process.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from svot.kernel import GridDomain
from svot.problem_gen import generate

_POOLS: OrderedDict = OrderedDict()  # (domain, size, split, seed, pool_size) -> tuple[Generated]
_MAX_POOLS = 16


def generated_pool(domain: GridDomain, size: int, split: str, seed: int, pool_size: int) -> tuple:
    """``pool_size`` :class:`~svot.problem_gen.Generated` problems (with plans), cached per process."""
    key = (domain, size, split, int(seed), int(pool_size))
    pool = _POOLS.get(key)
    if pool is not None:
        _POOLS.move_to_end(key)
        return pool
    pool = tuple(
        generate(domain, size, split, np.random.default_rng(np.random.SeedSequence(int(seed), spawn_key=(1, j))),
                 allow_any_size=True)
        for j in range(int(pool_size))
    )
    _POOLS[key] = pool
    while len(_POOLS) > _MAX_POOLS:
        _POOLS.popitem(last=False)
    return pool
