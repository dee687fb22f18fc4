import json
from collections import Counter

import numpy as np
import pytest

from svot import errors as project_errors
from svot.rulemaze import symbols as S
from svot.rulemaze.errors import RuleFileError
from svot.rulemaze.matching import match
from svot.rulemaze.rules import (builtin_rules, connective_count, difficulty, format_formula,
                                 load_rules, parse_formula, sample_rule, sample_rules,
                                 semantic_types)
from svot.rulemaze.rules.bank import BANK_SOURCES
from svot.rulemaze.rules.sampler import is_well_formed


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_bank_shape(scenario):
    rules = builtin_rules(scenario)
    assert len(rules) == 30
    assert Counter(r.difficulty for r in rules) == {"easy": 10, "medium": 10, "hard": 10}
    for d in ("easy", "medium", "hard"):
        splits = Counter(r.split for r in rules if r.difficulty == d)
        assert splits == {"seen": 6, "unseen": 4}
    assert len({r.id for r in rules}) == 30
    assert len({r.logic for r in rules}) == 30
    assert len({r.natural_language for r in rules}) == 30
    assert all(r.scenario == scenario for r in rules)


@pytest.mark.parametrize("rid, stated, split, text, logic",
                         [row for rows in BANK_SOURCES.values() for row in rows])
def test_bank_rule_parses_prints_reparses_and_lands_in_its_difficulty(rid, stated, split, text, logic):
    scenario = S.REGULAR if rid.startswith("regular") else S.QUEST
    tree = parse_formula(logic, scenario)
    printed = format_formula(tree)
    assert printed == logic  # bank logic is written canonically
    assert parse_formula(printed, scenario) == tree
    assert difficulty(tree) == stated
    assert text[0].isupper() and text.endswith(".")


def test_difficulty_examples_from_the_issue():
    assert difficulty(parse_formula('NOT Zone(t,"yellow")')) == "easy"
    assert difficulty(parse_formula('Zone(t,"blue") -> Move(t,"right")')) == "medium"
    assert difficulty(parse_formula('(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")')) == "hard"
    assert connective_count(parse_formula('NOT NOT Seen(key)')) == 0
    assert difficulty(parse_formula('Seen(key) AND Seen(food) OR Seen(heart) -> Moved(up)')) == "hard"


@pytest.mark.parametrize("logic, types", [
    ('NOT Zone(t,"yellow")', {"prohibition"}),
    ('Zone(t,"blue") -> Move(t,"right")', {"direction-dependent", "requirement"}),
    ('(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")',
     {"direction-dependent", "history-dependent", "requirement"}),
    ('Seen("Key")', {"history-dependent", "requirement"}),
    ('TargetIs("Treasure")', {"requirement"}),
    ('Count("Total_Items",<=,1)', {"history-dependent", "prohibition"}),
    ('NOT Count("Food",<,2)', {"history-dependent", "requirement"}),
    ('Count("Key",==,1)', {"history-dependent", "requirement", "prohibition"}),
    ('Seen("Key") -> NOT Moved("up")', {"direction-dependent", "history-dependent", "prohibition"}),
])
def test_semantic_types(logic, types):
    assert set(semantic_types(parse_formula(logic))) == types


@pytest.mark.parametrize("scenario", S.SCENARIOS)
def test_every_bank_rule_matches_some_pool_maze(pools, scenario):
    for rule in builtin_rules(scenario):
        assert any(match(rule, m) is not None for m in pools[scenario]), rule.id


@pytest.mark.parametrize("scenario", S.SCENARIOS)
@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_sampler_produces_well_formed_rules_of_the_level(scenario, level):
    rng = np.random.default_rng(17)
    n = 4 if (scenario, level) == (S.REGULAR, "easy") else 25  # only 14 easy RegularMaze rules exist
    rules = sample_rules(scenario, level, n, rng, exclude=builtin_rules(scenario))
    assert len({r.logic for r in rules}) == n
    bank = {r.logic for r in builtin_rules(scenario)}
    for r in rules:
        assert r.difficulty == level and r.scenario == scenario
        tree = parse_formula(r.logic, scenario)
        assert format_formula(tree) == r.logic and r.logic not in bank
        assert is_well_formed(tree, scenario)
        text = r.natural_language
        assert text[0].isupper() and text.endswith(".") and "  " not in text
        assert "_" not in text  # blue_green is written blue-green
        assert r.id.startswith(f"sampled-{'regular' if scenario == S.REGULAR else 'quest'}-{level}-")


def test_sampler_is_deterministic_and_varied():
    a = [sample_rule("quest", "hard", np.random.default_rng(3)).logic for _ in range(3)]
    b = [sample_rule("quest", "hard", np.random.default_rng(3)).logic for _ in range(3)]
    assert a == b
    rng = np.random.default_rng(4)
    assert len({sample_rule("regular", "medium", rng).logic for _ in range(30)}) > 10


def test_sampled_english_mentions_each_atom_value():
    rng = np.random.default_rng(8)
    for scenario in S.SCENARIOS:
        for level in ("easy", "medium", "hard"):
            for r in sample_rules(scenario, level, 12, rng):
                text = r.natural_language.lower()
                for value in _atom_values(r.formula):
                    assert value.replace("_", "-") in text, (r.natural_language, r.logic)


def _atom_values(tree):
    from svot.rulemaze.rules import ast as A
    out = []
    for a in A.atoms(tree):
        for name in ("colour", "direction", "target"):
            if hasattr(a, name):
                out.append(getattr(a, name))
        if isinstance(a, (A.Seen, A.Count)):
            out.append({"total_items": "item", "food": "food"}.get(a.item, a.item))
    return out


def test_sampler_reports_an_exhausted_space():
    with pytest.raises(ValueError, match="distinct new easy RegularMaze"):
        sample_rules("regular", "easy", 30, np.random.default_rng(0))


def test_well_formed_rejects_tautologies_and_contradictions():
    assert not is_well_formed(parse_formula('Seen(key) OR NOT Seen(key)'), "quest")
    assert not is_well_formed(parse_formula('Moved(up) AND NOT Moved(up)'), "quest")
    assert not is_well_formed(parse_formula('Move(t,"up") OR NOT Move(t,"up")'), "regular")
    assert is_well_formed(parse_formula('Seen(key)'), "quest")


# ---------------------------------------------------------------- JSON loading
def write(tmp_path, data, name="rules.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


GOOD = {"id": "my-1", "natural_language": "Never enter a pink cell.", "logic": 'not zone(t, pink)',
        "scenario": "RegularMaze"}


def test_load_rules_ok(tmp_path):
    rules = load_rules(write(tmp_path, [GOOD, {**GOOD, "id": "my-2", "difficulty": "easy",
                                                "semantic_type": ["prohibition"], "split": "unseen"}]))
    assert [r.id for r in rules] == ["my-1", "my-2"]
    assert rules[0].logic == 'NOT Zone(t,"pink")' and rules[0].difficulty == "easy"
    assert load_rules(write(tmp_path, {"rules": [GOOD]}, "wrapped.json"))[0].id == "my-1"


@pytest.mark.parametrize("records, index, field, needle", [
    ([GOOD, {**GOOD, "id": "x", "logic": 'Zone(t,"teal")'}], 1, "logic", "unknown colour 'teal'"),
    ([{**GOOD, "logic": 'Seen("Key")'}], 0, "logic", "not available in RegularMaze"),
    ([{k: v for k, v in GOOD.items() if k != "natural_language"}], 0, "natural_language", "missing"),
    ([{**GOOD, "natural_language": "  "}], 0, "natural_language", "non-empty string"),
    ([{**GOOD, "scenario": "Chess"}], 0, "scenario", "unknown scenario"),
    ([{**GOOD, "difficulty": "hard"}], 0, "difficulty", "stated 'hard'"),
    ([{**GOOD, "semantic_type": ["requirement"]}], 0, "semantic_type", "logic gives"),
    ([{**GOOD, "split": "train"}], 0, "split", "expected one of"),
    ([{**GOOD, "natural_langauge": "x"}], 0, "natural_langauge", "unknown field"),
    ([GOOD, GOOD], 1, "id", "duplicate id 'my-1'"),
    ([{**GOOD, "id": "regular-easy-01"}], 0, "id", "built-in bank"),
    ([GOOD, "not a rule"], 1, None, "expected a JSON object"),
])
def test_load_rules_errors_name_file_index_and_field(tmp_path, records, index, field, needle):
    path = write(tmp_path, records)
    with pytest.raises(RuleFileError) as info:
        load_rules(path)
    err = info.value
    msg = str(err)
    assert str(path) in msg and f"rule #{index}" in msg and needle in msg
    assert err.index == index and err.field == field
    if field:
        assert f"field {field!r}" in msg
    assert isinstance(err, project_errors.RuleError)


def test_load_rules_logic_error_keeps_the_caret(tmp_path):
    with pytest.raises(RuleFileError) as info:
        load_rules(write(tmp_path, [{**GOOD, "logic": 'Zone(t,"pink") AND'}]))
    assert "at column 19" in str(info.value) and str(info.value).rstrip().endswith("^")


@pytest.mark.parametrize("content, needle", [
    ("[1, 2", "invalid JSON at line 1"),
    ('{"items": []}', 'expected a list of rules or an object'),
    ('"text"', "expected a list of rules"),
])
def test_load_rules_file_level_errors(tmp_path, content, needle):
    path = write(tmp_path, content)
    with pytest.raises(RuleFileError, match=needle) as info:
        load_rules(path)
    assert str(path) in str(info.value)


def test_load_rules_missing_file(tmp_path):
    with pytest.raises(RuleFileError, match="cannot read"):
        load_rules(tmp_path / "nope.json")
