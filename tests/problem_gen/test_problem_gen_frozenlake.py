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
    # sample_holes reads rng.random against numpy's cdf: the same boards, attempts and generator states
    from svot.domains.frozenlake.generator import sample_holes

    for seed in range(150):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        board, attempts = _choice_loop(size, density, a)
        holes, attempts2 = sample_holes(size, density, b)
        assert attempts == attempts2
        assert ((board == "H") == holes).all()
        assert a.bit_generator.state == b.bit_generator.state
        assert (sample_board(size, density, np.random.default_rng(seed))[0] == board).all()


@pytest.mark.parametrize("size", [2, 3, 4, 6, 8])
@pytest.mark.parametrize("density", [0.2, 0.4, 0.6])
def test_batched_path_check_is_the_flood_fill(size, density):
    # the stream checks a batch of boards as uint64 words at once: each verdict is _free_path's
    from svot.domains.frozenlake.generator import _free_path, _path_masks, _paths_exist

    rng = np.random.default_rng(size)
    holes = rng.random((400, size, size)) < density
    holes[:, 0, 0] = holes[:, -1, -1] = False
    masks = _path_masks(size)
    frees = [int.from_bytes(np.packbits(~h.reshape(-1), bitorder="little").tobytes(), "little") & masks[1] for h in holes]
    got = _paths_exist(masks, np.array(frees, np.uint64)).tolist()
    assert got == [_free_path(masks, f) for f in frees]
    assert 0 < sum(got) < len(got) or size == 2  # both verdicts are exercised


@pytest.mark.parametrize("size,density,limit", [(4, 0.5, 15), (6, 0.4, 11), (6, 0.5, 34), (9, 0.5, 32)])
def test_bit_stream_gives_up_where_draw_bits_does(monkeypatch, size, density, limit):
    # with few attempts allowed (parameters where a board is kept at exactly the limit), the stream (batched, path checks a batch ahead) raises exactly where
    # successive draw_bits calls do, and hands out the same boards and attempts before that
    from svot.domains.frozenlake import generator as fl
    from svot.errors import ProblemError

    monkeypatch.setattr(fl, "MAX_ATTEMPTS", limit)
    monkeypatch.setattr(fl, "sampling_params", lambda size, split: {"hole_density": density})
    stream, rng = fl.bit_stream(size, "id", np.random.default_rng(1)), np.random.default_rng(1)
    outcomes = []
    for _ in range(200):
        try:
            b = fl.draw_bits(size, "id", rng)
        except ProblemError:
            with pytest.raises(ProblemError):
                stream()
            outcomes.append("raised")
            break
        a = stream()
        assert (a.init, a.attempts, a.hole_cells) == (b.init, b.attempts, b.hole_cells)
        outcomes.append(a.attempts)
    assert outcomes[-1] == "raised" and limit in outcomes  # a board kept at the last attempt allowed, then a give-up
