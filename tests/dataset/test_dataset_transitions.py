"""Transition reasoning chains: the reason a move fails, the effects, and the keyword fields."""

from __future__ import annotations

import pytest

from svot.dataset.instance import MapContext
from svot.dataset.transitions import build_chain, diagnose
from svot.domains import get_spec


def chains(state: dict, actions: list[int]) -> list:
    spec = get_spec(state["domain"])
    n = state["size"]
    ctx = MapContext(spec.name, n, spec.problem_from_state(state, "t"))
    s = ctx.engine.initial()
    out = []
    for i, a in enumerate(actions, 1):
        key = ctx.keys[a]
        atoms = ctx.engine.true_atoms(s)
        s2, applied = ctx.engine.trace(s, key)
        before, after = ctx.state_dict(s), ctx.state_dict(s2)
        out.append(
            build_chain(spec.name, ctx.pddl, ctx.texts[a], before, after, applied, atoms, key,
                        spec.cell_kinds(before), spec.cell_kinds(after), i)
        )
        s = s2
    return out


def fields(chain) -> dict:
    return {k["field"]: k["value"] for k in chain.keywords}


UP, DOWN, LEFT, RIGHT = 0, 1, 2, 3


def sokoban(player, blocks, walls=(), size=4):
    return {"domain": "sokoban", "size": size, "player": list(player), "walls": [list(w) for w in walls],
            "blocks": [list(b) for b in blocks], "goals": [[0, 3]]}


@pytest.mark.parametrize(
    "state, action, reason, cell",
    [
        (sokoban((0, 0), [(2, 2)]), UP, "edge", "(0, 0)"),  # off the grid
        (sokoban((1, 0), [(2, 2)], walls=[(1, 1)]), RIGHT, "wall", "(1, 1)"),  # a wall ahead
        (sokoban((1, 0), [(1, 1), (1, 2)]), RIGHT, "block", "(1, 2)"),  # block behind block
        (sokoban((1, 1), [(2, 1)], walls=[(3, 1)]), DOWN, "wall", "(3, 1)"),  # wall behind block
        (sokoban((1, 2), [(1, 3)]), RIGHT, "edge", "(1, 3)"),  # block at the edge: the cell beyond is off-grid
    ],
)
def test_sokoban_failure_reasons(state, action, reason, cell):
    (c,) = chains(state, [action])
    f = fields(c)
    assert f["applicable"] == "not applicable"
    assert f["blocked_by"] == reason
    assert f["blocked_cell"] == cell
    assert f["player_after"] == f["player_before"]
    assert "nothing changes" in c.text
    assert "no cell changes" in c.visual


def test_sokoban_push_names_block_and_cell_beyond():
    (c,) = chains(sokoban((1, 0), [(2, 0)]), [DOWN])
    f = fields(c)
    assert f["applicable"] == "applies"
    assert (f["player_after"], f["block_pushed_from"], f["block_pushed_to"]) == ("(2, 0)", "(2, 0)", "(3, 0)")
    assert "(2, 0) is inside the grid and holds a block" in c.text
    assert "(3, 0) is inside the grid, is not a wall and has no block" in c.text
    assert "block positions change: (2, 0) → (3, 0)" in c.text
    assert "(3, 0): a block arrives" in c.visual


def test_sokoban_walk_keeps_blocks():
    (c,) = chains(sokoban((1, 0), [(2, 2)]), [RIGHT])
    assert fields(c)["blocks"] == "remain the same"
    assert "walks to (1, 1)" in c.text


def test_maze_wall_and_edge():
    state = {"domain": "maze", "size": 5, "player": [0, 0], "walls": [[1, 1], [0, 1]], "goal": [4, 4]}
    c1, c2, c3 = chains(state, [LEFT, RIGHT, DOWN])
    assert fields(c1)["blocked_by"] == "edge"
    assert fields(c2)["blocked_by"] == "wall" and fields(c2)["blocked_cell"] == "(0, 1)"
    assert fields(c3)["player_after"] == "(1, 0)" and "blocked_by" not in fields(c3)


def test_frozenlake_hole_is_absorbing():
    state = {"domain": "frozenlake", "size": 4, "player": [0, 0], "holes": [[1, 0]], "goal": [3, 3], "start": [0, 0]}
    c1, c2 = chains(state, [DOWN, UP])
    assert fields(c1)["tile_after"] == "hole" and fields(c1)["status_after"] == "fell"
    assert fields(c2)["blocked_by"] == "hole" and fields(c2)["applicable"] == "not applicable"


def test_pacman_counts_coins():
    state = {"domain": "pacman", "size": 4, "player": [0, 0], "coins": [[0, 1], [2, 2]]}
    c1, c2 = chains(state, [RIGHT, RIGHT])
    assert fields(c1)["coin_eaten_at"] == "(0, 1)" and fields(c1)["collected_after"] == "1"
    assert fields(c2)["coin_eaten"] == "no coin" and fields(c2)["collected_after"] == "1"
    assert "collected coins: 1 of 2" in c2.text


def test_gather_collects_per_colour_along_the_path():
    spec = get_spec("gather")
    state = {"domain": "gather", "size": 5, "player": [0, 0],
             "balls": {"red": [[0, 2], [0, 3]], "green": [[4, 0]], "blue": [[2, 2]]}}
    right3 = spec.parse_action("move right 3", 5)
    down3 = spec.parse_action("move down 3", 5)
    c1, c2 = chains(state, [right3, down3, ])
    f1 = fields(c1)
    assert (f1["balls_collected"], f1["collected_green"], f1["collected_red"]) == ("2 red balls", "green 0", "red 2")
    assert "collects 2 red balls" in c1.text  # §5's wording: "collects 1 red ball and 1 blue ball"
    assert "(0, 2) holds a red ball, which is collected" in c1.text and "(0, 1) is empty" in c1.text
    f2 = fields(c2)
    assert f2["applicable"] == "applies" and f2["player_after"] == "(3, 3)"
    (c3,) = chains({**state, "player": [4, 4]}, [down3])
    assert fields(c3)["blocked_by"] == "edge" and "Moving down 3 cells from (4, 4)" in c3.text


@pytest.mark.parametrize("domain", ["maze", "frozenlake", "sokoban", "pacman", "gather"])
def test_keyword_values_occur_verbatim(domain):
    import numpy as np

    from svot.dataset.instance import iter_split

    for inst in iter_split(domain, get_spec(domain).sizes[0], "test_ood", seed=3, maps_per_split={"train": 1, "val": 1, "test_id": 1, "test_ood": 4}):
        for s in inst.steps:
            assert s.keywords and {"action", "player_before", "player_after", "applicable"} <= {k["field"] for k in s.keywords}
            for k in s.keywords:
                assert set(k) == {"field", "value"} and k["value"] in s.reasoning, (k, s.reasoning)
            assert ("blocked_by" in {k["field"] for k in s.keywords}) == (not s.applicable)
    assert np.all(inst.image(0) >= 0)


def test_diagnose_returns_none_when_applicable():
    state = sokoban((1, 0), [(2, 2)])
    spec = get_spec("sokoban")
    ctx = MapContext("sokoban", 4, spec.problem_from_state(state, "t"))
    s = ctx.engine.initial()
    assert diagnose(ctx.pddl, ctx.engine.true_atoms(s), ctx.keys[RIGHT]) is None
    assert diagnose(ctx.pddl, ctx.engine.true_atoms(s), ctx.keys[LEFT]).failure.pred == "adj"
