"""Four-choice sets (A.7): one truth, three valid, nearby, distinct distractors, one partially correct."""

from __future__ import annotations

import numpy as np
import pytest

from svot.dataset.choices import build_choices, check_choices, is_partial, manhattan, near_cells
from svot.dataset.instance import MapContext, random_sequence
from svot.dataset.wording import goal_of
from svot.domains import generate, get_spec

DOMAINS = ["maze", "frozenlake", "sokoban", "pacman", "gather"]


def final_states(domain: str, n_maps: int, seed: int):
    """(initial, final) state pairs from random walks on generated maps, ID and OOD."""
    spec = get_spec(domain)
    rng = np.random.default_rng(seed)
    for i in range(n_maps):
        size = spec.sizes[i % len(spec.sizes)]
        g = generate(domain, size, "ood" if i % 2 else "id", rng)
        ctx = MapContext(domain, size, g.problem)
        actions = random_sequence(ctx, int(rng.integers(3, 15)), rng)
        _kept, states = ctx.run(actions)
        yield g.state, ctx.state_dict(states[-1])


@pytest.mark.parametrize("domain", DOMAINS)
def test_choice_sets_satisfy_a7(domain):
    rng = np.random.default_rng(1)
    built = 0
    for k, (initial, final) in enumerate(final_states(domain, 40, seed=7)):
        truth = goal_of(domain, final)
        correct = k % 4
        choices = build_choices(domain, truth, initial, correct, rng)
        if choices is None:  # allowed only when the truth leaves no room (checked below for Maze)
            assert domain == "maze"
            continue
        built += 1
        assert check_choices(domain, truth, initial, choices, correct) == []
        assert sum(c == truth for c in choices) == 1 and choices[correct] == truth
        assert any(is_partial(domain, truth, c, initial) for i, c in enumerate(choices) if i != correct)
    assert built >= 30


def test_maze_without_room_gives_none():
    # player boxed in a corner: only one free cell within distance 2
    initial = {"domain": "maze", "size": 5, "player": [0, 0], "goal": [4, 4],
               "walls": [[0, 2], [1, 0], [1, 1], [2, 0]]}
    truth = {"player": [0, 0]}
    assert build_choices("maze", truth, initial, 0, np.random.default_rng(0)) is None


def test_near_cells_respects_grid_walls_and_distance():
    cells = near_cells([0, 0], 4, blocked={(0, 1)})
    assert [0, 1] not in cells and [0, 0] not in cells
    assert all(0 < manhattan(c, (0, 0)) <= 2 for c in cells)
    assert sorted(map(tuple, cells)) == [(0, 2), (1, 0), (1, 1), (2, 0)]


@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda ch: [ch[0], ch[0], ch[2], ch[3]], "duplicate"),
        (lambda ch: [ch[0], {**ch[1], "player": [9, 9]}, ch[2], ch[3]], "farther"),
        (lambda ch: [ch[0], {**ch[1], "collected": 99}, ch[2], ch[3]], "outside"),
        (lambda ch: [ch[1], ch[0], ch[2], ch[3]], "truth"),
    ],
)
def test_checker_catches_violations(bad, message):
    initial = {"domain": "pacman", "size": 5, "player": [2, 2], "coins": [[0, 0], [4, 4], [1, 1]], "collected": 0, "total": 3}
    truth = {"collected": 1, "player": [2, 2]}
    choices = build_choices("pacman", truth, initial, 0, np.random.default_rng(0))
    assert check_choices("pacman", truth, initial, choices, 0) == []
    problems = check_choices("pacman", truth, initial, bad(choices), 0)
    assert any(message in p for p in problems), problems


def test_checker_catches_sokoban_block_on_wall_and_missing_partial():
    initial = {"domain": "sokoban", "size": 5, "player": [2, 2], "walls": [[0, 0]], "blocks": [[1, 1]], "goals": [[4, 4]]}
    truth = {"player": [2, 2], "blocks": [[1, 1]]}
    choices = [truth, {"player": [2, 3], "blocks": [[0, 0]]}, {"player": [3, 3], "blocks": [[1, 2]]}, {"player": [2, 4], "blocks": [[2, 1]]}]
    problems = check_choices("sokoban", truth, initial, choices, 0)
    assert any("blocks [[0, 0]] invalid" in p for p in problems)
    assert any("partially correct" in p for p in problems)
