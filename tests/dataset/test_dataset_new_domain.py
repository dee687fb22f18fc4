"""A domain registered from outside builds datasets through the DomainSpec defaults (issue 17).

The toy "lamps" domain (tests/toy_domain) gives no wording of its own: the task
description, reasoning chains, goal question, answers and four-choice sets come
from the generic defaults, derived from its PDDL predicates, kinds and fields.
"""

from __future__ import annotations

import numpy as np
import pyarrow.parquet as pq
import pytest

from svot.dataset import build_instance, export, iter_split, make_config, prompts
from svot.dataset.choices import check_choices, is_partial
from svot.dataset.spec import implied_mean_length
from svot.domains import generate, get_spec
from svot.extend import register_domain, unregister_domain
from tests.toy_domain.lamps import LampsGenerator, LampsSpec


# three maps in every split up to test_id, as make_config(maps_per_split=3) draws them
MAPS = dict.fromkeys(("train", "val", "test_id"), 3)


class LampsWithParams(LampsGenerator):
    """The toy generator, plus the parameters an export's manifest records (svot.problem_gen.sampling_params)."""

    def sampling_params(self, size, split):
        return {"lamps": 3 if split == "ood" else 2}


@pytest.fixture(scope="module")
def lamps():
    register_domain(LampsSpec(), LampsWithParams(LampsSpec()))
    yield get_spec("lamps")
    unregister_domain("lamps")


@pytest.fixture(scope="module")
def split(lamps):
    return list(iter_split("lamps", 4, "test_id", seed=0, maps_per_split=MAPS))


def test_a_split_is_built(split):
    assert len(split) == 6  # 3 maps x 2 sequences
    assert len({inst.id for inst in split}) == 6
    assert all(inst.domain == "lamps" and inst.id.startswith("lamps-4x4-test_id-") for inst in split)
    assert all(3 <= inst.n_steps <= 7 for inst in split)  # Table 5's ID range for 4x4


def test_goal_fields_come_from_the_fluent_predicates(lamps, split):
    assert lamps.goal_fields() == ("player", "lit")  # "lamps" never changes; "lit" is (lit ?c)
    for inst in split:
        assert inst.goal == {"player": inst.final_state["player"], "lit": inst.final_state["lit"]}


def test_choices_are_four_distinct_goal_states_one_correct(split):
    for inst in split:
        assert len(inst.choices) == 4
        assert all(set(c) == {"player", "lit"} for c in inst.choices)
        assert [c == inst.goal for c in inst.choices].count(True) == 1
        assert inst.choices[inst.correct] == inst.goal
        texts = [get_spec("lamps").answer_text(c) for c in inst.choices]
        assert len(set(texts)) == 4 and all(texts)
        assert check_choices("lamps", inst.goal, inst.initial_state, inst.choices, inst.correct) == []
        distractors = [c for i, c in enumerate(inst.choices) if i != inst.correct]
        assert any(is_partial("lamps", inst.goal, c, inst.initial_state) for c in distractors)


def test_texts_are_generic_but_say_what_the_domain_is(split):
    inst = split[0]
    assert inst.task.startswith("Lamps on a 4x4 grid.")
    assert "light: when (at ?from), (adj ?from ?dir ?to), (lamp ?to), then" in inst.task
    assert inst.answer.startswith("Player: (") and "; lit: " in inst.answer
    question = prompts.free_question("lamps")
    assert question.startswith("After all the actions, where is the player and which cells are lit?")
    assert "Player: (row, column); lit: (row, column)" in question
    assert "D. Player: " in prompts.choice_question("lamps", inst.choices)
    for step in (s for i in split for s in i.steps):
        assert step.reasoning.startswith("The player is at ") and step.reasoning_visual
        assert step.state_text and step.action_text in ("move up", "move down", "move left", "move right")
        for kw in step.keywords:
            assert kw["value"] in step.reasoning, kw


def test_lighting_a_lamp_is_narrated_from_the_pddl(lamps):
    # player at (0, 0), a lamp right of it: "move right" applies `light`
    state = {"domain": "lamps", "size": 4, "player": [0, 0], "lamps": [[0, 1], [3, 3]], "lit": []}
    problem = lamps.problem_from_state(state, "lamps-hand")
    right, up = lamps.parse_action("right", 4), lamps.parse_action("up", 4)
    inst = build_instance("lamps", problem, [right, up], rng=np.random.default_rng(0))
    first, second = inst.steps
    assert "(0, 1) is inside the grid and is lamp, so the action applies" in first.reasoning
    assert "the player moves to (0, 1) and (0, 1) becomes lit" in first.reasoning
    assert {"field": "lit_after", "value": "(0, 1)"} in first.keywords
    assert "lamp leaves, lit arrives" in first.reasoning_visual
    assert not second.applicable and {"field": "blocked_by", "value": "edge"} in second.keywords
    assert "There is no cell above (0, 1) (the grid's edge), so the action is not applicable" in second.reasoning
    assert inst.goal == {"player": [0, 1], "lit": [[0, 1]]}


def test_not_in_table5(lamps):
    assert lamps.table5_predictions == {} and implied_mean_length("lamps", 4, "train") is None
    g = generate("lamps", 4, "id", np.random.default_rng(0))
    assert lamps.min_plan_length(g.params) == 1


def test_export_writes_the_split(lamps, split, tmp_path):
    export(make_config(tmp_path, domains=["lamps"], sizes=[4], splits=["test_id"], maps_per_split=3, image_size=32), workers=1)
    table = pq.read_table(tmp_path / "lamps-4x4" / "test_id.parquet")
    assert table.num_rows == 6
    rows = table.to_pylist()
    assert [r["id"] for r in rows] == [inst.id for inst in split]
    assert [r["answer"] for r in rows] == [inst.answer for inst in split]
