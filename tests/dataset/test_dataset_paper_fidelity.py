"""The dataset against SVoT's own text (issue 14): A.7 candidates, A.5 plans, Table 5 sizes."""

from __future__ import annotations

import numpy as np
import pytest

from svot.dataset import iter_split
from svot.dataset.choices import build_choices, check_choices, is_partial
from svot.dataset.instance import carries_plan, plan_floor, plan_maps, split_lengths
from svot.dataset.spec import SPLITS, TABLE5_PREDICTIONS, implied_mean_length, length_probs, lengths_for, predictions
from svot.domains.frozenlake.wording import tile_at as _tile_at

# --------------------------------------------------------------------------- A.7


@pytest.mark.slow
def test_frozenlake_distractors_agree_with_the_map():
    # A.7: "We also constrain candidate coordinates to lie within a distance of 2 cells from
    # the ground-truth coordinate, and require all candidates to be valid".
    n = lone = 0
    for inst in iter_split("frozenlake", 4, "test_id", seed=0, maps_per_split={"test_id": 30}):
        assert check_choices("frozenlake", inst.goal, inst.initial_state, inst.choices, inst.correct) == []
        for i, c in enumerate(inst.choices):
            assert c["tile"] == _tile_at(inst.initial_state, c["player"]), (inst.id, c)
            n += 1
        lone += inst.goal["tile"] in ("start", "goal")
    assert n == 240 and lone > 0  # the start/goal cases (no other such tile nearby) are among them


def test_frozenlake_lone_tile_gets_a_consistent_partial_distractor():
    initial = {"domain": "frozenlake", "size": 4, "player": [0, 0], "start": [0, 0], "goal": [3, 3], "holes": [[1, 1]]}
    truth = {"player": [0, 0], "tile": "start"}  # the only start cell: no other cell shares the tile
    for seed in range(20):
        ch = build_choices("frozenlake", truth, initial, seed % 4, np.random.default_rng(seed))
        assert check_choices("frozenlake", truth, initial, ch, seed % 4) == []
        assert all(c["tile"] == _tile_at(initial, c["player"]) for c in ch)
        assert any(is_partial("frozenlake", truth, c, initial) for i, c in enumerate(ch) if i != seed % 4)


def test_reachable_distractors_are_preferred():
    # Pacman: player boxed in by coins at (2, 0) and (3, 1): "0 coins at (1, 1)" is unreachable.
    initial = {"domain": "pacman", "size": 4, "player": [3, 0], "coins": [[2, 0], [3, 1], [0, 3]], "collected": 0, "total": 3}
    truth = {"collected": 1, "player": [2, 0]}
    unreachable = {(0, (1, 1)), (0, (1, 0)), (0, (2, 1)), (0, (3, 2)), (0, (2, 2))}

    def reachable(c):
        return (c["collected"], tuple(c["player"])) not in unreachable and not (c["collected"] == 0 and c["player"] != [3, 0])

    for seed in range(30):
        ch = build_choices("pacman", truth, initial, 0, np.random.default_rng(seed), reachable)
        assert check_choices("pacman", truth, initial, ch, 0) == []
        assert all(reachable(c) for c in ch[1:]), ch


# --------------------------------------------------------------------------- A.5


@pytest.mark.parametrize("domain, size", [("sokoban", 5), ("maze", 5), ("pacman", 4)])
def test_every_train_map_carries_its_plan(domain, size):
    # A.5: "For each solvable map, we extract a goal-reaching plan via BFS for the training set"
    # (Sokoban: "extract a goal-achieving plan to use as supervised action sequences for training").
    maps = plan_maps(domain, size, 0, {"train": 12}, upto="train")["train"]
    lo, hi = lengths_for(size, "id")
    assert all(lo <= len(m.generated.plan) <= hi and carries_plan(m) for m in maps)
    inst = next(iter_split(domain, size, "train", seed=0, maps_per_split={"train": 1}))
    assert inst.sequence_kind == "plan" and inst.seq_index == 0


def test_pacman_6x6_cannot_fit_its_plan_and_is_not_filtered():
    # Table 5: coin density 0.3 on 6x6 gives round(0.3 * 35) = 11 coins; one coin per move at
    # most, so any all-coin plan has >= 11 moves, above the ID maximum of 10.
    maps = plan_maps("pacman", 6, 0, {"train": 3}, upto="train")["train"]
    assert all(plan_floor(m.generated) == 11 > lengths_for(6, "id")[1] for m in maps)
    assert all(m.attempt == 0 and not carries_plan(m) for m in maps)


# --------------------------------------------------------------------------- Table 5 sizes


def test_implied_means_come_from_table5():
    # A.6 / Table 5: sizes "measured by the total number of state, visualization, and goal
    # predictions"; each step gives two, each instance one.
    assert implied_mean_length("sokoban", 5, "train") == pytest.approx((7146 - 500) / 1000)
    assert implied_mean_length("maze", 7, "test_ood") == pytest.approx((3372 - 120) / 240)
    assert implied_mean_length("maze", 4, "train") is None
    for (d, n), row in TABLE5_PREDICTIONS.items():
        for split in row:
            lo, hi = lengths_for(n, SPLITS[split].distribution)
            assert lo < implied_mean_length(d, n, split) < hi  # every implied mean lies inside its range


@pytest.mark.parametrize("lo, hi, mean", [(3, 7, 4.62), (4, 8, 6.0), (11, 13, 12.68), (5, 10, 9.9)])
def test_length_law_has_the_mean_and_covers_the_range(lo, hi, mean):
    p = length_probs(lo, hi, mean)
    assert p.shape == (hi - lo + 1,) and np.all(p > 0) and p.sum() == pytest.approx(1.0)
    assert float(p @ np.arange(lo, hi + 1)) == pytest.approx(mean, abs=1e-6)
    assert np.allclose(length_probs(lo, hi, None), 1 / (hi - lo + 1))


def test_split_lengths_hit_the_implied_mean():
    plans = plan_maps("sokoban", 4, 0, {"val": 30}, upto="val")
    lengths = [x for row in split_lengths(0, plans["val"]) for x in row]
    assert len(lengths) == 60 and min(lengths) >= 3 and max(lengths) <= 7 and len(set(lengths)) == 5
    assert np.mean(lengths) == pytest.approx(implied_mean_length("sokoban", 4, "val"), abs=0.05)


@pytest.mark.slow
@pytest.mark.parametrize("domain, size, split", [("maze", 5, "val"), ("frozenlake", 4, "val"), ("gather", 4, "val")])
def test_split_sizes_within_five_percent_of_table5(domain, size, split):
    n = steps = 0
    for inst in iter_split(domain, size, split, seed=0):
        n += 1
        steps += inst.n_steps
    ratio = predictions(n, steps) / TABLE5_PREDICTIONS[(domain, size)][split]
    assert abs(ratio - 1) <= 0.05, ratio
