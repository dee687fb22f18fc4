"""``create_maze`` on cell/edge indices gives Alg. 3's very passages and draws (against the set-based reference)."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains.passages import create_maze, create_maze_reference

BIT_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7])
def test_create_maze_matches_reference(bit_generator, size):
    for seed in range(40):
        a = np.random.Generator(bit_generator(seed))
        b = np.random.Generator(bit_generator(seed))
        src_rng = np.random.default_rng(seed)
        cells = [(int(i) // size, int(i) % size) for i in src_rng.permutation(size * size)[:3]]
        src, dsts = cells[0], cells[1:]
        loop = [10, 0, 35][seed % 3]
        got = create_maze(size, src, dsts, a, loop)
        want = create_maze_reference(size, src, dsts, b, loop)
        assert got == want
        # the generators were left in the same place
        assert a.integers(2**62, size=4).tolist() == b.integers(2**62, size=4).tolist()


def test_create_maze_subclass_generator_draws_like_reference():
    class Counting(np.random.Generator):
        calls = 0

        def integers(self, *args, **kwargs):
            Counting.calls += 1
            return super().integers(*args, **kwargs)

    a = Counting(np.random.PCG64(3))
    got = create_maze(5, (0, 0), [(4, 4)], a)
    calls = Counting.calls
    Counting.calls = 0
    b = Counting(np.random.PCG64(3))
    want = create_maze_reference(5, (0, 0), [(4, 4)], b)
    assert got == want and calls == Counting.calls
