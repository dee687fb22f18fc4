"""Fuzzing the text readers: arbitrary input never raises, and scores stay in [0, 1].

The public readers also catch any exception as a last resort (their contract is
"never raises"), which would hide a crash from a fuzzer; so the cores behind
them (``_extract``, ``_visual_fields``, ``_extract_choice``, ``_completion_text``)
are fuzzed directly as well.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svot.metrics import (
    answer_correct,
    extract_choice,
    extract_keywords,
    parse_action,
    parse_answer,
    parse_state,
    reasoning_reward,
    state_reward,
    visual_chain_fields,
    visual_reasoning_reward,
)
from svot.metrics._text import _completion_text, completion_text, normalize_action
from svot.metrics.goal import _extract_choice
from svot.metrics.grpo import completion_image
from svot.metrics.reasoning import _extract, _visual_fields

DOMAINS = ("maze", "frozenlake", "sokoban", "pacman", "gather")

# fragments of the real formats, so generated texts reach deep into the readers
FRAGMENTS = [
    "Action", "Action 3:", "action =", "move", "up", "down", "left", "right", " 3", "Player:", "player:", "Blocks:",
    "Walls:", "Goals:", "Tile:", "Status:", "Collected coins:", "Collected balls:", "Balls:", "Coins:", "Total coins:",
    "red", "green", "blue", "yellow", "none", "(", ")", "[", "]", ",", ";", ":", ".", "\n", " ", "→", "->", "0", "1",
    "12", "999999999999", "(1, 2)", "(0,0)", "[3 4]", "the player is at", "the action is", "so the action applies",
    ", but", ", so the action is not applicable", "is a wall", "grid's edge", "holds a block", "Player position changes to",
    "Player position remains", "block positions change:", "block positions remain the same", "collected by this move:",
    "collected so far:", "with no block above it", "and no wall", "left of it", "collects", "red ball", "balls", "collects no ball", "moves up to", "block position(s) remain the same", "has no block", "is not the goal", "the coin at", "is eaten", "no coin is eaten", "tile:", "status:", "The answer is", "(B)", "A", "C.",
    "Answer:", "option", "leaves", "arrives", "no cell changes", "x" * 50, "\x00", "é", "🙂", "\u2028",
]
texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=5)), max_size=30).map(" ".join),
)
anything = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), texts, st.binary(max_size=20)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["role", "content", "type", "text", "image", "bytes", "path"]), inner, max_size=4),
    ),
    max_leaves=12,
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SOKO = {"domain": "sokoban", "size": 5, "player": [1, 0], "blocks": [[2, 1]], "goals": [[3, 1]], "walls": [[1, 2]]}
GATHER = {"domain": "gather", "size": 4, "player": [3, 3], "collected": {"red": 1, "green": 0}, "balls": {"red": [], "green": [[0, 1]]}}
KEYWORDS = [{"field": "player_before", "value": "(3, 3)"}, {"field": "action", "value": "move left"},
            {"field": "blocked_by", "value": "edge"}, {"field": "collected_red", "value": "red 1"}]
VIS = "Drawing the image after action 1 (move up): (1, 0): the player arrives; (2, 0): the player leaves."


@FUZZ
@given(texts, st.sampled_from(DOMAINS))
def test_state_readers_never_raise(text, domain):
    got = parse_state(domain, text)
    assert isinstance(got, dict)
    a = parse_action(text)
    assert a is None or a.startswith("move ")
    for truth, action in ((SOKO, "move down"), (GATHER, "move left 2")):
        s = state_reward(text, truth, action=action)
        assert 0.0 <= s.reward <= 1.0


@FUZZ
@given(texts)
def test_reasoning_readers_never_raise(text):
    assert isinstance(_extract(text), dict) and isinstance(_visual_fields(text), dict)  # the cores, unguarded
    kw = extract_keywords(text)
    assert all(isinstance(k, str) and isinstance(v, list) for k, v in kw.items())
    assert 0.0 <= reasoning_reward(text, KEYWORDS).reward <= 1.0
    assert isinstance(visual_chain_fields(text), dict)
    assert 0.0 <= visual_reasoning_reward(text, VIS).reward <= 1.0


@FUZZ
@given(texts, st.sampled_from(DOMAINS))
def test_goal_readers_never_raise(text, domain):
    letter = extract_choice(text)
    assert letter is None or letter in "ABCD"
    assert _extract_choice(text, None, None) in (None, *"ABCD")  # the core, unguarded
    assert _extract_choice(text, ["Player: (1, 1)", "Player: (2, 1)"], "maze") in (None, *"ABCD")
    assert extract_choice(text, ["Player: (1, 1)", "Player: (2, 1)", "Player: (0, 0)", "Player: (3, 3)"], domain="maze") in (None, *"ABCD")
    assert isinstance(parse_answer(domain, text), dict)
    assert answer_correct("sokoban", text, {"player": [1, 0], "blocks": [[2, 1]]}) in (True, False)
    assert answer_correct("gather", text, {"collected": {"red": 1}, "player": [0, 3]}) in (True, False)


@FUZZ
@given(anything)
def test_any_python_object_as_a_completion(obj):
    assert isinstance(completion_text(obj), str) and isinstance(_completion_text(obj, 0), str)
    assert normalize_action(obj) is None or isinstance(normalize_action(obj), str)
    assert extract_choice(obj) in (None, *"ABCD")
    assert 0.0 <= state_reward(obj, SOKO, action="move up").reward <= 1.0
    assert 0.0 <= reasoning_reward(obj, KEYWORDS).reward <= 1.0
    assert isinstance(extract_keywords(obj), dict)
    img = completion_image(obj)
    assert img is None or img.dtype.name == "uint8"
