"""r_c: keyword extraction is the inverse of the dataset's chain builder; Eq. 6 over keyword fields."""

from __future__ import annotations

import pytest

from svot.dataset import iter_split
from svot.metrics import (
    MetricError,
    extract_keywords,
    field_group,
    reasoning_reward,
    visual_chain_fields,
    visual_reasoning_reward,
)
from svot.metrics.reasoning import keyword_dict

# (domain, size, split, maps): OOD splits carry longer sequences and more objects, so more blocked moves
CASES = [
    ("maze", 5, "test_ood", 12),
    ("frozenlake", 4, "test_ood", 12),
    ("sokoban", 5, "test_ood", 20),  # 20 maps: a push blocked by a second block occurs (seed 0)
    ("sokoban", 6, "test_id", 8),
    ("pacman", 4, "test_ood", 12),
    ("gather", 5, "test_ood", 12),
    ("gather", 6, "test_id", 6),
]


@pytest.fixture(scope="module")
def generated_steps():
    out = []
    for d, n, split, maps in CASES:
        for inst in iter_split(d, n, split, seed=0, maps_per_split={split: maps}):
            out += [(d, s) for s in inst.steps]
    return out


def test_extraction_inverts_the_chain_builder_exactly(generated_steps):
    reasons = set()
    for d, s in generated_steps:
        assert extract_keywords(s.reasoning) == keyword_dict(s.keywords), (d, s.reasoning)
        assert reasoning_reward(s.reasoning, s.keywords).reward == 1.0
        reasons |= {k["value"] for k in s.keywords if k["field"] == "blocked_by"}
    # the sample covers applicable and blocked moves of several kinds
    assert {"edge", "wall", "block"} <= reasons
    fields = {k["field"] for _d, s in generated_steps for k in s.keywords}
    assert {"block_pushed_from", "coin_eaten_at", "balls_collected", "tile_after"} <= fields
    assert any(f.startswith("pre ") for f in fields)  # §3: precondition keywords (issue 14)


def test_exported_chains_score_one(exported_rows):
    for row in exported_rows:
        for s in row["steps"]:
            assert reasoning_reward(s["reasoning"], s["keywords"]).reward == 1.0


CHAIN = (
    "The player is at (3, 3) and the action is move left. (3, 2) is inside the grid and holds a block; "
    "(3, 1) is inside the grid, is not a wall and has no block, so the action applies: the player moves to (3, 2) "
    "and pushes the block from (3, 2) to (3, 1). Player position changes to (3, 2); block positions change: "
    "(3, 2) → (3, 1)."
)
KEYWORDS = [
    {"field": "player_before", "value": "(3, 3)"},
    {"field": "action", "value": "move left"},
    {"field": "applicable", "value": "applies"},
    {"field": "player_after", "value": "(3, 2)"},
    {"field": "block_pushed_from", "value": "(3, 2)"},
    {"field": "block_pushed_to", "value": "(3, 1)"},
]


def test_one_wrong_keyword_costs_one_field():
    wrong = CHAIN.replace("(3, 2) → (3, 1)", "(3, 2) → (3, 0)")
    s = reasoning_reward(wrong, KEYWORDS)
    assert s.matches["block_pushed_to"] is False and s.matches["block_pushed_from"] is True
    assert s.reward == pytest.approx(5 / 6)


def test_inapplicable_phrasing_is_read():
    text = (
        "The player is at (3, 1) and the action is move up. (2, 1) is inside the grid, but (2, 1) is a wall, "
        "so the action is not applicable and nothing changes. Player position remains (3, 1)."
    )
    assert extract_keywords(text) == {
        "player_before": ["(3, 1)"],
        "action": ["move up"],
        "applicable": ["not applicable"],
        "blocked_by": ["wall"],
        "blocked_cell": ["(2, 1)"],
        "pre wall (2, 1)": ["is a wall"],
        "player_after": ["(3, 1)"],
    }
    # saying it applies when it does not fails 'applicable' and the blocked fields
    claims = text.replace("but (2, 1) is a wall, so the action is not applicable and nothing changes", "so the action applies")
    truth = [{"field": k, "value": v[0]} for k, v in extract_keywords(text).items()]
    s = reasoning_reward(claims, truth)
    assert s.matches["applicable"] is False and s.matches["blocked_by"] is False and s.matches["player_after"] is True
    assert s.matches["pre wall (2, 1)"] is False  # the chain no longer states the wall


def test_lenient_spelling():
    text = "the player is at [0,0] and the action is Move Down 2. Player position changes to (2,0). Collected by this move: Red 1, green 0"
    got = extract_keywords(text)
    assert got["player_before"] == ["(0, 0)"] and got["action"] == ["move down 2"] and got["player_after"] == ["(2, 0)"]
    assert got["balls_collected"] == ["1 red ball"]  # svot's earlier wording, read as §5's "collects 1 red ball"


def test_fields_argument_and_truth_errors():
    s = reasoning_reward(CHAIN, KEYWORDS, fields=("player_before", "player_after"))
    assert set(s.matches) == {"player_before", "player_after"} and s.reward == 1.0
    with pytest.raises(MetricError):
        reasoning_reward(CHAIN, KEYWORDS, fields=("tile_after",))
    with pytest.raises(MetricError):
        reasoning_reward(CHAIN, [])
    with pytest.raises(MetricError):
        reasoning_reward(CHAIN, "player_before: (3, 3)")
    with pytest.raises(MetricError):
        reasoning_reward(CHAIN, [{"field": "action"}])
    # a mapping works as the truth too
    assert reasoning_reward(CHAIN, {"action": "move left", "player_after": "(3, 2)"}).reward == 1.0


def test_field_groups_for_tables():
    assert field_group("balls_collected_red") == "balls_collected"
    assert field_group("pre block (1, 3)") == "preconditions"
    assert field_group("collected_blue") == "collected"
    assert field_group("collected_after") == "collected_after"
    assert field_group("block_pushed_to") == "blocks"
    assert field_group("player_before") == "player_before"


def test_visual_chain_fields_and_reward(generated_steps):
    for _d, s in generated_steps[:300]:
        assert visual_chain_fields(s.reasoning_visual)
        assert visual_reasoning_reward(s.reasoning_visual, s.reasoning_visual).reward == 1.0
    truth = "Drawing the image after action 1 (move right 3): (3, 0): the player leaves; (3, 3): a red ball leaves, the player arrives. Every other cell stays as it was."
    assert visual_chain_fields(truth) == {"(3, 0)": "the player leaves", "(3, 3)": "a red ball leaves; the player arrives"}
    reordered = "(3,3): the player arrives, a red ball leaves; (3, 0): the player leaves"
    assert visual_reasoning_reward(reordered, truth).reward == 1.0
    missed = "(3, 0): the player leaves; (3, 3): the player arrives"
    assert visual_reasoning_reward(missed, truth).reward == 0.5
    same = "Drawing the image after action 2 (move up 1): no cell changes, so the image is the same as the previous one."
    assert visual_chain_fields(same) == {"changes": "none"}
    with pytest.raises(MetricError):
        visual_reasoning_reward("x", "nothing readable here")


def test_generic_effect_clauses_of_several_items_read_back_whole():
    """A move that collects a second item writes two items in one effect clause and leaves none on the board:
    the clause's value must not hold ``;`` (it ends the clause) and an empty value reads ``none``. Found by a
    ground-truth export scoring r_c = 0.978 on a QuestMaze map."""
    from tests.dataset.test_dataset_transitions import chains

    state = {"domain": "questmaze", "size": 3, "player": [0, 0], "princess": [2, 2], "treasure": [2, 0],
             "items": {"key": [[0, 1]], "heart": [[0, 2]]}, "collected": {}, "reached": "none",
             "walls_right": [], "walls_down": []}
    right = 3
    first, second = chains(state, [right, right])
    assert "items: heart (0, 2); collected: key (0, 1)." in first.text
    assert "items: none; collected: key (0, 1), heart (0, 2)." in second.text
    for c in (first, second):
        assert extract_keywords(c.text) == keyword_dict(c.keywords), c.text
        assert reasoning_reward(c.text, c.keywords).reward == 1.0
