"""r_z (Eq. 6): parsing predicted intermediate states and exact matches per field."""

from __future__ import annotations

import json

import pytest

from svot.metrics import STATE_FIELDS, MetricError, parse_action, parse_state, state_fields, state_reward

SOKO = {"domain": "sokoban", "size": 5, "player": [1, 0], "blocks": [[2, 1], [3, 3]], "goals": [[3, 1]], "walls": [[1, 2]]}
SOKO_Z = "Action 3: move down\nSokoban, 5x5 grid.\nPlayer: (1, 0)\nBlocks: (2, 1), (3, 3)\nGoals: (3, 1)\nWalls: (1, 2)"
GATHER = {
    "domain": "gather",
    "size": 4,
    "player": [3, 3],
    "collected": {"red": 1, "green": 0},
    "balls": {"red": [[0, 0]], "green": [[0, 1], [2, 2]]},
}


def test_every_ground_truth_step_scores_one(exported_rows):
    n = 0
    for row in exported_rows:
        for s in row["steps"]:
            score = state_reward(s["z_text"], json.loads(s["state"]), action=s["action_text"])
            assert score.reward == 1.0, (row["id"], s["step"], score.matches)
            assert set(score.matches) == set(STATE_FIELDS[row["domain"]])
            n += 1
    assert n > 300


def test_reasoning_before_the_state_does_not_disturb_it(exported_rows):
    for row in exported_rows[:20]:
        for s in row["steps"]:
            target = f"{s['reasoning']}\n{s['z_text']}"  # the training target: c_i^z then z_i
            assert state_reward(target, json.loads(s["state"]), action=s["action_text"]).reward == 1.0


def test_one_wrong_field_costs_exactly_one_field():
    wrong = SOKO_Z.replace("Player: (1, 0)", "Player: (1, 1)")
    s = state_reward(wrong, SOKO, action="move down")
    assert s.matches == {"action": True, "player": False, "blocks": True}
    assert s.reward == pytest.approx(2 / 3)


def test_wrong_action_fails_only_the_action():
    s = state_reward(SOKO_Z.replace("move down", "move up"), SOKO, action="move down")
    assert s.matches["action"] is False and s.reward == pytest.approx(2 / 3)


def test_block_list_is_one_field_compared_as_a_set():
    reordered = SOKO_Z.replace("Blocks: (2, 1), (3, 3)", "Blocks: (3,3), [2, 1], (2, 1)")
    assert state_reward(reordered, SOKO, action="move down").matches["blocks"] is True
    one_missing = SOKO_Z.replace("Blocks: (2, 1), (3, 3)", "Blocks: (2, 1)")
    assert state_reward(one_missing, SOKO, action="move down").matches["blocks"] is False


def test_constant_fields_are_left_out_by_default_and_can_be_asked_for():
    assert "walls" not in state_fields("sokoban") and "goals" not in state_fields("sokoban")
    wrong_walls = SOKO_Z.replace("Walls: (1, 2)", "Walls: (4, 4)")
    assert state_reward(wrong_walls, SOKO, action="move down").reward == 1.0
    s = state_reward(wrong_walls, SOKO, action="move down", fields=("player", "walls"))
    assert s.matches == {"player": True, "walls": False}


def test_unparseable_text_scores_zero_on_what_it_lacks():
    assert state_reward("I think the player moved.", SOKO, action="move down").reward == 0.0
    only_player = state_reward("Player: (1, 0)", SOKO, action="move down")
    assert only_player.matches == {"action": False, "player": True, "blocks": False}
    for junk in (None, 42, b"Player: (1, 0)", [b"Player: (1, 0)"], {"role": "assistant"}, ""):
        assert state_reward(junk, SOKO, action="move down").reward == 0.0


def test_without_a_true_action_the_action_is_not_scored():
    s = state_reward(SOKO_Z, SOKO)
    assert set(s.matches) == {"player", "blocks"} and s.reward == 1.0
    s = state_reward(SOKO_Z, {**SOKO, "action": "move down"})
    assert s.matches["action"] is True


def test_gather_counts_and_balls_per_colour_with_zero_colours_optional():
    z = "Action 1: move right 3\nPlayer: (3, 3)\nCollected balls: red 1\nBalls: green (0, 1), (2, 2); red (0, 0)"
    s = state_reward(z, GATHER, action="move right 3")
    assert s.reward == 1.0, s.matches
    s = state_reward(z.replace("red 1", "red 2"), GATHER, action="move right 3")
    assert s.matches["collected"] is False
    s = state_reward(z.replace("move right 3", "move right 2"), GATHER, action="move right 3")
    assert s.matches["action"] is False


def test_action_reading():
    assert parse_action("Action: move up") == "move up"
    assert parse_action("Action 12: Move LEFT") == "move left"
    assert parse_action("**Action**: down") == "move down"
    assert parse_action("action = move right 3 cells; Player: (0, 1)") == "move right 3"
    assert parse_action("Action 2: move up\nsome text\nAction 3: move down") == "move down"  # the last one
    assert parse_action("The action is move up.") is None  # reasoning prose, not the z_i label
    assert parse_action("Action: jump") is None


def test_parse_state_reads_fields_and_action():
    got = parse_state("sokoban", SOKO_Z)
    assert got["player"] == [1, 0] and got["blocks"] == [[2, 1], [3, 3]] and got["action"] == "move down"


def test_chat_completions_are_read_like_text():
    chat = [{"role": "user", "content": "Player: (4, 4)"}, {"role": "assistant", "content": SOKO_Z}]
    assert state_reward(chat, SOKO, action="move down").reward == 1.0
    parts = {"role": "assistant", "content": [{"type": "text", "text": SOKO_Z}, {"type": "image", "image": None}]}
    assert state_reward(parts, SOKO, action="move down").reward == 1.0


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(truth="not a dict"),
        dict(truth={**SOKO, "domain": "chess"}),
        dict(truth=SOKO, fields=("player", "colour")),
        dict(truth=SOKO, fields="player"),
        dict(truth={k: v for k, v in SOKO.items() if k != "blocks"}),
        dict(truth={**SOKO, "player": "(1, 0)"}),
        dict(truth=SOKO, fields=("action", "player")),  # no true action given
    ],
)
def test_bad_ground_truth_raises_metric_error(kwargs):
    truth = kwargs.pop("truth")
    with pytest.raises(MetricError):
        state_reward(SOKO_Z, truth, **kwargs)
    assert issubclass(MetricError, ValueError)


def test_the_fields_are_the_specs():
    """STATE_FIELDS / CONSTANT_FIELDS read each domain's spec (Pacman's coins are in neither: see its spec)."""
    from svot.domains import SPECS
    from svot.metrics import CONSTANT_FIELDS
    from svot.metrics.state import all_fields

    assert list(STATE_FIELDS) == list(SPECS)
    for name, spec in SPECS.items():
        assert STATE_FIELDS[name] == spec.state_fields == state_fields(name)
        assert set(STATE_FIELDS[name]) | set(CONSTANT_FIELDS[name]) <= set(all_fields(name))
        assert not set(STATE_FIELDS[name]) & set(CONSTANT_FIELDS[name])
    assert STATE_FIELDS["pacman"] == ("action", "player", "collected")
    with pytest.raises(KeyError):
        STATE_FIELDS["nope"]
