"""FrozenLake maps are Gymnasium's ``generate_random_map`` maps, drawn from our Generator."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.envs.toy_text.frozen_lake import generate_random_map

from svot.domains import generate
from svot.domains.frozenlake.generator import sample_board


@pytest.mark.parametrize("size", [4, 5, 6])
@pytest.mark.parametrize("split,density", [("id", 0.2), ("ood", 0.4)])
def test_maps_equal_gymnasium(size, split, density):
    for seed in range(60):
        theirs = generate_random_map(size=size, p=1 - density, seed=seed)
        board, _ = sample_board(size, density, np.random.default_rng(seed))
        assert ["".join(row) for row in board] == theirs
        g = generate("frozenlake", size, split, np.random.default_rng(seed))
        holes = sorted([r, c] for r, row in enumerate(theirs) for c, ch in enumerate(row) if ch == "H")
        assert g.state["holes"] == holes


def test_no_plan_through_a_hole():
    from svot.domains import solve

    # the only short way passes a hole; the plan must go round it
    state = {"domain": "frozenlake", "size": 4, "player": [0, 0], "holes": [[0, 1], [1, 1], [2, 1]], "goal": [3, 3]}
    plan = solve("frozenlake", state)
    assert plan == [1, 1, 1, 3, 3, 3]  # down ×3, right ×3
    walled = {"domain": "frozenlake", "size": 4, "player": [0, 0], "holes": [[0, 1], [1, 0]], "goal": [3, 3]}
    assert solve("frozenlake", walled) is None
    fallen = {**state, "player": [1, 1]}
    assert solve("frozenlake", fallen) is None


def _choice_loop(size, density, rng):
    """The sampler as first written: Gymnasium's rng.choice loop on strings, redrawn until a path joins the corners."""
    from svot.domains.frozenlake.generator import _corner_path

    p = min(1, 1 - density)
    for attempt in range(1, 100_001):
        board = rng.choice(["F", "H"], (size, size), p=[p, 1 - p])
        board[0][0] = "S"
        board[-1][-1] = "G"
        if _corner_path(size, board == "H"):
            return board, attempt


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6, 8])
@pytest.mark.parametrize("density", [0.2, 0.4, 0.6])
def test_hole_draws_are_rng_choice_draws(size, density):
    # sample_holes reads rng.random against numpy's cdf (a batch of boards at a time): the same boards and attempts
    from svot.domains.frozenlake.generator import sample_holes

    for seed in range(150):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        board, attempts = _choice_loop(size, density, a)
        holes, attempts2 = sample_holes(size, density, b)
        assert attempts == attempts2
        assert ((board == "H") == holes).all()
        assert (sample_board(size, density, np.random.default_rng(seed))[0] == board).all()


@pytest.mark.parametrize("size,density,limit", [(4, 0.5, 15), (6, 0.4, 11), (6, 0.5, 34), (9, 0.5, 32)])
def test_gives_up_after_max_attempts_boards(monkeypatch, size, density, limit):
    # boards are drawn a batch at a time: a board kept at exactly the limit is still kept, and a sampler
    # that finds none in ``limit`` boards says so (parameters where both happen)
    from svot.domains.frozenlake import generator as fl
    from svot.errors import ProblemError

    monkeypatch.setattr(fl, "MAX_ATTEMPTS", limit)
    outcomes = []
    for seed in range(300):
        try:
            outcomes.append(fl.sample_holes(size, density, np.random.default_rng(seed))[1])
        except ProblemError as exc:
            assert f"in {limit} draws" in str(exc)
            outcomes.append("raised")
    assert "raised" in outcomes and limit in outcomes and max(a for a in outcomes if a != "raised") == limit
