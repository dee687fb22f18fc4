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
from typing import Callable, Hashable, Iterator

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


# --- draws carried over to the next call ----------------------------------------------------
#
# A sampler that screens a batch of draws before searching them wastes the batch's
# rows past the kept one, and then replays up to the whole batch to rewind the generator. But a
# numpy Generator's draws are a function of its state: the rows drawn past the kept one are
# exactly the rows the next call draws first, if it starts from the state the kept row left
# (an env's next reset, the next of a run of calls on one generator). :func:`first_kept` keeps them, their
# screening and the generator states at their chunks, under that state, and a call that
# starts from an equal state takes them up instead of drawing again. The same rows, the same
# verdicts, the same end state: only the time changes.

CHUNK = 128  # rows per ``rng.permuted`` call when drawing a batch; the state before each is kept
CARRIED = 32  # batches kept for later calls (one per generator state a call may start from: an env each)
AHEAD = 4  # a call that took up rows carried over draws batches of LARGEST_BATCH * AHEAD rows


class _Batch:
    """Rows drawn in one go and the screen's candidate positions among them (ascending, read lazily).

    ``marks``: ``(position, bit generator state before that row)``, ascending, from ``start`` (the
    first row not yet consumed); ``end``: the state after the last row."""

    __slots__ = ("rows", "candidates", "marks", "start", "end")

    def __init__(self, rows: np.ndarray, candidates, marks: list, end: dict):
        self.rows, self.candidates, self.marks, self.start, self.end = rows, candidates, marks, 0, end

    def rewind_to(self, rng: np.random.Generator, position: int) -> None:
        """Set ``rng`` to its state before row ``position`` (after the rows before it): from the
        nearest kept state, replaying the rows between."""
        k = len(self.marks) - 1
        while self.marks[k][0] > position:
            k -= 1
        at, state = self.marks[k]
        rng.bit_generator.state = state
        if position > at:
            permutation_rows(rng, self.rows.shape[1], position - at)
        self.marks = [(position, rng.bit_generator.state)] + [m for m in self.marks[k + 1 :] if m[0] > position]
        self.start = position


_carried: dict[tuple, _Batch] = {}


def _frozen(state):
    """A bit generator's ``state`` as a hashable value (nested dicts and arrays)."""
    if type(state) is dict:
        return tuple([(k, _frozen(state[k])) for k in sorted(state)])
    if isinstance(state, np.ndarray):
        return (state.dtype.str, state.shape, state.tobytes())
    return state


def _draw_batch(rng: np.random.Generator, n: int, size: int, screen: Callable) -> _Batch:
    """``size`` successive ``rng.permutation(n)`` draws, in chunks whose starting states are kept."""
    rows = _identity_rows(n, size).copy()
    marks = []
    for i in range(0, size, CHUNK):
        marks.append((i, rng.bit_generator.state))
        part = rows[i : i + CHUNK]
        rng.permuted(part, axis=1, out=part)
    if n <= 256:
        rows = rows.astype(np.uint8)  # the same values in an eighth of the memory, as batches are kept
    return _Batch(rows, screen(rows), marks, rng.bit_generator.state)


def first_kept(
    rng: np.random.Generator,
    n: int,
    key: Hashable,
    screen: Callable[[np.ndarray], Iterator[int]],
    accept: Callable[[np.ndarray, int], bool],
    limit: int,
    *,
    first: int = FIRST_BATCH,
    largest: int = LARGEST_BATCH,
    carry: bool = True,
) -> tuple[int, np.ndarray] | None:
    """:func:`first_accepted` with ``choose(rows)`` = the first of ``screen(rows)`` that ``accept`` keeps,
    rows drawn past the kept one carried over to a later call (see above).

    ``screen(rows)`` yields ascending positions of the rows that may be kept (it must yield every
    row ``accept`` would keep); ``accept(rows, j)`` decides row ``j``. ``key`` names the screen
    (its sampler and parameters): carried rows are taken up only under the same key and generator
    state. A generator :func:`batchable` refuses is handed to :func:`first_accepted`, and so is every
    call with ``carry=False`` (a caller whose next call draws something else first: nothing would fit).
    The row returned may be of a smaller integer type than ``first_accepted``'s (the same values).

    A call that takes up carried rows is one of a run of calls on one generator (an env's resets):
    it draws batches of ``largest * AHEAD`` rows, as what it leaves over is used (fewer batches, each
    with the screen's fixed cost). Other calls draw as :func:`first_accepted` does."""
    if not carry or not batchable(rng):
        return first_accepted(rng, n, lambda rows: _first_of(rows, screen, accept), limit, first=first, largest=largest)
    batch = _carried.pop((key, _frozen(rng.bit_generator.state)), None)
    if batch is not None and len(batch.rows) - batch.start > limit:
        batch = None  # drawn under a larger limit: draw again, the old way
    done, size = 0, first
    if batch is not None:  # one of a run of calls: what this one leaves over is taken up too
        size = largest = largest * AHEAD
    while done < limit:
        if batch is None:
            size = min(size, limit - done)
            batch = _draw_batch(rng, n, size, screen)
            size = min(2 * size, largest)
        start = batch.start
        for j in batch.candidates:
            if j >= start and accept(batch.rows, j):
                batch.rewind_to(rng, j + 1)
                _carry(key, rng, batch)
                return done + j - start + 1, batch.rows[j]
        done += len(batch.rows) - start
        rng.bit_generator.state = batch.end
        batch = None
    return None


def _first_of(rows: np.ndarray, screen: Callable, accept: Callable) -> int | None:
    return next((j for j in screen(rows) if accept(rows, j)), None)


def forget_carried() -> None:
    """Drop every carried batch (tests that compare two ways of screening the same draws)."""
    _carried.clear()


def _carry(key: Hashable, rng: np.random.Generator, batch: _Batch) -> None:
    if batch.start == len(batch.rows):
        return
    if len(_carried) >= CARRIED:
        del _carried[next(iter(_carried))]  # the oldest
    _carried[(key, _frozen(rng.bit_generator.state))] = batch
