"""The five tools on images: semantics, statelessness, and traces reproducing the ground truth."""

import numpy as np
import pytest

from svot.errors import ActionError
from svot.rulemaze import symbols as S
from svot.rulemaze.matching import match_pool
from svot.rulemaze.maze import Maze
from svot.rulemaze.render import render_maze
from svot.rulemaze.rules import builtin_rules
from svot.rulemaze.tools import (TOOL_SCHEMAS, PerceptionError, execute_move, inspect_grid, locate_start,
                                 marker_position, run_trace, verify_endpoint, verify_rule)
from svot.rulemaze.trajectory import path_to_actions


def regular():
    # (0,0) green -> (0,1) blue -> (1,1) red ; (1,0) white ; wall between (0,0) and (1,0)
    return Maze("RegularMaze", 2, (0, 0), ((1, 1),),
                (((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 0), (1, 1))),
                (("green", "blue"), ("white", "red")))


def test_each_tool():
    img = render_maze(regular(), 128)
    with pytest.raises(PerceptionError, match="no position marker"):
        inspect_grid(img)
    start = locate_start(img)
    assert marker_position(start) == (0, 0) and marker_position(img) is None
    assert inspect_grid(start) == "green"
    down = execute_move(start, "down")  # through the wall: not checked (Alg. 7)
    assert marker_position(down) == (1, 0) and inspect_grid(down) == "normal"
    assert not verify_endpoint(down)
    goal = execute_move(execute_move(start, "RIGHT"), "down")
    assert inspect_grid(goal) == "red" and verify_endpoint(goal)
    assert verify_endpoint(goal, "red") and not verify_endpoint(goal, "princess")
    assert np.array_equal(locate_start(goal), start)  # an old marker is removed first
    with pytest.raises(ActionError, match="leaves the 2x2 grid"):
        execute_move(start, "up")
    with pytest.raises(ActionError, match="unknown action"):
        execute_move(start, "jump")
    assert verify_rule('Zone(t,"blue") -> Move(t,"right")', ["right", "down"], ["green", "blue", "red"]) is False
    assert verify_rule('Zone(t,"blue") -> Move(t,"down")', ["right", "down"], ["green", "blue", "red"]) is True
    assert [t["function"]["name"] for t in TOOL_SCHEMAS] == [
        "LocateStart", "InspectGrid", "ExecuteMove", "VerifyRule", "VerifyEndpoint"]


def test_tools_are_pure_functions_of_their_input():
    img = render_maze(regular(), 128)
    before = img.copy()
    a = locate_start(img)
    b = execute_move(a, "right")
    assert np.array_equal(img, before)  # inputs are never modified
    assert np.array_equal(locate_start(img), a) and np.array_equal(execute_move(a, "right"), b)
    assert np.array_equal(execute_move(b, "left"), a)  # moving back restores the exact pixels


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_chained_tools_reproduce_the_ground_truth(pools, scenario):
    """>= 200 matched pairs per scenario: marker path = ground-truth path, every VerifyRule true,
    VerifyEndpoint true; the other candidate path fails VerifyRule or never ends on a target."""
    pairs = list(match_pool(builtin_rules(scenario), pools[scenario], per_rule=8))
    assert len(pairs) >= 200
    for k, pair in enumerate(pairs):
        image = render_maze(pair.maze, 256)
        trace = run_trace(image, pair.rule.natural_language, pair.ground_truth)
        tools = [s["tool"] for s in trace]
        assert tools == (["LocateStart", "InspectGrid"] + ["ExecuteMove", "InspectGrid", "VerifyRule"]
                         * len(pair.ground_truth) + ["VerifyEndpoint"])
        marks = [tuple(s["output"]) for s in trace if s["tool"] in ("LocateStart", "ExecuteMove")]
        assert tuple(marks) == pair.ground_truth_path
        assert all(s["output"] for s in trace if s["tool"] == "VerifyRule")
        assert trace[-1]["output"] is True
        states = [s["output"] for s in trace if s["tool"] == "InspectGrid"]
        assert verify_rule(pair.rule, pair.ground_truth, states, complete=True)
        if k % 4 == 0:
            other = next(p for p in pair.paths if p != pair.ground_truth_path)
            bad = run_trace(image, pair.rule.natural_language, path_to_actions(other))
            assert not all(s["output"] for s in bad if s["tool"] == "VerifyRule")
