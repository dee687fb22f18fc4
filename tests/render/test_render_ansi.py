"""Text grids."""

from __future__ import annotations

from hypothesis import given, settings
from render_helpers import CELL_GRID_DOMAINS, states

from svot.domains import get_spec
from svot.render.ansi import ansi_chars, edge_kinds, render_ansi
from svot.render.labels import label_grid, label_vocabulary


@settings(max_examples=300, deadline=None)
@given(states(domains=CELL_GRID_DOMAINS))
def test_grid_chars_and_player_position(spec_state):
    spec, s = spec_state
    n = s["size"]
    text = render_ansi(spec, s)
    lines = text.split("\n")
    grid = label_grid(spec, s)
    chars = ansi_chars(spec, n)
    assert len(set(chars.values())) == len(chars)  # one char per label
    for r in range(n):
        assert lines[r] == " ".join(chars[lab] for lab in grid[r])
    r, c = s["player"]
    ch = lines[r][2 * c]
    assert ch == chars[grid[r][c]]
    inverse = {v: k for k, v in chars.items()}
    assert inverse[ch].split("+")[0] == "player"
    others = [(i, j) for i in range(n) for j in range(n) if (i, j) != (r, c)]
    assert all(not inverse[lines[i][2 * j]].startswith("player") for i, j in others)
    assert lines[n] == "" and lines[n + 1].startswith("Legend: ")


def test_sokoban_chars():
    spec = get_spec("sokoban")
    s = {"domain": "sokoban", "size": 4, "player": [0, 1], "walls": [[3, 3]], "blocks": [[1, 1], [2, 2]], "goals": [[0, 1], [2, 2]]}
    assert render_ansi(spec, s).split("\n")[:4] == [". + . .", ". B . .", ". . * .", ". . . #"]
    assert "* block on goal" in render_ansi(spec, s)
    s["goals"] = [[0, 2], [2, 2]]
    assert render_ansi(spec, s).split("\n")[0] == ". P G ."


def test_a_character_means_the_same_in_every_domain():
    """'.' was empty in Maze but a goal in Sokoban: now one table, and '.' is empty everywhere."""
    meaning: dict[str, set] = {}
    for name in ("maze", "frozenlake", "sokoban", "pacman", "gather"):
        spec = get_spec(name)
        for label, ch in ansi_chars(spec, 6).items():
            meaning.setdefault(ch, set()).add(label)
        assert ansi_chars(spec, 6)["empty"] == "."
    assert {ch: labels for ch, labels in meaning.items() if len(labels) > 1} == {}
    assert meaning["G"] == {"goal"} and meaning["."] == {"empty"}


def test_every_domain_char_table_is_complete_and_distinct():
    for name in ("maze", "frozenlake", "sokoban", "pacman", "gather"):
        spec = get_spec(name)
        chars = ansi_chars(spec, 6)
        assert list(chars) == label_vocabulary(spec, 6)
        assert len(set(chars.values())) == len(chars)
    assert ansi_chars(get_spec("gather"), 6)["ball_yellow"] == "y"
    assert ansi_chars(get_spec("frozenlake"), 4)["hole"] == "H"


@settings(max_examples=200, deadline=None)
@given(states(domains=("questmaze",)))
def test_walls_between_cells_are_drawn_in_the_gaps(spec_state):
    """A walled grid: row r is line 2r, with | right of a cell walled on its right and - under one walled below."""
    spec, s = spec_state
    n = s["size"]
    lines = render_ansi(spec, s).split("\n")
    assert edge_kinds(spec) == {"wall_right": "right", "wall_down": "down"}
    right, down = {tuple(c) for c in s["walls_right"]}, {tuple(c) for c in s["walls_down"]}
    chars = ansi_chars(spec, n)
    for r in range(n):
        row = lines[2 * r]
        assert len(row) == 2 * n - 1
        assert [row[2 * c + 1] == "|" for c in range(n - 1)] == [(r, c) in right for c in range(n - 1)]
        if r < n - 1:
            under = lines[2 * r + 1].ljust(2 * n - 1)
            assert [under[2 * c] == "-" for c in range(n)] == [(r, c) in down for c in range(n)]
    pr, pc = s["player"]
    assert lines[2 * pr][2 * pc] in {chars["player"], chars["player+princess"], chars["player+treasure"]}
    assert lines[2 * n - 1] == "" and lines[2 * n].startswith("Legend: ")
