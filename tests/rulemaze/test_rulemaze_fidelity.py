"""RuleMaze fidelity to the authors' pipeline (issue 16): rule files in the authors' layout,
the authors' colouring and difficulty tiers, and detect-and-revise traces.

The authors' facts used here are listed in /work/shared/papers/README.md: their pool paints
whole path interiors (2.2% of mazes uncoloured, 4.86 coloured cells, two colours in 63%), their
rule files are lists of lists of {natural_language, cnf_style, difficulty: Easy/Medium/Hard},
and their matched data keeps wrong paths with the first violation (``wrong_idx``).
"""

import json
from pathlib import Path

import numpy as np
import pytest

from svot.cli import main
from svot.errors import ConfigError, RuleError
from svot.rulemaze import symbols as S
from svot.rulemaze.dataset import build_item, make_config, rule_groups, select_items
from svot.rulemaze.errors import RuleFileError
from svot.rulemaze.matching import evaluate_paths
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.pool import generate_maze, generate_pool, maze_rng
from svot.rulemaze.pool_stats import match_rate, pool_stats
from svot.rulemaze.rules import builtin_rules, compile_rule, load_rules
from svot.rulemaze.rules.analysis import authors_difficulty
from svot.rulemaze.rules.bank import tier_changes
from svot.rulemaze.rules.parser import parse_formula
from svot.rulemaze.tools_logic import first_violation
from svot.rulemaze.trajectory import Trajectory

AUTHORS_FILE = Path(__file__).parent / "data" / "authors_layout_rules.json"


# ---------------------------------------------------------------- item 5: the authors' rule files
def test_authors_layout_loads_with_the_authors_tiers():
    rules = load_rules(AUTHORS_FILE, tiers="authors")
    assert [r.id for r in rules] == [f"authors_layout_rules-{i:03d}" for i in range(1, 6)]
    assert [r.scenario for r in rules] == [S.REGULAR] * 3 + [S.QUEST] * 2
    assert rules[0].logic == 'Zone(t,"blue")'  # backticks and quotes stripped
    assert rules[0].natural_language.startswith("Only step")
    assert [r.difficulty_under("authors") for r in rules] == ["easy", "medium", "medium", "medium", "hard"]
    assert [r.difficulty for r in rules] == ["easy", "medium", "medium", "easy", "medium"]


def test_authors_labels_against_the_paper_tiers_say_what_to_do():
    with pytest.raises(RuleFileError) as info:
        load_rules(AUTHORS_FILE)  # rule #3: Count is Medium for the authors, easy by connectives
    msg = str(info.value)
    assert "rule #3" in msg and "stated 'Medium'" in msg and "'easy' under the paper tiers" in msg
    assert "--difficulty-tiers authors" in msg and info.value.field == "difficulty"


def test_unknown_label_and_mixed_predicates(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps([[{"natural_language": "x", "cnf_style": 'NOT Move(t,"up")',
                                 "difficulty": "Trivial"}]]))
    with pytest.raises(RuleFileError, match="any case"):
        load_rules(bad)
    bad.write_text(json.dumps([{"natural_language": "x", "cnf_style": 'Zone(t,"blue") -> Seen("Key")'}]))
    with pytest.raises(RuleFileError, match="add a 'scenario' field"):
        load_rules(bad)
    bad.write_text(json.dumps([{"natural_language": "x", "cnf_style": "NOT Moved(up)", "logic": "x"}]))
    with pytest.raises(RuleFileError, match="not both"):
        load_rules(bad)


def test_export_accepts_the_authors_file_with_their_tiers(tmp_path):
    cfg = make_config(tmp_path / "o", ["regular"], rules=AUTHORS_FILE, difficulty_tiers="authors")
    assert cfg.difficulty_tiers == "authors"
    with pytest.raises(RuleError, match="--difficulty-tiers authors"):
        make_config(tmp_path / "o", ["regular"], rules=AUTHORS_FILE)


# ---------------------------------------------------------------- item 3: difficulty tiers
def test_authors_tiers_follow_their_prompt_examples():
    # state-1 prompt: "Easy (1 dimension): Never enter yellow", "Medium (2 dimensions): If in
    # blue, must move right", "Hard (3+ dimensions): If moved up into blue_green, must move right
    # next"; quest: "Medium: Count", "Hard: (TargetIs(A) -> ...) AND (TargetIs(B) -> ...)".
    cases = {'NOT Zone(t,"yellow")': "easy", 'Zone(t,"blue") -> Move(t,"right")': "medium",
             '(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")': "hard",
             'Seen("Key")': "easy", 'NOT Moved("up")': "easy", 'Count("Food",>=,2)': "medium",
             '(TargetIs("Princess") -> Seen("Key")) AND (TargetIs("Treasure") -> Seen("Food"))': "hard"}
    for logic, tier in cases.items():
        assert authors_difficulty(parse_formula(logic)) == tier, logic


def test_bank_groupings_under_both_tiers():
    reg, quest = tier_changes(S.REGULAR), tier_changes(S.QUEST)
    assert len(reg) == 7 and len(quest) == 16
    for sc in S.SCENARIOS:
        rules = builtin_rules(sc)
        paper, authors = rule_groups(rules, "paper"), rule_groups(rules, "authors")
        assert paper["train"] == authors["train"]  # seen/unseen does not move
        assert sum(len(paper[f"unseen-{d}"]) for d in ("easy", "medium", "hard")) == 12
        assert sum(len(authors[f"unseen-{d}"]) for d in ("easy", "medium", "hard")) == 12
        assert all(len(paper[f"unseen-{d}"]) == 4 for d in ("easy", "medium", "hard"))
    ids = {sc: rule_groups(builtin_rules(sc), "authors") for sc in S.SCENARIOS}
    # by hand: Move(t-1) -> Zone(t) has two predicates and two steps (3 dimensions): hard;
    # two Zone atoms at one step (1 dimension): easy; a target-conditional rule: hard
    assert "regular-medium-07" in [r.id for r in ids[S.REGULAR]["unseen-hard"]]
    assert "regular-medium-10" in [r.id for r in ids[S.REGULAR]["unseen-easy"]]
    assert "quest-medium-07" in [r.id for r in ids[S.QUEST]["unseen-hard"]]
    assert "quest-easy-08" in [r.id for r in ids[S.QUEST]["unseen-medium"]]  # Count


# ---------------------------------------------------------------- item 3: colouring
@pytest.fixture(scope="module")
def authors_pool():
    return generate_pool("RegularMaze", 3, 400, seed=21, coloring="authors")


def test_authors_colouring_paints_whole_path_interiors(authors_pool):
    for m in authors_pool:
        paths = solution_paths(m)
        assert len(paths) == 2
        painted = {c for row in m.cells for c in row if c in S.COLOURS}
        if not painted:  # only when the path chosen first has no interior (start next to goal)
            assert any(len(p) == 2 for p in paths), m.to_text()
        # the path painted first has its whole interior coloured (later paint only recolours)
        assert any(all(m.symbol(c) in S.COLOURS for c in p[1:-1]) for p in paths), m.to_text()
        assert m.symbol(m.start) == "green" and all(m.symbol(g) == "red" for g in m.goals)
        off_path = {(r, c) for r in range(3) for c in range(3)} - {c for p in paths for c in p}
        assert all(m.symbol(c) == "white" for c in off_path)


def test_colouring_statistics_differ_as_measured(authors_pool):
    paper = pool_stats(generate_pool("RegularMaze", 3, 400, seed=21))
    authors = pool_stats(authors_pool)
    # authors' generator: 2.2% uncoloured, 4.86 cells, two colours in 63%; Alg. 4: 20%+ unpainted, one colour
    assert authors["uncoloured_share"] < 0.06 < 0.2 < paper["uncoloured_share"]
    assert authors["coloured_cells_mean"] > 4 > 1.5 > paper["coloured_cells_mean"]
    assert paper["two_colours_share"] == 0 and 0.5 < authors["two_colours_share"] < 0.75


def test_authors_colouring_is_seeded():
    a = generate_maze("RegularMaze", 3, maze_rng(5, 7), coloring="authors")
    b = generate_maze("RegularMaze", 3, maze_rng(5, 7), coloring="authors")
    assert a == b and a.cells == b.cells
    with pytest.raises(Exception, match="coloring"):
        generate_pool("RegularMaze", 3, 2, coloring="painted")


def test_only_pink_matches_under_both_colourings(authors_pool, regular_pool):
    # Zone(t,"pink") with the green start and red goal exempt (valid_defaults)
    assert match_rate('Zone(t,"pink")', authors_pool) > 0
    assert match_rate('Zone(t,"pink")', regular_pool) > 0


def test_pool_command_prints_the_match_rate(tmp_path, capsys):
    rc = main(["rulemaze", "pool", "--count", "30", "--out", str(tmp_path), "--scenario", "regular",
               "--coloring", "authors", "--quiet"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "coloring=authors" in out and "bank rules match" in out and "uncoloured_share" in out
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["pools"]["RegularMaze-3x3.jsonl"]["coloring"] == "authors"


# ---------------------------------------------------------------- item 4: detect-and-revise
@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_revise_traces_fail_once_and_recover(pools, scenario):
    # (the small RegularMaze test part has too few mazes for every unseen rule)
    items = select_items(scenario, pools[scenario], builtin_rules(scenario), 4, train=40,
                         test_per_group=1 if scenario == S.QUEST else 0, revise_share=0.5)
    revise = [s for s in items["train"] if s.revise]
    assert 0 < len(revise) < len(items["train"]) and not any(s.revise for s in items["test"])
    for spec in revise[:6]:
        rec = build_item(spec, 96)
        verdicts = [json.loads(t["output"]) for t in rec["trace"] if t["tool"] == "VerifyRule"]
        assert verdicts.count(False) == 1
        # wrong_idx: the move whose VerifyRule failed, first violation of a wrong candidate
        assert verdicts.index(False) == rec["wrong_idx"] == len(rec["wrong_actions"]) - 1
        result = evaluate_paths(spec.rule, spec.maze)
        wrong = [p for p, ok in zip(result.paths, result.verdicts) if not ok]
        assert any(first_violation(spec.rule, spec.maze, p) == rec["wrong_idx"] + 1 for p in wrong)
        # the prefix up to the wrong move is not compliant with any completion ...
        path = next(p for p in wrong if list(Trajectory.from_path(spec.maze, p).actions[:len(
            rec["wrong_actions"])]) == rec["wrong_actions"])
        full = Trajectory.from_path(spec.maze, path)
        assert not compile_rule(spec.rule).check(full)
        # ... and the trace still ends on the ground truth with the endpoint reached
        assert json.loads(rec["trace"][-1]["output"]) is True
        assert rec["messages"][-1]["content"].endswith(", ".join(rec["ground_truth"]))
    plain = build_item(next(s for s in items["train"] if not s.revise), 96)
    assert plain["wrong_idx"] == -1 and plain["wrong_actions"] == []


def test_revise_share_is_validated(tmp_path):
    with pytest.raises(ConfigError, match="revise_share"):
        make_config(tmp_path, revise_share=1.5)
    assert np.isclose(make_config(tmp_path).revise_share, 0.2)
