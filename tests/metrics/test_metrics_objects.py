"""Image metrics on real rendered states: r_v (blur, a moved object) and Table 7's FGAcc / BkgErr / FullAcc."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageFilter

from svot.domains import get_spec
from svot.metrics import MetricError, ObjectTotals, object_metrics, read_cells, visual_reward
from svot.render import label_grid, render_state

SOKOBAN = {
    "domain": "sokoban",
    "size": 5,
    "player": [0, 0],
    "walls": [[4, 4], [0, 3]],
    "blocks": [[1, 1], [2, 2]],
    "goals": [[3, 1], [2, 4]],
}
GATHER = {
    "domain": "gather",
    "size": 5,
    "player": [4, 4],
    "collected": {"red": 0, "green": 1, "blue": 0},
    "balls": {"red": [[0, 2], [0, 3]], "green": [[4, 0]], "blue": [[2, 2]]},
}
STATES = [SOKOBAN, GATHER]


def render(state, size=256):
    return render_state(get_spec(state["domain"]), state, size)


@pytest.mark.parametrize("state", STATES, ids=lambda s: s["domain"])
def test_ground_truth_is_perfect(state):
    img = render(state)
    v = visual_reward(img, img, state["size"])
    assert v.r_str == 1.0 and v.r_v == pytest.approx(1.0, abs=1e-9)
    o = object_metrics(img, label_grid(get_spec(state["domain"]), state), state["domain"])
    assert o.full and o.fg_accuracy == 1.0 and o.bg_error_rate == 0.0 and o.fg_cells > 0
    assert object_metrics(img, state, state["domain"]).full  # a state dict works as the truth too


@pytest.mark.parametrize("state", STATES, ids=lambda s: s["domain"])
def test_blurred_copy_scores_lower_through_r_qua(state):
    img = render(state)
    blurred = np.asarray(Image.fromarray(img).filter(ImageFilter.GaussianBlur(1.5)))
    v = visual_reward(blurred, img, state["size"])
    assert v.r_qua < 0.5  # sharpness of the foreground falls
    assert v.r_v <= v.r_str * v.r_qua + 1e-12 and v.r_v < 0.5
    lighter = np.asarray(Image.fromarray(img).filter(ImageFilter.GaussianBlur(0.6)))
    assert visual_reward(lighter, img, state["size"]).r_qua > v.r_qua  # more blur, lower r_qua


def test_object_moved_to_the_wrong_cell_fails_that_cell_in_r_str_and_fgacc():
    truth = SOKOBAN
    moved = {**SOKOBAN, "blocks": [[1, 1], [3, 3]]}  # block (2, 2) drawn at (3, 3) instead
    t_img, p_img = render(truth), render(moved)
    v = visual_reward(p_img, t_img, 5)
    assert not v.matched[2, 2] and not v.matched[3, 3]
    assert v.matched.sum() == 25 - 2 and v.r_str < 1.0
    # the block's true cell is foreground and weighs 10x; (3, 3) is background
    assert v.fg[2, 2] and not v.fg[3, 3]
    o = object_metrics(p_img, label_grid(get_spec("sokoban"), truth), "sokoban")
    assert o.predicted[2][2] == "empty" and o.predicted[3][3] == "block"
    assert o.fg_correct == o.fg_cells - 1
    assert o.bg_errors == 1 and not o.full
    assert o.fg_accuracy == pytest.approx((o.fg_cells - 1) / o.fg_cells)
    assert o.bg_error_rate == pytest.approx(1 / o.bg_cells)


def test_wrong_label_on_a_foreground_cell():
    # the player on a goal square drawn as a plain goal square: that cell fails, no background error
    truth = {**SOKOBAN, "player": [3, 1]}
    pred = {**SOKOBAN, "player": [0, 0]}
    o = object_metrics(render(pred), truth, "sokoban")
    assert o.predicted[3][1] == "goal" and o.truth[3][1] == "player+goal"
    assert o.fg_correct == o.fg_cells - 1 and o.bg_errors == 1  # (0, 0): the player where there is none


def test_differently_sized_prediction_is_resized_first():
    truth = render(GATHER)
    big = render(GATHER, 512)
    assert big.shape[:2] == (512, 512)
    assert object_metrics(big, GATHER, "gather").full
    assert object_metrics(Image.fromarray(big).resize((300, 200)), GATHER, "gather").full
    v = visual_reward(big, truth, 5)
    assert v.r_str == 1.0
    assert read_cells(big, "gather", 5) == label_grid(get_spec("gather"), GATHER)


def test_totals_pool_cells_and_average_images():
    good = object_metrics(render(SOKOBAN), SOKOBAN, "sokoban")
    bad = object_metrics(render({**SOKOBAN, "blocks": [[1, 1], [3, 3]]}), SOKOBAN, "sokoban")
    t = ObjectTotals()
    t.add(good)
    t.add(bad)
    assert t.images == 2 and t.full_accuracy == 0.5
    assert t.fg_accuracy == pytest.approx((2 * good.fg_cells - 1) / (2 * good.fg_cells))
    assert t.bg_error_rate == pytest.approx(1 / (2 * good.bg_cells))
    assert ObjectTotals().fg_accuracy is None


def test_bad_arguments_raise_metric_error():
    img = render(SOKOBAN)
    with pytest.raises(MetricError):
        object_metrics(img, [["empty"] * 5] * 4, "sokoban")  # not square
    with pytest.raises(MetricError):
        object_metrics(img.astype(np.float32), SOKOBAN, "sokoban")
    with pytest.raises(MetricError):
        object_metrics(img, SOKOBAN, "sokoban", image_size=0)
    with pytest.raises(MetricError):
        object_metrics(img, 7, "sokoban")
    with pytest.raises(MetricError):
        read_cells(img, "sokoban", 300, image_size=256)
