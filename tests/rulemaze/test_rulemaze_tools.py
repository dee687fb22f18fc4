import pytest

from svot.errors import ActionError
from svot.rulemaze import symbols as S
from svot.rulemaze.matching import match_pool
from svot.rulemaze.maze import Maze
from svot.rulemaze.rules import builtin_rules
from svot.rulemaze.trajectory import path_to_actions
from svot.rulemaze.tools_logic import (OUT_OF_BOUNDS, TOOL_SCHEMAS, execute_move, inspect_grid,
                                       locate_start, symbolic_trace, tool_schemas, verify_endpoint,
                                       verify_rule)


def regular():
    # (0,0) green -> (0,1) blue -> (1,1) red ; (1,0) white ; wall between (0,0) and (1,0)
    return Maze("RegularMaze", 2, (0, 0), ((1, 1),),
                (((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 0), (1, 1))),
                (("green", "blue"), ("white", "red")))


def test_perception_free_tools():
    m = regular()
    pos = locate_start(m)
    assert pos == (0, 0) and inspect_grid(m, pos) == "green"
    assert inspect_grid(m, (1, 0)) == "normal"  # white reads normal (Alg. 6)
    assert execute_move(pos, "down") == (1, 0)  # through a wall: not checked (Alg. 7)
    assert execute_move(pos, "UP") == (-1, 0)
    assert inspect_grid(m, (-1, 0)) == OUT_OF_BOUNDS
    with pytest.raises(ActionError, match="unknown action 'jump'"):
        execute_move(pos, "jump")
    assert verify_endpoint(m, (1, 1)) and not verify_endpoint(m, (0, 1))
    assert not verify_endpoint(m, (5, 5))


def test_verify_endpoint_quest_targets():
    m = Maze("QuestMaze", 2, (0, 0), ((0, 1), (1, 1)), (((0, 0), (0, 1)), ((0, 0), (1, 0))),
             (("prince", "princess"), ("key", "treasure")))
    assert verify_endpoint(m, (0, 1)) and verify_endpoint(m, (1, 1))
    assert verify_endpoint(m, (0, 1), "princess") and not verify_endpoint(m, (0, 1), "Treasure")


def test_verify_rule_complete_partial_and_lookup():
    rule = "If you are in a blue cell, your next move must be right."  # bank NL text
    assert verify_rule(rule, ["right", "down"], ["green", "blue", "red"]) is False
    assert verify_rule(rule.upper(), ["right"], ["green", "blue"]) is True  # partial: not yet
    assert verify_rule('Zone(t,"blue") -> Move(t,"right")', ["right", "right"],
                       ["green", "blue", "normal"]) is True
    assert verify_rule(rule, ["right", "down"], ["blue", "red"]) is False  # s_1..s_t form
    assert verify_rule("some rule nobody wrote", ["up"], ["green", "red"]) is False  # unknown
    assert verify_rule(rule, ["fly"], ["green", "red"]) is False
    assert verify_rule(rule, ["up"], ["green", "normal", "red"]) is False  # length mismatch
    # physical validity when the maze is known
    m = regular()
    assert verify_rule('NOT Zone(t,"yellow")', ["down", "right"], ["green", "normal", "red"]) is True
    assert verify_rule('NOT Zone(t,"yellow")', ["down", "right"], ["green", "normal", "red"], maze=m) is False
    # quest: Seen is judged at the end only
    assert verify_rule('Seen("Key")', ["down"], ["prince", "normal"]) is True
    assert verify_rule('Seen("Key")', ["down", "right"], ["prince", "normal", "treasure"]) is False
    assert verify_rule('Seen("Key")', ["down"], ["normal"], complete=True) is False


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_trace_reproduces_ground_truth(pools, scenario):
    pairs = list(match_pool(builtin_rules(scenario), pools[scenario], per_rule=10))
    assert len({p.rule.id for p in pairs}) == 30 and len(pairs) > 250
    for pair in pairs:
        trace = symbolic_trace(pair.maze, pair.rule.natural_language, pair.ground_truth)
        tools = [s["tool"] for s in trace]
        assert tools[:2] == ["LocateStart", "InspectGrid"] and tools[-1] == "VerifyEndpoint"
        assert tools[2:-1] == ["ExecuteMove", "InspectGrid", "VerifyRule"] * len(pair.ground_truth)
        positions = [tuple(trace[0]["output"])] + [tuple(s["output"]) for s in trace
                                                     if s["tool"] == "ExecuteMove"]
        assert tuple(positions) == pair.ground_truth_path
        assert all(s["output"] for s in trace if s["tool"] == "VerifyRule")
        assert trace[-1]["output"] is True
        # the other candidate path fails verification somewhere (at the end at the latest)
        other = [p for p in pair.paths if p != pair.ground_truth_path][0]
        bad = symbolic_trace(pair.maze, pair.rule.natural_language, path_to_actions(other))
        assert not all(s["output"] for s in bad if s["tool"] == "VerifyRule")


def test_tool_schemas_are_well_formed():
    names = [t["function"]["name"] for t in TOOL_SCHEMAS]
    assert names == ["LocateStart", "InspectGrid", "ExecuteMove", "VerifyRule", "VerifyEndpoint"]
    for tool in TOOL_SCHEMAS:
        assert tool["type"] == "function"
        fn = tool["function"]
        params = fn["parameters"]
        assert fn["description"] and params["type"] == "object"
        assert set(params["required"]) <= set(params["properties"])
        for prop in params["properties"].values():
            assert prop["type"] in ("string", "array") and prop["description"]
    move = TOOL_SCHEMAS[2]["function"]["parameters"]["properties"]["action"]
    assert move["enum"] == ["up", "down", "left", "right"]
    copy = tool_schemas()
    copy[0]["function"]["name"] = "x"
    assert TOOL_SCHEMAS[0]["function"]["name"] == "LocateStart"
