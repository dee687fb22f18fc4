"""Issue 17: "RuleMaze re-enters as domains on its PDDL files, with rules, tools and EM/PR as a
layer on top." The walled mazes are the registry's ``regularmaze`` and ``questmaze`` domains and
the open grid (monster cells, the paper's Fig. 3) is ``questmaze5`` (OpenQuestMaze)
(``svot/domains/<name>/``); RuleMaze writes their problems through those domains' specs, so the
RuleMaze env and the SVoT env step one problem on one PDDL file.

RuleMaze, App. E.2.3: "Each maze is an N×N grid (default N=3) whose cells are connected by
passages; walls between adjacent cells are either open or closed." The domain's state keeps those
walls (``walls_right`` / ``walls_down``); its generator builds them with the same Alg. 3
(:func:`svot.domains.passages.create_maze`) that RuleMaze's pools use.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.rulemaze.env import RuleMazeEnv
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.pool import generate_pool
from svot.rulemaze.problem import collected_cells, engine_position, initial_state, maze_problem, problem_maze

SPEC = get_spec("questmaze")
POOL = generate_pool("QuestMaze", 3, count=30, seed=11, layout="walls")
REGULAR = generate_pool("RegularMaze", 3, count=20, seed=12) + generate_pool("RegularMaze", 3, count=10, seed=13,
                                                                              coloring="authors")
OPEN = generate_pool("QuestMaze", 3, count=20, seed=14, layout="open")
DIRECTION_INDEX = {"up": 0, "down": 1, "left": 2, "right": 3}


@pytest.mark.parametrize("index", range(len(POOL)))
def test_a_pool_maze_is_a_state_of_the_domain_and_reads_back(index):
    maze = POOL[index]
    problem = maze_problem(maze)
    assert problem.domain == SPEC.name == SPEC.pddl
    assert SPEC.state_dict(problem.init, maze.size) == initial_state(maze)
    assert problem_maze(problem) == maze
    # every inner edge is a wall or a passage, never both (the maze's own walls)
    walls = {("right", tuple(c)) for c in initial_state(maze)["walls_right"]} | {
        ("down", tuple(c)) for c in initial_state(maze)["walls_down"]}
    assert len(walls) + len(maze.passages) == 2 * maze.size * (maze.size - 1)


@pytest.mark.parametrize("index", range(0, len(POOL), 3))
def test_the_svot_env_and_the_rulemaze_env_walk_a_solution_path_alike(index):
    """Both envs step the same problem: the same cells, the same items collected, the same end."""
    maze = POOL[index]
    rule_env = RuleMazeEnv(scenario="QuestMaze", layout="walls")
    rule_env.reset(seed=0, options={"maze": maze})
    svot_env = gym.make("SVoT/QuestMaze-3x3-v0").unwrapped
    svot_env.reset(seed=0, options={"problem": maze_problem(maze)})
    path = solution_paths(maze)[0]
    moves = [next(d for d, a in DIRECTION_INDEX.items() if maze.move(u, d) == v) for u, v in zip(path, path[1:])]
    for d in moves:
        _, _, rule_done, _, _ = rule_env.step(DIRECTION_INDEX[d])
        _, reward, done, _, info = svot_env.step(DIRECTION_INDEX[d])
        state = svot_env.state
        assert tuple(state["player"]) == engine_position(rule_env.engine, rule_env._state)
        collected = {tuple(c) for cells in state["collected"].values() for c in cells}
        assert collected == set(collected_cells(rule_env.engine, rule_env._state))
        assert done == rule_done
    assert done and reward == 1.0 and state["reached"] == maze.symbol(path[-1])


@pytest.mark.parametrize("split", ["id", "ood"])
def test_the_domains_problems_are_mazes_the_rule_layer_reads(split):
    rng = np.random.default_rng(5)
    for _ in range(20):
        g = generate("questmaze", 3, split, rng)
        maze = problem_maze(g.problem)
        assert not maze.open_grid and maze.scenario == "QuestMaze"
        assert maze_problem(maze, g.problem.name) == g.problem
        # the plan is the shortest walk to a target: no solution path of the maze is shorter
        assert len(g.plan) == min(len(p) - 1 for p in solution_paths(maze))


@pytest.mark.parametrize("index", range(len(REGULAR)))
def test_a_regular_pool_maze_is_a_state_of_its_domain_and_both_envs_walk_it_alike(index):
    maze, spec = REGULAR[index], get_spec("regularmaze")
    problem = maze_problem(maze)
    assert problem.domain == spec.name and spec.state_dict(problem.init, maze.size) == initial_state(maze)
    assert problem_maze(problem) == maze
    rule_env = RuleMazeEnv(scenario="RegularMaze")
    rule_env.reset(seed=0, options={"maze": maze})
    svot_env = gym.make("SVoT/RegularMaze-3x3-v0").unwrapped
    svot_env.reset(seed=0, options={"problem": problem})
    path = solution_paths(maze)[index % 2]
    for u, v in zip(path, path[1:]):
        a = DIRECTION_INDEX[next(d for d in DIRECTION_INDEX if maze.move(u, d) == v)]
        _, _, rule_done, _, _ = rule_env.step(a)
        _, reward, done, _, _ = svot_env.step(a)
        assert tuple(svot_env.state["player"]) == engine_position(rule_env.engine, rule_env._state)
        assert done == rule_done
    assert done and reward == 1.0


def test_open_grid_pool_mazes_are_states_of_the_open_domain_and_read_back():
    spec = get_spec("questmaze5")
    for maze in OPEN:
        problem = maze_problem(maze)
        assert problem.domain == spec.name == spec.pddl and problem.name == "questmaze5-5x5"
        assert spec.state_dict(problem.init, maze.size) == initial_state(maze)
        assert problem_maze(problem) == maze
    # the pool keeps one target where no cell lies on one path only: the state says so
    assert {len(initial_state(m)["targets"]) for m in OPEN} == {1, 2}


@pytest.mark.parametrize("index", range(0, len(OPEN), 4))
def test_the_open_svot_env_and_the_open_rulemaze_env_walk_every_solution_path_alike(index):
    maze = OPEN[index]
    rule_env = RuleMazeEnv(scenario="QuestMaze", size=3, layout="open")
    svot_env = gym.make("SVoT/OpenQuestMaze-5x5-v0").unwrapped
    for path in solution_paths(maze):
        rule_env.reset(seed=0, options={"maze": maze})
        svot_env.reset(seed=0, options={"problem": maze_problem(maze)})
        for u, v in zip(path, path[1:]):
            a = DIRECTION_INDEX[next(d for d in DIRECTION_INDEX if maze.move(u, d) == v)]
            _, _, rule_done, _, _ = rule_env.step(a)
            _, reward, done, _, _ = svot_env.step(a)
            state = svot_env.state
            assert tuple(state["player"]) == engine_position(rule_env.engine, rule_env._state)
            collected = {tuple(c) for cells in state["collected"].values() for c in cells}
            assert collected == set(collected_cells(rule_env.engine, rule_env._state))
            assert done == rule_done
        assert done and reward == 1.0 and state["reached"] == maze.symbol(path[-1])


def test_the_open_domains_problems_are_open_mazes_the_rule_layer_reads():
    rng = np.random.default_rng(6)
    for split in ("id", "ood", "id", "ood"):
        g = generate("questmaze5", 5, split, rng)
        maze = problem_maze(g.problem)
        assert maze.open_grid and maze_problem(maze, g.problem.name) == g.problem
        assert len(g.plan) == min(len(p) - 1 for p in solution_paths(maze))
