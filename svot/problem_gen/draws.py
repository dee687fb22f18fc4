"""Rejection sampling over ``rng.permutation(n)`` draws, taken in batches but consumed one by one.

A sampler that draws ``rng.permutation(n)`` until a layout is kept spends
most of its time on Python overhead per draw when it rejects many of them
(a sampler whose layouts are mostly refused). :func:`first_accepted` draws the permutations many at a time with
``rng.permuted`` on rows of ``arange(n)``, which runs numpy's very shuffle
(the same calls on the bit generator, row after row) and so yields exactly
the rows ``k`` successive ``rng.permutation(n)`` calls would. When a row is
kept, the generator is rewound to the batch's start and advanced by exactly
the rows used, so it ends where the one-by-one loop would have left it; the
caller's next draws do not change (tests check rows and states on every
numpy bit generator).

A generator this cannot rewind safely (a ``Generator`` subclass, or a bit
generator outside numpy's own) is drawn from one permutation at a time.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

# numpy's bit generators: their ``state`` round-trips exactly, so a batch can be rewound
_REWINDABLE = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)

FIRST_BATCH = 8
LARGEST_BATCH = 1024


def batchable(rng: np.random.Generator) -> bool:
    """Whether ``rng`` may be drawn from in rewindable batches (see the module docstring)."""
    return type(rng) is np.random.Generator and type(rng.bit_generator) in _REWINDABLE


@functools.lru_cache(maxsize=None)
def _identity_rows(n: int, rows: int) -> np.ndarray:
    out = np.tile(np.arange(n), (rows, 1))
    out.setflags(write=False)
    return out


def permutation_rows(rng: np.random.Generator, n: int, rows: int) -> np.ndarray:
    """``rows`` successive ``rng.permutation(n)`` draws as the rows of one array (same draws, same end state)."""
    return rng.permuted(_identity_rows(n, rows), axis=1)


def first_accepted(
    rng: np.random.Generator,
    n: int,
    choose: Callable[[np.ndarray], int | None],
    limit: int,
    *,
    first: int = FIRST_BATCH,
    largest: int = LARGEST_BATCH,
) -> tuple[int, np.ndarray] | None:
    """``(attempt, row)``: the first of up to ``limit`` successive ``rng.permutation(n)`` draws that is kept.

    ``choose(rows)`` gets a batch of consecutive draws (a 2-D array, in draw
    order) and returns the index of the first row it keeps, or None; it must
    keep the row the one-by-one loop would keep (the first acceptable one).
    ``attempt`` counts draws from 1. On return ``rng`` has consumed exactly
    ``attempt`` permutations; None means all ``limit`` were drawn and refused.
    Batches start at ``first`` rows and double up to ``largest``.
    """
    rewind = batchable(rng)
    done = 0
    size = first
    while done < limit:
        if rewind:
            size = min(size, limit - done)
            saved = rng.bit_generator.state
            rows = permutation_rows(rng, n, size)
        else:
            size = 1
            rows = rng.permutation(n)[None, :]
        j = choose(rows)
        if j is not None:
            if j + 1 < size:  # rewind, then consume exactly the rows used
                rng.bit_generator.state = saved
                permutation_rows(rng, n, j + 1)
            return done + j + 1, rows[j]
        done += size
        size = min(2 * size, largest)
    return None
