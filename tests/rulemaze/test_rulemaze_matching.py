import numpy as np
import pytest
from rulemaze_helpers import open_grid, simple_paths

from svot.rulemaze import symbols as S
from svot.rulemaze.matching import (compliant_paths, compliant_paths_pruned, evaluate_paths, match,
                                    match_pool)
from svot.rulemaze.maze import Maze
from svot.rulemaze.rules import builtin_rules, compile_rule
from svot.rulemaze.trajectory import Trajectory


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_every_matched_pair_has_a_unique_compliant_path(pools, scenario):
    n = 0
    for result in match_pool(builtin_rules(scenario), pools[scenario]):
        n += 1
        assert result.unique and result.restrictive and result.exists
        assert len(result.paths) == 2 and sum(result.verdicts) == 1
        maze, gt = result.maze, result.ground_truth
        cells = maze.walk(gt)
        assert cells is not None and tuple(cells) == result.ground_truth_path
        assert cells[-1] in maze.goals and len(set(cells)) == len(cells)
        v = compile_rule(result.rule)
        assert v.check(Trajectory.from_actions(maze, gt))
        other = [p for p in result.paths if p != result.ground_truth_path]
        assert not any(v.check(Trajectory.from_path(maze, p)) for p in other)
    assert n > 1000


def test_match_rejects_unrestrictive_and_impossible(regular_pool):
    never_red = 'NOT Zone(t,"red")'  # every path ends on red: S_valid empty
    always = 'NOT Zone(t,"green") OR Zone(t,"green")'  # S_valid = S_total
    for m in regular_pool[:50]:
        assert match(never_red, m) is None and evaluate_paths(never_red, m).valid_paths == ()
        assert match(always, m) is None and not evaluate_paths(always, m).restrictive


def test_unique_flag_and_shortest_ground_truth():
    # Open 3x3 grid: 12 corner-to-corner paths; "never move left or up" keeps the 6 monotone ones.
    m = open_grid(S.REGULAR, np.random.default_rng(1))
    rule = 'NOT Move(t,"left") AND NOT Move(t,"up")'
    res = evaluate_paths(rule, m)
    assert len(res.paths) == 12 and len(res.valid_paths) == 6
    assert match(rule, m) is None  # not unique
    loose = match(rule, m, unique=False)
    assert loose is not None and len(loose.ground_truth) == 4
    assert loose.ground_truth == min((tuple(a for a in Trajectory.from_path(m, p).actions)
                                      for p in loose.valid_paths if len(p) == 5),
                                     key=lambda acts: m.walk(acts))
    d = loose.to_dict()
    assert len(d["candidates"]) == 12 and sum(c["valid"] for c in d["candidates"]) == 6


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_pruned_search_agrees_with_filtering(pools, scenario):
    rng = np.random.default_rng(5)
    mazes = pools[scenario][:200] + [open_grid(scenario, rng) for _ in range(40)]
    for rule in builtin_rules(scenario):
        for m in mazes:
            assert compliant_paths_pruned(rule, m) == compliant_paths(rule, m), (rule.id, m)


def test_pruned_search_really_prunes(monkeypatch):
    m = open_grid(S.REGULAR, np.random.default_rng(2))
    v = compile_rule('NOT Move(t,"left") AND NOT Move(t,"up")')
    calls = []
    original = type(v).status

    def counting(self, partial):
        calls.append(partial.length)
        return original(self, partial)

    monkeypatch.setattr(type(v), "status", counting)
    found = compliant_paths_pruned('NOT Move(t,"left") AND NOT Move(t,"up")', m)
    assert len(found) == 6
    # Without pruning the search would visit every prefix of all 12 paths (and dead ends).
    assert len(calls) < sum(len(p) for p in simple_paths(m))


def test_quest_paths_end_at_the_first_target():
    # prince (0,0) - princess (0,1) - treasure (0,2) in a row: the treasure is only
    # reachable through the princess, so the single solution path ends at the princess.
    cells = [["prince", "princess", "treasure"], ["grass"] * 3, ["grass"] * 3]
    m = Maze("QuestMaze", 3, (0, 0), ((0, 1), (0, 2)),
             (((0, 0), (0, 1)), ((0, 1), (0, 2))), cells)
    res = evaluate_paths('TargetIs("Treasure")', m)
    assert res.paths == (((0, 0), (0, 1)),) and res.verdicts == (False,)
    assert compliant_paths_pruned('TargetIs("Princess")', m) == (((0, 0), (0, 1)),)


def test_scenario_mismatch_is_an_error(regular_pool, quest_pool):
    with pytest.raises(ValueError, match="QuestMaze rule"):
        match(builtin_rules("quest")[0], regular_pool[0])
    with pytest.raises(ValueError, match="RegularMaze predicates"):
        match(compile_rule('NOT Zone(t,"blue")').formula, quest_pool[0])
    with pytest.raises(ValueError, match="not available in QuestMaze"):
        match('NOT Zone(t,"blue")', quest_pool[0])


def test_match_pool_per_rule_limit(regular_pool):
    rules = builtin_rules("regular", difficulty="easy")[:3]
    out = list(match_pool(rules, regular_pool, per_rule=5))
    assert len(out) == 15
    assert [r.rule.id for r in out] == [r.id for r in rules for _ in range(5)]
