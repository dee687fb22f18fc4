"""RawDraws.choice's inlined draws are its integers' (Floyd's sampling and shuffle), rejections included."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains.drawn import RawDraws


class _Outputs:
    """A generator of set 32-bit outputs (zeros among them: a zero product is Lemire's maybe-biased case)."""

    def __init__(self, values):
        self.values, self.at = values, 0

    def integers(self, low, high, size, dtype):
        assert (low, high, dtype) == (0, 1 << 32, np.uint32)
        out = [self.values[(self.at + i) % len(self.values)] for i in range(size)]
        self.at += size
        return np.array(out, dtype=np.uint32)


def _floyd(raw: RawDraws, n: int, size: int) -> list[int]:
    """numpy's Floyd path on RawDraws.integers, call by call."""
    picked: list[int] = []
    for j in range(n - size, n):
        v = raw.integers(j + 1)
        picked.append(j if v in picked else v)
    for i in range(size - 1, 0, -1):
        j = raw.integers(i + 1)
        picked[i], picked[j] = picked[j], picked[i]
    return picked


@pytest.mark.parametrize("batch", [1, 3, 7, 256])
def test_choice_is_floyd_on_integers(batch):
    rng = np.random.default_rng(batch)
    for trial in range(200):
        values = rng.integers(0, 1 << 32, size=50, dtype=np.uint64)
        values[rng.random(50) < 0.3] = 0  # rejections where 2**32 % k != 0
        values = values.tolist()
        ours, ref = RawDraws(_Outputs(values), batch), RawDraws(_Outputs(values), batch)
        for call in range(6):
            n = 1 + (trial + 5 * call) % 12
            size = (trial + call) % (n + 1)
            assert ours.choice(n, size) == _floyd(ref, n, size)
            assert ours._next() == ref._next()  # and both stand at the same output
