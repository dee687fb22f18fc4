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


def _reference_mask(size, src, dsts, rng, loop):
    from svot.domains.passages import inner_edges

    index = {pair: k for k, pair in enumerate(inner_edges(size))}
    cells = [(c // size, c % size) for c in [src, *dsts]]
    return sum(1 << index[pair] for pair in create_maze_reference(size, cells[0], cells[1:], rng, loop))


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("raw", [False, True])
def test_create_maze_mask_matches_reference(size, raw):
    # the tabled phase 1 (grids up to 3x3) and the searched one, on numpy's calls and on RawDraws' (the
    # env's stream), give the reference's passages and leave the rng where the reference leaves it
    from svot.domains.drawn import RawDraws
    from svot.domains.passages import create_maze_mask

    for seed in range(300):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        cells = np.random.default_rng(seed + 10_000).permutation(size * size)[:3].tolist()
        src, dsts = cells[0], cells[1:2 + seed % 2]
        loop = [10, 0, 35, 100][seed % 4]
        draws = RawDraws(a, batch=7) if raw else a
        assert create_maze_mask(size, src, dsts, draws, loop) == _reference_mask(size, src, dsts, b, loop)
        if raw:
            assert draws._next() == int(b.integers(0, 1 << 32, dtype=np.uint32))
        else:
            assert a.bit_generator.state == b.bit_generator.state


def test_tabled_courses_are_every_dfs_course():
    # the table holds one leaf per course of phase 1, each _dfs_tree's outcome for its choices
    from svot.domains.passages import _Carved, _dfs_tree, _maze_tables, _Script

    t = _maze_tables(3)
    leaves = 0
    for s in range(9):
        todo = [((), t.outcomes[s])]
        while todo:
            choices, node = todo.pop()
            if type(node) is tuple:
                assert len(node) > 1  # a forced move is no branch
                todo += [(choices + (i,), kid) for i, kid in enumerate(node)]
                continue
            assert type(node) is _Carved
            is_open, parent, opened = _dfs_tree(t, 3, s, _Script(choices))
            assert (node.opened, node.parent) == (opened, parent)
            assert opened == sum(1 << k for k, o in enumerate(is_open) if o)
            leaves += 1
    assert leaves == 176


def test_maze_bits_are_the_edges_and_walls():
    from svot.domains.passages import EdgeWalls, PassageBits, walls_grid

    marks = [(k % 9, 64 << (k % 2)) for k in range(12)]
    bits = [1 << (3 * k + 1) for k in range(12)]
    maze = PassageBits(3, bits, marks, limit=5)
    rng = np.random.default_rng(0)
    for opened in rng.integers(1 << 12, size=40).tolist() * 2:
        edge_bits, walls = maze(opened)
        assert edge_bits == sum(b for k, b in enumerate(bits) if opened >> k & 1)
        is_open = [opened >> k & 1 == 1 for k in range(12)]
        grid = walls_grid(3, marks, is_open, np.uint16)
        assert np.array_equal(walls(np.uint16), grid)
        for width in (16, 8, 16):  # the words kept for one width are not another's
            assert walls.words(width) == sum(int(v) << (width * c) for c, v in enumerate(grid.reshape(-1).tolist()))
        assert isinstance(walls, EdgeWalls)
    assert len(maze._memo) == 5
