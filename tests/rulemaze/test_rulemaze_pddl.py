"""regularmaze.pddl / questmaze.pddl: problems from mazes, and the engines against Maze.move."""

import numpy as np
import pytest

from svot.errors import ProblemError
from svot.pddl import load_domain, parse_problem
from svot.rulemaze import symbols as S
from svot.rulemaze.pool import generate_pool
from svot.rulemaze.problem import (action_key, collected_cells, engine_position, load_maze_domain,
                                   make_maze_engine, maze_problem, problem_maze)


@pytest.fixture(scope="module")
def small_pools():
    return {(sc, n): generate_pool(sc, n, 8, seed=40 + n, layout="walls") for sc in S.SCENARIOS for n in (3, 4)}


def test_domains_are_strips_with_the_action_line():
    for name in ("regularmaze", "questmaze"):
        dom = load_domain(name)
        assert dom.action_predicates == ("move",)
        assert "open" in dom.static_predicates
    assert {op.name for op in load_domain("questmaze").operators} == {"walk", "collect", "arrive"}


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_problem_round_trip_through_pddl_text(small_pools, scenario):
    dom = load_maze_domain(scenario)
    for maze in small_pools[(scenario, 3)] + small_pools[(scenario, 4)]:
        problem = maze_problem(maze)
        assert problem_maze(problem) == maze
        again = parse_problem(problem.to_pddl(), dom)
        assert again.init == problem.init and again.goal == problem.goal
        assert problem_maze(again) == maze


def test_problem_maze_rejects_other_domains():
    from svot.pddl import Problem

    with pytest.raises(ProblemError, match="not a RuleMaze domain"):
        problem_maze(Problem("maze", "p", (), frozenset(), ()))


@pytest.mark.pddlgym
@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_engines_agree_with_maze_move_on_random_walks(small_pools, scenario):
    """Grounded engine, PDDLGym's successor function and Maze.move, step for step."""
    rng = np.random.default_rng(7)
    for n in (3, 4):
        for maze in small_pools[(scenario, n)][:5]:
            grounded, reference = make_maze_engine(maze, "grounded"), make_maze_engine(maze, "pddlgym")
            sg, sr = grounded.initial(), reference.initial()
            pos, ended = maze.start, False
            for _ in range(30):
                d = S.DIRECTIONS[int(rng.integers(4))]
                sg, ag = grounded.step(sg, action_key(d))
                sr, ar = reference.step(sr, action_key(d))
                assert grounded.true_atoms(sg) == reference.true_atoms(sr)
                assert ag == ar
                expected = None if ended else maze.move(pos, d)  # a reached target ends the quest
                assert ag == (expected is not None)
                if expected is not None:
                    pos = expected
                assert engine_position(grounded, sg) == pos
                assert grounded.is_goal(sg) == reference.is_goal(sr)
                if scenario == S.QUEST:
                    ended = pos in maze.goals
                    assert grounded.is_goal(sg) == ended
                else:
                    assert grounded.is_goal(sg) == (pos == maze.goals[0])


def test_quest_items_are_collected_once():
    from svot.rulemaze.maze import Maze

    # prince key .   /  food heart treasure  /  . . princess; no wall between (1, 1) and (1, 2)
    passages = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 1), (1, 1)), ((1, 1), (1, 2)), ((1, 0), (1, 1)),
                ((1, 2), (2, 2))]
    maze = Maze("QuestMaze", 3, (0, 0), ((1, 2), (2, 2)), passages,
                (("prince", "key", "grass"), ("food", "heart", "treasure"), ("grass", "grass", "princess")))
    eng = make_maze_engine(maze)
    s = eng.initial()
    s, ok = eng.step(s, action_key("right"))
    assert ok and collected_cells(eng, s) == {(0, 1)}
    assert ("item-at", "c_0_1", "key") not in eng.true_atoms(s)
    s, _ = eng.step(s, action_key("left"))
    s, _ = eng.step(s, action_key("right"))  # back on the key's cell: nothing left to take
    assert collected_cells(eng, s) == {(0, 1)}
    s, ok = eng.step(s, action_key("down"))
    assert ok and collected_cells(eng, s) == {(0, 1), (1, 1)}
    s, ok = eng.step(s, action_key("down"))
    assert not ok  # wall below (1, 1)
    s, ok = eng.step(s, action_key("right"))
    assert ok and eng.is_goal(s) and ("reached", "treasure") in eng.true_atoms(s)
    s2, ok = eng.step(s, action_key("left"))
    assert not ok and s2 == s  # the quest has ended
