"""Train maps whose plan provably cannot fit Table 5's ID range are turned away before planning.

A.5: "For each solvable map, we extract a goal-reaching plan via BFS for the training set", so
``plan_fits`` redraws a train map whose plan is longer than the range (Pacman 5x5: 7 coins, plans of
at most 8 moves, about one draw in a hundred fits). ``_draw_map`` skips planning the draws whose
``plan_length_floor`` already exceeds the range; the maps kept must be exactly those planning every
draw would keep.
"""

from __future__ import annotations

import numpy as np
import pytest

import svot.dataset.instance as instance
from svot.dataset.instance import plan_cannot_fit, plan_maps
from svot.dataset.spec import KEY_MAP, SPLITS, lengths_for, rng_for
from svot.domains import generate, get_domain


def test_unplanned_draw_is_the_planned_layout():
    """The shortcut bounds the layout generate(plan=False) draws; it must be the one generate() plans."""
    for attempt in range(30):
        rngs = [rng_for(0, "pacman", 5, "train", KEY_MAP, 0, attempt) for _ in range(2)]
        planned = generate("pacman", 5, "id", rngs[0])
        unplanned = generate("pacman", 5, "id", rngs[1], plan=False)
        assert unplanned.state == planned.state and unplanned.problem.to_pddl() == planned.problem.to_pddl()


def test_rejected_draws_are_never_plans_that_fit():
    hi = lengths_for(5, SPLITS["train"].distribution)[1]
    rejected = 0
    for attempt in range(200):
        g = generate("pacman", 5, "id", rng_for(3, "pacman", 5, "train", KEY_MAP, 1, attempt))
        if plan_cannot_fit(get_domain("pacman"), 5, g):
            rejected += 1
            assert len(g.plan) > hi
    assert rejected > 150  # the bound turns most of them away


@pytest.mark.parametrize("size", [4, 5])
def test_same_maps_with_and_without_the_shortcut(monkeypatch, size):
    mps = {"train": 4, "val": 1, "test_id": 1, "test_ood": 1}
    fast = plan_maps("pacman", size, 11, mps)
    monkeypatch.setattr(instance, "has_plan_length_floor", lambda domain: False)
    slow = plan_maps("pacman", size, 11, mps)
    for split in slow:
        assert [(m.attempt, m.generated.state, m.generated.plan) for m in fast[split]] == [
            (m.attempt, m.generated.state, m.generated.plan) for m in slow[split]
        ]
    assert max(m.attempt for m in slow["train"]) > 0 or size == 4  # 5x5 redraws: the shortcut had work


def test_plan_floor_above_the_range_turns_nothing_away(monkeypatch):
    """Where no plan can fit (the params' floor above the range), plan_fits keeps every draw: so must the shortcut."""
    g = generate("pacman", 5, "id", np.random.default_rng(0), plan=False)
    monkeypatch.setattr(instance, "plan_floor", lambda generated: 99)
    assert not plan_cannot_fit(get_domain("pacman"), 5, g)
