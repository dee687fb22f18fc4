"""r_c scores preconditions and effects (SVoT §3, Eq. 6), in svot's wording and in the paper's.

§3: "For r_c (where y=c_i), P(c_i) contains keywords extracted from action
preconditions and effects (e.g., “with no block above it” for preconditions, and
“block position(s) remain the same” for effects in Sokoban as shown in Figure 2)."
§2: c_i "encodes both semantic and spatial information (e.g., “the player is at
(2,3) with no block above it”)".
"""

from __future__ import annotations

import pytest

from svot.dataset.instance import MapContext
from svot.dataset.transitions import build_chain
from svot.domains import get_spec
from svot.metrics import extract_keywords, reasoning_reward

UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3


def chain(state: dict, action: int):
    spec = get_spec(state["domain"])
    ctx = MapContext(spec.name, state["size"], spec.problem_from_state(state, "t"))
    s = ctx.engine.initial()
    key = ctx.keys[action]
    s2, applied = ctx.engine.trace(s, key)
    before, after = ctx.state_dict(s), ctx.state_dict(s2)
    return build_chain(spec.name, ctx.pddl, ctx.texts[action], before, after, applied, ctx.engine.true_atoms(s), key,
                       spec.cell_kinds(before), spec.cell_kinds(after), 1)


# Figure 2's situation as §2 states it: the player at (2,3), no block above it, moving up.
FIG2 = {"domain": "sokoban", "size": 5, "player": [2, 3], "walls": [[4, 0]], "blocks": [[3, 1]], "goals": [[0, 0]]}


def test_the_truth_lists_precondition_keywords():
    c = chain(FIG2, UP)
    kw = {k["field"]: k["value"] for k in c.keywords}
    # §3: keywords "extracted from action preconditions": the cell above (1, 3) is not a wall and has no block
    assert kw["pre wall (1, 3)"] == "is not a wall"
    assert kw["pre block (1, 3)"] == "has no block"
    assert reasoning_reward(c.text, c.keywords).reward == 1.0


def test_false_preconditions_no_longer_score_one():
    c = chain(FIG2, UP)
    lie = c.text.replace("is not a wall and has no block", "is a wall and holds a block")
    assert lie != c.text
    r = reasoning_reward(lie, c.keywords)
    assert not r.matches["pre wall (1, 3)"] and not r.matches["pre block (1, 3)"]
    assert r.reward == pytest.approx(5 / 7)


def test_skipped_preconditions_no_longer_score_one():
    c = chain(FIG2, UP)
    first, _pre, effects = c.text.split(". ", 2)
    skipped = f"{first}. The action applies. {effects}"
    r = reasoning_reward(skipped, c.keywords)
    assert r.reward < 1.0 and not r.matches["pre block (1, 3)"]


def test_paper_phrase_verbatim_reads_the_precondition():
    # §2, verbatim: "the player is at (2,3) with no block above it"
    got = extract_keywords("the player is at (2,3) with no block above it")
    assert got["player_before"] == ["(2, 3)"]
    assert got["pre block (1, 3)"] == ["has no block"]
    # §3, verbatim: "block position(s) remain the same"
    assert extract_keywords("block position(s) remain the same")["blocks"] == ["remain the same"]


def test_chain_in_the_papers_phrasing_scores_as_well_as_svots():
    c = chain(FIG2, UP)
    paper = (
        "The player is at (2,3) with no block above it and no wall above it. "
        "The player moves up to (1,3). Block position(s) remain the same."
    )
    ours = reasoning_reward(c.text, c.keywords)
    theirs = reasoning_reward(paper, c.keywords)
    assert theirs.reward == ours.reward == 1.0, theirs.matches
    # and the same sentence with a block above scores lower
    wrong = paper.replace("no block above it", "a block above it")
    assert reasoning_reward(wrong, c.keywords).reward < 1.0


@pytest.mark.parametrize(
    "phrase, field, value",
    [
        ("The player is at (2,3) with a wall to the left of it.", "pre wall (2, 2)", "is a wall"),
        ("The player is at (2,3) with no block below it.", "pre block (3, 3)", "has no block"),
        ("The player is at (2,3) and there is no block right of the player.", "pre block (2, 4)", "has no block"),
        ("(0, 1) is not a hole and is not the goal", "pre goal (0, 1)", "is not the goal"),
        ("(3, 1) holds a coin, so the action applies", "pre coin (3, 1)", "holds a coin"),
    ],
)
def test_precondition_phrasings(phrase, field, value):
    assert extract_keywords(phrase)[field] == [value]


def test_gather_collection_in_the_papers_words():
    # §5: "its transition reasoning chain correctly tracks the ball-collection event
    # (e.g., “collects 1 red ball and 1 blue ball”)"
    state = {"domain": "gather", "size": 5, "player": [0, 0],
             "balls": {"red": [[0, 2]], "green": [[4, 4]], "blue": [[0, 3]]}}
    spec = get_spec("gather")
    c = chain(state, spec.parse_action("move right 3", 5))
    assert "collects 1 red ball and 1 blue ball" in c.text
    kw = {k["field"]: k["value"] for k in c.keywords}
    assert kw["balls_collected"] == "1 red ball and 1 blue ball"
    paper = "The player is at (0,0) and the action is move right 3 steps. It collects 1 blue ball and 1 red ball."
    assert reasoning_reward(paper, c.keywords, fields=["balls_collected"]).reward == 1.0
    assert reasoning_reward("It collects 1 red ball.", c.keywords, fields=["balls_collected"]).reward == 0.0
    # svot's earlier wording still reads
    old = "collected by this move: red 1, green 0, blue 1"
    assert reasoning_reward(old, c.keywords, fields=["balls_collected"]).reward == 1.0
