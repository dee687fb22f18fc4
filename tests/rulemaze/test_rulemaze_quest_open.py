"""The open-grid QuestMaze (issue 16, item 1): the paper's Fig. 3 draws QuestMaze as a 5x5 open
cell grid where "the 3x3 maze's walls become monster cells that block", with items on free
cells, the prince at the start and a princess and/or a treasure as targets; §5 calls it
"cell-based layouts without complex wall structures". Authors' generator, measured offline
(/work/shared/papers/README.md): one target in 31% of mazes, two in 69%; paths of 2-16 moves;
2.35 items per maze.
"""

import gymnasium as gym
import numpy as np
import pytest

import svot  # noqa: F401  (registers the RuleMaze ids)
from svot.cli import main
from svot.pddl import load_domain, parse_problem
from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Maze
from svot.rulemaze.errors import MazeError
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.pool import generate_pool, read_pool
from svot.rulemaze.pool_stats import pool_stats
from svot.rulemaze.problem import (action_key, collected_cells, engine_position, make_maze_engine,
                                   maze_problem, problem_maze)
from svot.rulemaze.render import render_maze
from svot.rulemaze.vision import read_maze, read_walls


@pytest.fixture(scope="module")
def open_pool():
    return generate_pool("QuestMaze", 5, 400, seed=31, layout="open")


def test_layout_is_the_open_grid_of_fig3(open_pool):
    for m in open_pool:
        assert m.size == 5 and m.open_grid
        # every (odd, odd) cell is a monster: a corner of the 3x3 maze's wall grid
        assert all(m.symbol((r, c)) == S.MONSTER for r in (1, 3) for c in (1, 3))
        # logical cells (even, even) are never monsters; start and targets sit on them
        assert all(m.symbol((r, c)) != S.MONSTER for r in (0, 2, 4) for c in (0, 2, 4))
        assert all(x % 2 == 0 for cell in (m.start, *m.goals) for x in cell)
        assert m.symbol(m.start) == "prince" and 1 <= len(m.goals) <= 2
        # free neighbours are connected, monsters never
        for a, b in m.passages:
            assert S.MONSTER not in (m.symbol(a), m.symbol(b))
        # items lie on logical cells of a solution path
        on_paths = {c for p in solution_paths(m) for c in p}
        for cell in m.cells_with("key") + m.cells_with("heart") + m.cells_with("food"):
            assert cell in on_paths and cell[0] % 2 == 0 and cell[1] % 2 == 0


def test_proportions_near_the_authors(open_pool):
    st = pool_stats(open_pool)
    assert abs(st["one_target_share"] - 0.31) < 0.07 and abs(st["two_targets_share"] - 0.69) < 0.07
    assert abs(st["items_mean"] - 2.35) < 0.25
    assert st["path_moves_min"] >= 2 and st["path_moves_max"] <= 16
    assert 0 < st["paths_3_share"] < 0.5 and st["mean_paths"] >= 2
    lengths = {len(p) - 1 for m in open_pool for p in solution_paths(m)}
    assert all(n % 2 == 0 for n in lengths)  # each maze move is two grid moves


def test_pool_is_seeded_and_rejects_bad_layouts():
    assert generate_pool("QuestMaze", 5, 5, seed=2, layout="open") == \
        generate_pool("QuestMaze", 5, 5, seed=2, layout="open")
    for sc, n in (("RegularMaze", 5), ("QuestMaze", 4)):
        with pytest.raises(Exception, match="layout 'open'"):
            generate_pool(sc, n, 1, layout="open")


def test_a_passage_into_a_monster_is_rejected():
    cells = (("prince", "monster"), ("grass", "treasure"))
    with pytest.raises(MazeError, match="monster"):
        Maze("QuestMaze", 2, (0, 0), ((1, 1),), (((0, 0), (0, 1)),), cells)


# ---------------------------------------------------------------- PDDL: questmaze5.pddl
def test_questmaze5_domain():
    dom = load_domain("questmaze5")
    assert {op.name for op in dom.operators} == {"walk", "collect", "arrive"}
    assert {"adjacent", "monster"} <= set(dom.static_predicates)


def test_problem_round_trip(open_pool):
    dom = load_domain("questmaze5")
    for m in open_pool[:20]:
        p = maze_problem(m)
        assert p.domain == "questmaze5" and ("monster", "c_1_1") in p.init
        again = parse_problem(p.to_pddl(), dom)
        assert problem_maze(again) == m


@pytest.mark.pddlgym
def test_engines_block_monsters_collect_items_and_end_on_a_target(open_pool):
    """Grounded engine, PDDLGym's successor function and Maze.move agree step for step."""
    rng = np.random.default_rng(3)
    for m in open_pool[:6]:
        grounded, reference = make_maze_engine(m, "grounded"), make_maze_engine(m, "pddlgym")
        sg, sr = grounded.initial(), reference.initial()
        pos, ended, seen = m.start, False, set()
        for _ in range(40):
            d = S.DIRECTIONS[int(rng.integers(4))]
            sg, ag = grounded.step(sg, action_key(d))
            sr, ar = reference.step(sr, action_key(d))
            assert grounded.true_atoms(sg) == reference.true_atoms(sr) and ag == ar
            expected = None if ended else m.move(pos, d)
            assert ag == (expected is not None)
            if expected is not None:
                assert m.symbol(expected) != S.MONSTER
                pos = expected
                if m.symbol(pos) in S.ITEMS:
                    seen.add(pos)
            assert engine_position(grounded, sg) == pos
            assert collected_cells(grounded, sg) == frozenset(seen)
            ended = pos in m.goals
            assert grounded.is_goal(sg) == ended


# ---------------------------------------------------------------- images and tools
def test_rendered_open_grid_reads_back(open_pool):
    for m in open_pool[:10]:
        img = render_maze(m, 256)
        assert read_maze(img) == m
        assert len(read_walls(img)) == 2 * 5 * 4  # no wall is drawn anywhere inside


# ---------------------------------------------------------------- env: new id, old id kept
def test_env_v1_plays_the_open_grid_and_v0_is_unchanged():
    env = gym.make("RuleMaze/QuestMaze-5x5-v1")
    obs, info = env.reset(seed=4)
    maze = env.unwrapped.maze
    assert obs.shape == (256, 256, 3) and maze.open_grid and maze.size == 5
    for a in info["ground_truth"]:
        obs, reward, term, trunc, info = env.step(S.DIRECTIONS.index(a))
    assert term and reward == 1.0 and info["target"] in S.TARGETS
    # a move into a monster is not applicable
    env.reset(seed=4)
    m = env.unwrapped.maze
    blocked = [d for d in S.DIRECTIONS if m.inside((m.start[0] + S.DELTAS[d][0], m.start[1] + S.DELTAS[d][1]))
               and m.symbol((m.start[0] + S.DELTAS[d][0], m.start[1] + S.DELTAS[d][1])) == S.MONSTER]
    if blocked:
        _, _, _, _, info = env.step(S.DIRECTIONS.index(blocked[0]))
        assert not info["applicable"] and info["position"] == list(m.start)
    old = gym.make("RuleMaze/QuestMaze-3x3-v0")
    old.reset(seed=4)
    assert old.unwrapped.maze.size == 3 and not old.unwrapped.maze.open_grid


def test_pool_command_writes_the_open_grid(tmp_path, capsys):
    rc = main(["rulemaze", "pool", "--count", "20", "--out", str(tmp_path), "--scenario", "quest",
               "--quest-layout", "open", "--seed", "5", "--quiet"])
    assert rc == 0 and "one_target_share" in capsys.readouterr().out
    assert read_pool(tmp_path / "QuestMaze-5x5.jsonl") == generate_pool("QuestMaze", 5, 20, seed=5, layout="open")


def test_export_with_the_open_layout(tmp_path, capsys):
    import pyarrow.parquet as pq

    rc = main(["rulemaze", "export", "--out", str(tmp_path / "d"), "--scenario", "quest", "--quest-layout",
               "open", "--train", "3", "--test-per-group", "1", "--pool-size", "600", "--formats",
               "parquet", "--quiet"])
    assert rc == 0
    assert "one_target_share" in capsys.readouterr().out
    rows = pq.read_table(tmp_path / "d" / "questmaze" / "test.parquet").to_pylist()
    assert rows and all(r["size"] == 5 and "monster" in r["maze"] for r in rows)
    assert all("A monster blocks" in r["prompt"] for r in rows)
