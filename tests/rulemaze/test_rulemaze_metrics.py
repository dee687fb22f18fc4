import pytest

from svot.rulemaze.metrics import (Scores, correct_prefix, exact_match, parse_actions,
                                   precision_rate, score, score_by_group)

GT = ["up", "right", "right", "down"]


@pytest.mark.parametrize("pred, em, pr", [
    (GT, 1.0, 1.0),
    (["up", "right", "left", "down"], 0.0, 0.5),  # PR counts the correct prefix only
    (["down", "right", "right", "down"], 0.0, 0.0),  # later agreement does not count
    (["up", "right", "right"], 0.0, 0.75),  # too short
    (GT + ["left"], 0.0, 1.0),  # extra move: not an exact match, PR capped at 1
    ([], 0.0, 0.0),
])
def test_em_pr_hand_cases(pred, em, pr):
    assert exact_match(pred, GT) == em
    assert precision_rate(pred, GT) == pr


def test_literal_eq2_ignores_trailing_moves():
    assert exact_match(GT + ["left"], GT, strict=False) == 1.0
    assert exact_match(GT[:3], GT, strict=False) == 0.0
    assert correct_prefix(GT + ["left"], GT) == 4


def test_empty_ground_truth():
    assert precision_rate([], []) == 1.0 and precision_rate(["up"], []) == 0.0


@pytest.mark.parametrize("raw, parsed", [
    ("up, right, right, down", GT),
    ('["up", "right", "right", "down"]', GT),
    ("Answer: up -> right -> right -> down", GT),
    ("UP RIGHT RIGHT DOWN.", GT),
    ("['up', 'right', 'right', 'down']", GT),
    (("up", "right"), ["up", "right"]),
    ("[]", []),
    ("up → left", ["up", "left"]),
    ("", None),
    ("   ", None),
    ("go up then right", None),
    ("up, north", None),
    ("[1, 2]", None),
    ('{"actions": ["up"]}', None),
    (None, None),
    (42, None),
    (["up", 3], None),
    (b"up", None),
    pytest.param("[" * 5000, None, id="deep-brackets"),
    ("[[", None),
])
def test_parse_actions_never_raises(raw, parsed):
    assert parse_actions(raw) == parsed


def test_score_counts_malformed_and_averages():
    preds = [GT, "up, right, left, down", "I cannot solve this", None]
    s = score(preds, [GT] * 4)
    assert s == Scores(em=0.25, pr=(1 + 0.5) / 4, n=4, malformed=2)
    assert s.as_percent() == {"EM": 25.0, "PR": 37.5, "n": 4, "malformed": 2}
    with pytest.raises(ValueError, match="2 predictions for 1"):
        score([GT, GT], [GT])
    assert score([], []) == Scores(0.0, 0.0, 0, 0)


def test_ground_truth_fed_back_scores_100(regular_pool):
    from svot.rulemaze.matching import match_pool
    from svot.rulemaze.rules import builtin_rules
    pairs = list(match_pool(builtin_rules("regular"), regular_pool[:100], per_rule=3))
    truths = [p.ground_truth for p in pairs]
    assert score(truths, truths) == Scores(1.0, 1.0, len(truths), 0)
    as_text = [", ".join(t) for t in truths]
    groups = [p.rule.difficulty for p in pairs]
    by = score_by_group(as_text, truths, groups)
    assert set(by) == {"easy", "medium", "hard"}
    assert all(s.em == 1.0 and s.pr == 1.0 and s.malformed == 0 for s in by.values())
