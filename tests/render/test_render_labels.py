"""Cell labels and the label vocabulary."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from render_helpers import DOMAINS, SIZES, states

from svot.domains import get_spec
from svot.errors import ProblemError
from svot.render.labels import canonical_label, label_grid, label_ids, label_vocabulary


def test_sokoban_grid_by_hand():
    spec = get_spec("sokoban")
    s = {"domain": "sokoban", "size": 4, "player": [0, 1], "walls": [[3, 3]], "blocks": [[1, 1], [2, 2]], "goals": [[0, 1], [2, 2]]}
    assert label_grid(spec, s) == [
        ["empty", "player+goal", "empty", "empty"],
        ["empty", "block", "empty", "empty"],
        ["empty", "empty", "block+goal", "empty"],
        ["empty", "empty", "empty", "wall"],
    ]


def test_gather_and_frozenlake_labels():
    g = get_spec("gather")
    s = {"domain": "gather", "size": 4, "player": [3, 3], "balls": {"red": [[0, 0]], "green": [[0, 1]]}, "collected": {"red": 0, "green": 0}}
    assert label_grid(g, s)[0][:3] == ["ball_red", "ball_green", "empty"]
    f = get_spec("frozenlake")
    s = {"domain": "frozenlake", "size": 4, "player": [0, 0], "start": [0, 0], "holes": [[1, 1]], "goal": [3, 3], "tile": "start", "status": "running"}
    grid = label_grid(f, s)
    assert grid[0][0] == "player+start" and grid[1][1] == "hole" and grid[3][3] == "goal"


def test_canonical_order_follows_spec_kinds():
    spec = get_spec("sokoban")  # kinds: player, wall, block, goal
    assert canonical_label(spec, {"goal", "block"}) == "block+goal"
    assert canonical_label(spec, ["goal", "player"]) == "player+goal"
    assert canonical_label(spec, []) == "empty"


@pytest.mark.parametrize("name", DOMAINS)
@pytest.mark.parametrize("size", SIZES)
def test_vocabulary_shape(name, size):
    spec = get_spec(name)
    vocab = label_vocabulary(spec, size)
    assert vocab[0] == "empty" and len(set(vocab)) == len(vocab)
    for lab in vocab[1:]:
        assert lab == canonical_label(spec, lab.split("+"))
    if name == "gather":
        from svot.domains.gather import colours_for

        assert [v for v in vocab if v.startswith("ball_")] == [f"ball_{c}" for c in colours_for(size)]


@settings(max_examples=300, deadline=None)
@given(states())
def test_every_label_of_a_valid_state_is_in_the_vocabulary(spec_state):
    spec, s = spec_state
    vocab = label_vocabulary(spec, s["size"])
    grid = label_grid(spec, s)
    assert len(grid) == s["size"] and all(len(r) == s["size"] for r in grid)
    ids = label_ids(spec, s)
    assert [[vocab[i] for i in row] for row in ids.tolist()] == grid
    # the player is where the state says
    r, c = s["player"]
    assert grid[r][c].split("+")[0] == "player"


def test_out_of_grid_cell_is_an_error():
    spec = get_spec("maze")
    s = {"domain": "maze", "size": 5, "player": [0, 0], "walls": [[5, 1]], "goal": [4, 4]}
    with pytest.raises(ProblemError, match=r"\(5, 1\) outside the 5x5 grid"):
        label_grid(spec, s)
    s = {"domain": "pacman", "size": 4, "player": [0, 0], "coins": [[0, 0]], "collected": 0, "total": 1}
    with pytest.raises(ProblemError, match="player\\+coin"):
        label_ids(get_spec("pacman"), s)
