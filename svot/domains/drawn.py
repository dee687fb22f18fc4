"""A problem drawn as its generator draws it, kept as bits until the Problem is asked for.

The env's reset starts the engine from a layout's bits over the size's shared grounding
(:meth:`svot.engine.grounded.SharedGroundedEngine.from_bits`); building the Problem, its name and
state dict costs several times the draws, so it waits until ``env.problem`` (or the plan) is read.
A generator's ``bit_stream`` is a :class:`DrawStream`: one :class:`DrawnBits` per call, its draws read
in Python off the generator's outputs (:class:`RawDraws`). FrozenLake has its own, batched stream.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np


class DrawnBits:
    """``init``/``goal_pos``/``goal_neg``: the bound problem's bits over ``shared``; :meth:`generated` is
    ``build()`` (what the generator's ``generate(..., plan=False)`` returns for the same draws), built once.

    ``undrawn``: ``undrawn(dtype)`` is the observation grid of the kinds no atom draws (edge walls),
    read off the draws, or None where every kind is drawn by an atom; where it has a ``words(width)``
    method (:class:`svot.domains.passages.EdgeWalls`), that gives the same grid as an int of ``width``-bit
    words, cell ``c`` the ``c``-th (no array built).
    """

    __slots__ = ("init", "goal_pos", "goal_neg", "shared", "_build", "_generated", "_undrawn")

    def __init__(self, init: int, goal_pos: int, goal_neg: int, shared, build: Callable, undrawn: Callable | None = None):
        self.init, self.goal_pos, self.goal_neg, self.shared = init, goal_pos, goal_neg, shared
        self._build, self._generated, self._undrawn = build, None, undrawn

    def generated(self):
        if self._generated is None:
            self._generated = self._build()
        return self._generated

    def problem(self):
        return self.generated().problem

    @property
    def undrawn_grid(self) -> Callable | None:
        return self._undrawn


_M32 = 0xFFFFFFFF


class RawDraws:
    """A ``numpy.random.Generator``'s ``integers(k)``, ``choice(n, size=k, replace=False)`` and
    ``permutation(n)``, computed in Python from the generator's 32-bit outputs drawn a batch at a time.

    One numpy call costs about a microsecond, a small draw's Python a fifth of that, and a maze layout
    makes dozens of them.
    numpy 2 makes these values from ``next_uint32`` (``rng.integers(0, 2**32, size=K, dtype=uint32)``
    gives K of them in order): ``integers(k)`` by Lemire's bounded draw, ``choice`` by Floyd's sampling
    then a shuffle of the picks, both with Lemire's draw, ``permutation`` by a Fisher-Yates shuffle
    with masked rejection (``random_interval``). So the values, and the outputs used, are the
    generator's own; the batch runs ahead of them (``tests/envs/test_reset_sequence.py`` checks every
    call against numpy's on all of numpy's bit generators).
    """

    def __init__(self, rng, batch: int = 256):
        self.rng, self.batch = rng, batch
        self._buf: list[int] = []
        self._i = 0

    def _next(self) -> int:
        i = self._i
        if i == len(self._buf):
            self._refill()
            i = 0
        self._i = i + 1
        return self._buf[i]

    def _refill(self) -> list[int]:
        """The next batch of outputs (the current one is used up), read from its start."""
        self._buf, self._i = self.rng.integers(0, 1 << 32, size=self.batch, dtype=np.uint32).tolist(), 0
        return self._buf

    def integers(self, k: int) -> int:
        """``rng.integers(k)`` (``1 <= k < 2**32``): no output used for ``k == 1``, as numpy's."""
        if k == 1:
            return 0
        i = self._i
        if i == len(self._buf):
            return self._lemire(k)
        self._i = i + 1
        m = self._buf[i] * k
        if m & _M32 < k:  # maybe in the biased zone: Lemire's rejection
            return self._reject(m, k)
        return m >> 32

    def _lemire(self, k: int) -> int:
        m = self._next() * k
        return self._reject(m, k) if m & _M32 < k else m >> 32

    def _reject(self, m: int, k: int) -> int:
        threshold = (1 << 32) % k
        while m & _M32 < threshold:
            m = self._next() * k
        return m >> 32

    def choice(self, n: int, size: int, replace: bool = False) -> list[int]:
        """``rng.choice(n, size, replace=False)`` for ``n <= 10000`` (numpy's Floyd path)."""
        if replace or n > 10000 or not 0 <= size <= n:
            raise ValueError(f"RawDraws.choice({n}, {size}): only numpy's Floyd path (replace=False, 0 <= size <= n <= 10000)")
        # one loop for Floyd's draws (j < n: integers(j + 1)) and then the shuffle's (t = top - j:
        # integers(t + 1)), integers(k) inlined (a call per draw costs more than the draw): the buffer
        # read, Lemire's product, the rare maybe-biased product handed to _reject; integers(1) draws nothing
        buf, i = self._buf, self._i
        picked: list[int] = []
        top = n + size - 1
        for j in range(n - size, top):
            k = j + 1 if j < n else top - j + 1
            if k == 1:
                v = 0
            else:
                if i == len(buf):
                    buf, i = self._refill(), 0
                m = buf[i] * k
                i += 1
                if m & _M32 < k:
                    self._i = i
                    v = self._reject(m, k)
                    buf, i = self._buf, self._i
                else:
                    v = m >> 32
            if j < n:
                picked.append(j if v in picked else v)
            else:
                t = top - j
                picked[t], picked[v] = picked[v], picked[t]
        self._i = i
        return picked

    def permutation(self, n: int) -> list[int]:
        """``rng.permutation(n)`` as a list."""
        out = list(range(n))
        buf, i = self._buf, self._i
        end = len(buf)
        for top in range(n - 1, 0, -1):
            mask = (1 << top.bit_length()) - 1
            if i == end:
                buf, i = self._refill(), 0
                end = len(buf)
            j = buf[i] & mask
            i += 1
            while j > top:  # masked rejection
                if i == end:
                    buf, i = self._refill(), 0
                    end = len(buf)
                j = buf[i] & mask
                i += 1
            out[top], out[j] = out[j], out[top]
        self._i = i
        return out


@functools.lru_cache(maxsize=None)
def raw_draws_agree(bit_generator: type) -> bool:
    """Whether :class:`RawDraws` gives this numpy's values on ``bit_generator``: a probe of each call,
    rejection paths included, on two seeded generators, once per process and bit generator type."""
    try:
        for seed in (0, 1):
            ours = RawDraws(np.random.Generator(bit_generator(seed)), batch=5)
            ref = np.random.Generator(bit_generator(seed))
            for k in (1, 2, 3, 7, 2**31 + 1, 3 * 2**30):
                if ours.integers(k) != int(ref.integers(k)):
                    return False
            if ours.choice(30, 9) != ref.choice(30, size=9, replace=False).tolist():
                return False
            if ours.permutation(13) != ref.permutation(13).tolist():
                return False
            # both must now stand at the same output: the next raw value agrees
            if ours._next() != int(ref.integers(0, 1 << 32, dtype=np.uint32)):
                return False
    except Exception:  # a bit generator that cannot be seeded this way: numpy's calls
        return False
    return True


def stream_of(draw_bits: Callable) -> Callable:
    """A generator's ``bit_stream(size, split, rng)`` over its ``draw_bits``: what the env's resets draw
    from while its ``np_random`` stays the same object (a :class:`DrawStream`, a batch ahead)."""

    def bit_stream(size: int, split: str, rng) -> DrawStream:
        return DrawStream(draw_bits, size, split, rng)

    bit_stream.__doc__ = (
        f"What the env's resets draw from: :func:`{draw_bits.__module__}.draw_bits` over and over on one "
        "``rng`` (a :class:`~svot.domains.drawn.DrawStream`)."
    )
    return bit_stream


def as_list(values) -> list:
    """A draw's values as a list: numpy's arrays converted, :class:`RawDraws`' lists as they are."""
    return values if type(values) is list else values.tolist()


class DrawStream:
    """``draw(size, split, draws)`` over and over, ``draws`` a :class:`RawDraws` of ``rng``: what a
    generator's ``bit_stream`` returns. Calling it gives the problems successive ``draw(size, split, rng)``
    calls give, as long as nothing else draws from ``rng`` in between (it runs ahead of them by up to a batch)."""

    def __init__(self, draw: Callable, size: int, split: str, rng):
        self.draw, self.size, self.split = draw, size, split
        # RawDraws follows numpy's own algorithms; where this numpy or bit generator is found to differ,
        # the draws are numpy's calls themselves (the same problems, only slower)
        self.draws = RawDraws(rng) if raw_draws_agree(type(rng.bit_generator)) else rng

    def __call__(self):
        return self.draw(self.size, self.split, self.draws)
