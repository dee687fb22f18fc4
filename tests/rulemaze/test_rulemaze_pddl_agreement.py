"""The fast Python maze models agree with the grounded PDDL engine.

RuleMaze (Chen et al., App. E.2.3): "Each maze is an N×N grid (default N=3) whose
cells are connected by passages; walls between adjacent cells are either open or
closed." InspectGrid (Alg. 6): "The identified symbol s_t is then appended to the
agent's trajectory history". The PDDL domains (``regularmaze.pddl``,
``questmaze.pddl``, ``questmaze5.pddl``) hold those rules; ``Maze.is_open`` /
``paths.maze_graph`` (passages), ``Trajectory.from_actions`` / ``from_path``
(blocked moves, first-entry collection) and ``paths.solution_paths`` (simple paths
ending on the first target entered) are derived fast models, proven here on pool
mazes of both scenarios and of the open QuestMaze grid.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from svot.engine import make_engine
from svot.pddl import load_domain
from svot.rulemaze import symbols as S
from svot.rulemaze.paths import maze_graph, solution_paths
from svot.rulemaze.pool import generate_maze
from svot.rulemaze.problem import (action_key, cell_name, collected_cells, engine_position,
                                   make_maze_engine, maze_domain_name, maze_problem)
from svot.rulemaze.trajectory import Trajectory, path_to_actions

from rulemaze_helpers import open_grid

MAZES_PER_CASE = 30
SEQUENCES_PER_MAZE = 10
SEQUENCE_LENGTH = 12
CASES = [(S.REGULAR, 3, "walls"), (S.QUEST, 3, "walls"), (S.QUEST, 3, "open")]


def _mazes(scenario, size, layout, seed=17):
    rng = np.random.default_rng(seed)
    return [generate_maze(scenario, size, rng, layout=layout) for _ in range(MAZES_PER_CASE)]


def _engine_from(maze, cell):
    """The grounded engine of ``maze``'s problem with the agent put on ``cell``."""
    problem = maze_problem(maze)
    init = {a for a in problem.init if a[0] != "at"} | {("at", cell_name(cell))}
    problem = dataclasses.replace(problem, init=frozenset(init))
    return make_engine("grounded", load_domain(maze_domain_name(maze)), problem)


@pytest.mark.parametrize("scenario,size,layout", CASES)
def test_passage_graph_is_the_engine_moves(scenario, size, layout):
    for maze in _mazes(scenario, size, layout):
        engine_edges = set()
        for r in range(maze.size):
            for c in range(maze.size):
                if maze.symbol((r, c)) == S.MONSTER:
                    continue  # never entered, so never left
                eng = _engine_from(maze, (r, c))
                s0 = eng.initial()
                for d in S.DIRECTIONS:
                    s1, applied = eng.step(s0, action_key(d))
                    fast = maze.move((r, c), d)
                    assert applied == (fast is not None), (maze.to_text(), (r, c), d)
                    if applied:
                        to = engine_position(eng, s1)
                        assert to == fast
                        engine_edges.add(frozenset(((r, c), to)))
        assert {frozenset(e) for e in maze_graph(maze).edges} == engine_edges


def _engine_symbol(maze, eng, before, after, cell):
    """What the engine's states say InspectGrid reads on entering ``cell``: an item only
    when this move's ``collect`` took it."""
    newly = [a[2] for a in eng.true_atoms(after) if a[0] == "collected" and a[1] == cell_name(cell)
             and a not in eng.true_atoms(before)]
    if newly:
        return newly[0]
    sym = S.inspect_symbol(maze.symbol(cell))
    return S.NORMAL if sym in S.ITEMS else sym


@pytest.mark.parametrize("scenario,size,layout", CASES)
def test_from_actions_agrees_with_engine(scenario, size, layout):
    rng = np.random.default_rng(5)
    refused = ended = 0
    for maze in _mazes(scenario, size, layout):
        eng = make_maze_engine(maze)
        for _ in range(SEQUENCES_PER_MAZE):
            actions = [S.DIRECTIONS[int(i)] for i in rng.integers(4, size=SEQUENCE_LENGTH)]
            state = eng.initial()
            for t, a in enumerate(actions):
                nxt, applied = eng.step(state, action_key(a))
                if not applied:
                    refused += 1
                    with pytest.raises(ValueError):
                        Trajectory.from_actions(maze, actions[: t + 1])
                    break
                traj = Trajectory.from_actions(maze, actions[: t + 1])
                assert traj.symbols[-1] == _engine_symbol(maze, eng, state, nxt, engine_position(eng, nxt))
                items = Counter(s for s in traj.symbols if s in S.ITEMS)
                engine_items = Counter(a[2] for a in eng.true_atoms(nxt) if a[0] == "collected")
                assert items == engine_items
                assert set(collected_cells(eng, nxt)) <= set(maze.walk(actions[: t + 1]))
                state = nxt
                if eng.is_goal(state):
                    ended += 1  # the engine refuses every later move; the trajectory ends here
                    break
    assert refused > 0 and ended > 0  # both outcomes were exercised


def _replay(eng, actions):
    state, goals = eng.initial(), []
    for a in actions:
        state, applied = eng.step(state, action_key(a))
        assert applied
        goals.append(bool(eng.is_goal(state)))
    return goals


@pytest.mark.parametrize("scenario,size,layout", CASES)
def test_solution_paths_reach_goal_in_engine(scenario, size, layout):
    for maze in _mazes(scenario, size, layout):
        eng = make_maze_engine(maze)
        paths = solution_paths(maze)
        assert paths
        for p in paths:
            goals = _replay(eng, path_to_actions(p))
            assert goals == [False] * (len(p) - 2) + [True]


def _engine_simple_paths(maze):
    """Brute force over engine states: cell sequences from the start that never revisit
    a cell and stop at the first goal state."""
    eng = make_maze_engine(maze)
    out = set()

    def rec(state, path):
        if eng.is_goal(state):
            out.add(tuple(path))
            return
        for d in S.DIRECTIONS:
            nxt, applied = eng.step(state, action_key(d))
            if applied:
                cell = engine_position(eng, nxt)
                if cell not in path:
                    rec(nxt, path + [cell])

    rec(eng.initial(), [maze.start])
    return out


@pytest.mark.parametrize("scenario,size,layout", CASES)
def test_solution_paths_are_all_engine_simple_paths(scenario, size, layout):
    mazes = _mazes(scenario, size, layout)
    if layout == "walls":
        rng = np.random.default_rng(3)
        mazes += [open_grid(scenario, rng) for _ in range(3)]  # 12 paths each: many to miss
    for maze in mazes:
        assert set(solution_paths(maze)) == _engine_simple_paths(maze), maze.to_text()
