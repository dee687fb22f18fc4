"""Sokoban Claim 5 (Claim 4 in every state, :class:`svot.domains.sokoban.generator.OneBlockGames`): its kept
verdicts are the one-block game's, and every state it refuses in a search cannot reach the goal."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import get_spec
from svot.domains.sokoban import generator as sokoban
from svot.domains.sokoban.screen import surviving_rows
from svot.problem_gen.draws import permutation_rows
from svot.engine import region_kernel
from tests.problem_gen.test_problem_gen_sokoban import _reference_one_block_goal

SPEC = get_spec("sokoban")


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_kept_verdicts_match_the_cell_by_cell_game(size):
    """One games object per layout, asked many (block, player) pairs in random order: each answer, read
    from what earlier games refuted or proved or from a new game, is the cell-by-cell game's."""
    rng = np.random.default_rng(200 + size)
    board = sokoban.board(size)
    answers = []
    for _ in range(25):
        walls = {(r, c) for r in range(size) for c in range(size) if rng.random() < 0.3}
        free_cells = sorted({(r, c) for r in range(size) for c in range(size)} - walls)
        if len(free_cells) < 4:
            continue
        goals = {free_cells[i] for i in rng.permutation(len(free_cells))[: int(rng.integers(1, 4))]}
        games = sokoban.OneBlockGames(size, board.full & ~board.bits(walls), board.bits(goals))
        for _ in range(40):
            i, j = rng.permutation(len(free_cells))[:2]
            block, player = free_cells[i], free_cells[j]
            got = games.reaches(board.bits([block]), board.bits([player]))
            assert got == _reference_one_block_goal(size, walls, player, block, goals), (walls, goals, block, player)
            answers.append(got)
    assert True in answers and answers.count(False) >= 20


def _layout_of(t: sokoban.AtomBits, size: int, state: int, walls: list, goals: list) -> dict:
    cells = [(i, divmod(i, size)) for i in range(size * size)]
    return {
        "domain": "sokoban",
        "size": size,
        "player": list(next(c for i, c in cells if state & t.at[i])),
        "walls": walls,
        "blocks": [list(c) for i, c in cells if state & t.block[i]],
        "goals": goals,
    }


@pytest.mark.parametrize("size,split", [(4, "ood"), (5, "id"), (5, "ood")])
def test_every_state_claim5_refuses_in_a_search_is_dead(size, split):
    """The searches of screened draws, run state by state with Claim 5 as the dead test: each state it
    refuses is searched in full (no pruning) and reaches no goal; the verdicts are the full search's."""
    rng = np.random.default_rng(size * 3 + (split == "ood"))
    t = sokoban.atom_bits(size)
    stepper = t.grounding.stepper
    refused_total = searched = 0
    while searched < 40:
        p = sokoban.sampling_params(size, split, rng)
        w, n = p["walls"], p["blocks"]
        rows = permutation_rows(rng, size * size, 64)
        for j in surviving_rows(size, w, n, rows).tolist()[:4]:
            drawn = rows[j, : w + 1 + 2 * n].tolist()
            layout = sokoban.layout_from_draw(size, w, n, drawn)
            games = sokoban.one_block_games(size, w, n, drawn)
            init, goal_pos, _wall_board, _goal_board = sokoban.initial_bits(t, w, n, drawn)
            refused = []

            def claim5(state: int) -> bool:
                player = next(i for i in range(size * size) if state & t.at[i])
                for x in range(size * size):
                    if state & t.block[x] and not games.reaches(1 << x, 1 << player):
                        refused.append(state)
                        return True
                return False

            got = stepper.reachable(init, goal_pos, 0, is_dead=claim5)
            full = sokoban.search(SPEC.problem_from_state(layout, "full"), layout, prune=False)
            assert got.complete and got.found == full.solved, drawn
            for state in refused[:: max(1, len(refused) // 8)]:
                at = _layout_of(t, size, state, layout["walls"], layout["goals"])
                assert not sokoban.search(SPEC.problem_from_state(at, "s"), at, prune=False).solved, at
            refused_total += len(refused)
            searched += 1
    assert refused_total >= 20


@pytest.mark.parametrize("size,split", [(4, "ood"), (5, "ood"), (6, "ood")])
def test_verdict_search_with_claim5_is_the_full_search(size, split, monkeypatch):
    """search_draw(plan=False) (the region search, Claims 1 and 5, asked on every board here) against the
    planning search on screened draws, solvable and not. Interpreted (region_kernel.ENABLED off, as
    SVOT_JIT=0 does): the compiled search asks no Claim 5."""
    monkeypatch.setattr(region_kernel, "ENABLED", False)
    monkeypatch.setattr(sokoban, "CLAIM5_STATES", 0)
    assert sokoban._asks_claim5(size, 0, 2, False, sokoban.MAX_STATES)
    rng = np.random.default_rng(50 + size)
    verdicts = []
    while len(verdicts) < 60:
        p = sokoban.sampling_params(size, split, rng)
        w, n = p["walls"], p["blocks"]
        rows = permutation_rows(rng, size * size, 64)
        for j in surviving_rows(size, w, n, rows).tolist()[:6]:
            drawn = rows[j, : w + 1 + 2 * n].tolist()
            got = sokoban.search_draw(size, w, n, drawn, plan=False)
            assert got.complete and got.solved == sokoban.search_draw(size, w, n, drawn).solved, drawn
            verdicts.append(got.solved)
    assert True in verdicts and False in verdicts
