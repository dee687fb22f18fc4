"""Goal accuracy: letters from free text (C) and exact match of the parsed final state (F)."""

from __future__ import annotations

import json

import pytest

from svot.metrics import MetricError, answer_correct, answer_matches, choice_correct, extract_choice, parse_answer

CHOICES = [
    "Player: (1, 1); blocks: (0, 2)",
    "Player: (2, 1); blocks: (3, 2)",
    "Player: (2, 3); blocks: (3, 2)",
    "Player: (2, 1); blocks: (2, 2)",
]


@pytest.mark.parametrize(
    "text, letter",
    [
        ("B", "B"),
        ("b", "B"),
        (" (C) ", "C"),
        ("D.", "D"),
        ("**A**", "A"),
        ("The answer is (B)", "B"),
        ("The answer is (b).", "B"),
        ("Answer: C", "C"),
        ("answer: D\n", "D"),
        ("After tracking all moves, the correct option is D.", "D"),
        ("I choose A because the block is pushed.", "A"),
        ("Option A looks close, but the answer is C.", "C"),  # the last explicit statement
        ("C. Player: (2, 3); blocks: (3, 2)", "C"),
        ("It must be (D), since the player ends at (2, 1).", "D"),
        ("Final answer - B", "B"),
        ([{"role": "assistant", "content": "The answer is (A)"}], "A"),
    ],
)
def test_letters_are_found(text, letter):
    assert extract_choice(text) == letter


@pytest.mark.parametrize(
    "text",
    ["", "no idea", "a player moved right", "A or B?", "E", "The answer is E", None, 3, ["x"], "A. first\nB. second"],
)
def test_no_single_letter_means_none(text):
    assert extract_choice(text) is None


def test_a_repeated_choice_text_maps_to_its_letter():
    assert extract_choice("player: (2, 3);  blocks: (3, 2)", CHOICES) == "C"
    assert extract_choice("The final state is Player: (2,1); blocks: (2,2)", CHOICES) == "D"  # spacing ignored
    reordered = "blocks: (2, 2)\nplayer: (2, 1)"
    assert extract_choice(reordered, CHOICES) is None  # not a choice's text ...
    assert extract_choice(reordered, CHOICES, domain="sokoban") == "D"  # ... but its goal
    goals = [{"player": [1, 1], "blocks": [[0, 2]]}, {"player": [2, 1], "blocks": [[3, 2]]},
             {"player": [2, 3], "blocks": [[3, 2]]}, {"player": [2, 1], "blocks": [[2, 2]]}]
    assert extract_choice(reordered, goals, domain="sokoban") == "D"
    assert extract_choice("player: (2, 1)", CHOICES, domain="sokoban") is None  # partial: matches no whole choice


def test_choice_correct():
    assert choice_correct("The answer is (B)", "B")
    assert not choice_correct("The answer is (B)", "C")
    with pytest.raises(MetricError):
        choice_correct("B", "E")


ANSWERS = [
    ("maze", "Player: (3, 1)", {"player": [3, 1]}),
    ("frozenlake", "Player: (2, 1); tile: frozen", {"player": [2, 1], "tile": "frozen"}),
    ("sokoban", "Player: (2, 1); blocks: (2, 2), (3, 3)", {"player": [2, 1], "blocks": [[2, 2], [3, 3]]}),
    ("pacman", "Collected coins: 3; player: (1, 2)", {"collected": 3, "player": [1, 2]}),
    ("gather", "Collected balls: red 1, green 0; player: (0, 3)", {"collected": {"red": 1, "green": 0}, "player": [0, 3]}),
]


@pytest.mark.parametrize("domain, text, goal", ANSWERS)
def test_free_response_in_the_dataset_format_is_correct(domain, text, goal):
    assert answer_correct(domain, text, goal)
    assert answer_correct(domain, "Let me think step by step.\n" + text.upper().replace("; ", "\n"), goal)


def test_free_response_exactness():
    goal = {"player": [2, 1], "blocks": [[2, 2], [3, 3]]}
    assert answer_correct("sokoban", "blocks: (3, 3), (2, 2); Player: (2, 1)", goal)  # order free
    assert not answer_correct("sokoban", "Player: (2, 1); blocks: (2, 2)", goal)  # a block missing
    assert not answer_correct("sokoban", "Player: (2, 1)", goal)  # a field missing
    assert answer_matches("sokoban", "Player: (2, 1)", goal) == {"player": True, "blocks": False}
    # a later value of a field overrides an earlier one (the final answer after the reasoning)
    assert answer_correct("sokoban", "Player: (0, 0); blocks: (2, 2), (3, 3)\nSo: Player: (2, 1)", goal)
    g = {"collected": {"red": 1, "green": 0}, "player": [0, 3]}
    assert answer_correct("gather", "Collected balls: red 1; player: (0, 3)", g)  # green 0 may be left out
    assert not answer_correct("gather", "Collected balls: red 1, green 1; player: (0, 3)", g)
    assert not answer_correct("frozenlake", "Player: (2, 1); tile: hole", {"player": [2, 1], "tile": "frozen"})


def test_exported_answers_and_distractors(exported_rows):
    for row in exported_rows:
        goal = json.loads(row["goal"])
        assert answer_correct(row["domain"], row["answer"], goal)
        letters = "ABCD"
        for i, text in enumerate(row["choices"]):
            assert answer_correct(row["domain"], text, goal) == (letters[i] == row["correct_choice"])
            assert extract_choice(text, row["choices"]) == letters[i]


def test_parse_answer_and_errors():
    assert parse_answer("pacman", "Collected coins: 3; player: (1, 2)") == {"player": [1, 2], "collected": 3}
    assert parse_answer("pacman", None) == {}
    with pytest.raises(MetricError):
        answer_correct("pacman", "x", {})
    with pytest.raises(MetricError):
        answer_correct("pacman", "x", {"colour": 1})
    with pytest.raises(MetricError):
        answer_correct("chess", "x", {"player": [0, 0]})
