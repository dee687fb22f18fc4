"""FrozenLake maps are Gymnasium's ``generate_random_map`` maps, drawn from our Generator."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.envs.toy_text.frozen_lake import generate_random_map

from svot.problem_gen import generate
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
    from svot.problem_gen import solve

    # the only short way passes a hole; the plan must go round it
    state = {"domain": "frozenlake", "size": 4, "player": [0, 0], "holes": [[0, 1], [1, 1], [2, 1]], "goal": [3, 3]}
    plan = solve("frozenlake", state)
    assert plan == [1, 1, 1, 3, 3, 3]  # down ×3, right ×3
    walled = {"domain": "frozenlake", "size": 4, "player": [0, 0], "holes": [[0, 1], [1, 0]], "goal": [3, 3]}
    assert solve("frozenlake", walled) is None
    fallen = {**state, "player": [1, 1]}
    assert solve("frozenlake", fallen) is None
