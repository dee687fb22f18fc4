import numpy as np
import pytest
from rulemaze_helpers import simple_paths

from svot.rulemaze import symbols as S
from svot.rulemaze.errors import PoolError
from svot.rulemaze.paths import path_cells, shared_cells, solution_paths
from svot.rulemaze.pool import (create_maze, generate_maze, generate_pool, loop_removals,
                                opens_square, read_pool, write_pool)

from tests.rulemaze.conftest import POOL_SIZE


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_every_pool_maze_has_exactly_two_solution_paths(pools, scenario):
    for m in pools[scenario]:
        paths = solution_paths(m)
        assert len(paths) == 2
        assert list(paths) == simple_paths(m)  # networkx agrees with plain recursion
        for p in paths:
            assert p[0] == m.start and p[-1] in m.goals
            assert all(m.is_open(a, b) for a, b in zip(p, p[1:]))


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_pool_is_distinct_and_well_formed(pools, scenario):
    pool = pools[scenario]
    assert len(pool) == POOL_SIZE
    assert len({m.canonical() for m in pool}) == POOL_SIZE
    for m in pool:
        assert m.scenario == scenario and m.size == 3
        if scenario == S.REGULAR:
            assert m.symbol(m.start) == "green" and [m.symbol(g) for g in m.goals] == ["red"]
            painted = {s for row in m.cells for s in row} - {"green", "red", "white"}
            assert len(painted) <= 1  # Alg. 4 samples one colour
        else:
            assert m.symbol(m.start) == "prince"
            assert sorted(m.symbol(g) for g in m.goals) == ["princess", "treasure"]
        # paint / items only on solution-path cells, never on start or goal
        on_path = set(path_cells(solution_paths(m)))
        for r in range(3):
            for c in range(3):
                if m.cells[r][c] in S.COLOURS + S.ITEMS:
                    assert (r, c) in on_path


def test_regular_colouring_follows_alg4(regular_pool):
    plain = kinds = 0
    for m in regular_pool:
        coloured = [(r, c) for r in range(3) for c in range(3) if m.cells[r][c] in S.COLOURS]
        if not coloured:
            plain += 1
            continue
        paths = solution_paths(m)
        shared = set(shared_cells(paths)) - {m.start, *m.goals}
        interior = set(path_cells(paths)) - {m.start, *m.goals}
        type1 = set(coloured) <= shared
        type2 = len(coloured) <= max(1, len(interior) // 3)
        assert type1 or type2
        kinds += 1
    # ~20% skipped by the coin, a few more when the sampled type has no cell to paint
    assert 0.15 * len(regular_pool) < plain < 0.45 * len(regular_pool)


def test_reproducible_by_seed_and_worker_count():
    a = generate_pool("RegularMaze", 3, 60, seed=5)
    b = generate_pool("RegularMaze", 3, 60, seed=5)
    c = generate_pool("RegularMaze", 3, 60, seed=5, workers=2)
    d = generate_pool("RegularMaze", 3, 60, seed=6)
    assert a == b == c
    assert a != d
    q1 = generate_pool("QuestMaze", 3, 40, seed=5, workers=1)
    q2 = generate_pool("QuestMaze", 3, 40, seed=5, workers=2)
    assert q1 == q2
    # a prefix of a bigger pool is the smaller pool
    assert generate_pool("RegularMaze", 3, 90, seed=5)[:60] == a


def test_progress_callback_reaches_count():
    calls = []
    generate_pool("QuestMaze", 3, 25, seed=1, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (25, 25)
    assert all(t == 25 for _, t in calls)


@pytest.mark.parametrize("scenario", S.SCENARIOS)
@pytest.mark.parametrize("size", [2, 4])
def test_other_sizes(scenario, size):
    pool = generate_pool(scenario, size, 10, seed=3, layout="walls")
    assert len(pool) == 10
    for m in pool:
        assert m.size == size and len(solution_paths(m)) == 2
    if scenario == "QuestMaze":  # the open grid of a size x size maze (a third path when a target cuts one)
        for m in generate_pool(scenario, size, 10, seed=3):
            assert m.size == 2 * size - 1 and m.open_grid and 2 <= len(solution_paths(m)) <= 3


def test_loop_removals_reading_of_alg3():
    assert loop_removals(0) == 0
    assert loop_removals(1) == 1 and loop_removals(4) == 1  # the floor would give 0
    assert loop_removals(30) == 1 and loop_removals(31) == 2
    assert loop_removals(10, 0) == 0


def test_create_maze_never_opens_a_full_square():
    rng = np.random.default_rng(0)
    for _ in range(200):
        passages = set(create_maze(4, (0, 0), [(3, 3)], rng))
        for r in range(3):
            for c in range(3):
                edges = {((r, c), (r, c + 1)), ((r + 1, c), (r + 1, c + 1)),
                         ((r, c), (r + 1, c)), ((r, c + 1), (r + 1, c + 1))}
                assert not edges <= passages
        # spanning: 4x4 tree has 15 passages, loops add a few
        assert 15 <= len(passages) <= 15 + 2 * loop_removals(9)
    full = {((0, 0), (0, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0))}
    assert opens_square(full, ((0, 1), (1, 1)), 3)
    assert not opens_square(full, ((0, 1), (0, 2)), 3)


def test_generate_maze_is_a_function_of_the_generator():
    m1 = generate_maze("RegularMaze", 3, np.random.default_rng(42))
    m2 = generate_maze("RegularMaze", 3, np.random.default_rng(42))
    assert m1 == m2


def test_pool_errors(tmp_path):
    with pytest.raises(PoolError, match="size"):
        generate_pool("RegularMaze", 1, 5, seed=0)
    with pytest.raises(PoolError, match="workers"):
        generate_pool("RegularMaze", 3, 5, seed=0, workers=0)
    with pytest.raises(PoolError, match="distinct"):
        generate_pool("RegularMaze", 2, 400, seed=0)  # a 2x2 grid has ~156 mazes
    bad = tmp_path / "pool.jsonl"
    bad.write_text('{"size": 3}\n')
    with pytest.raises(PoolError, match="pool.jsonl:1"):
        read_pool(bad)


def test_write_read_roundtrip(tmp_path, quest_pool):
    path = tmp_path / "pool.jsonl"
    write_pool(path, quest_pool[:30])
    assert read_pool(path) == quest_pool[:30]
    assert not (tmp_path / "pool.jsonl.tmp").exists()
