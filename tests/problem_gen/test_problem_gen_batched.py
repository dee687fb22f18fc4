"""Batched draws and the numpy screen change nothing: same rows, same end state, same verdicts, same problems."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.domains.sokoban import generator as sokoban
from svot.domains.sokoban.screen import surviving_rows
from svot.problem_gen.common import problem_name
from svot.problem_gen.grounding import shared_grounding
from svot.problem_gen.draws import first_accepted, first_kept, forget_carried, permutation_rows
from svot.engine import region_kernel

BIT_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)


@pytest.mark.parametrize("bg", BIT_GENERATORS)
def test_permutation_rows_are_successive_permutations(bg):
    for seed in range(30):
        a, b = np.random.Generator(bg(seed)), np.random.Generator(bg(seed))
        a.integers(0, 3), b.integers(0, 3)  # a half-used 32-bit buffer, where the generator keeps one
        k, n = 1 + seed % 9, (16, 25, 36, 49)[seed % 4]
        assert (np.array([a.permutation(n) for _ in range(k)]) == permutation_rows(b, n, k)).all()
        assert a.integers(1 << 62, size=4).tolist() == b.integers(1 << 62, size=4).tolist()


def test_first_accepted_consumes_exactly_the_draws_used():
    for seed in range(40):
        pick = seed % 36  # keep the first row whose first entry is `pick`
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        for attempt in range(1, 10_000):
            row = a.permutation(36)
            if row[0] == pick:
                break
        got = first_accepted(b, 36, lambda rows: next((j for j in range(len(rows)) if rows[j, 0] == pick), None), 10_000)
        assert got[0] == attempt and (got[1] == row).all()
        assert a.integers(1 << 62) == b.integers(1 << 62)


def _same_state(a, b) -> bool:
    return pickle.dumps(a.bit_generator.state) == pickle.dumps(b.bit_generator.state)  # MT19937's holds an array


def _first_row(pick):
    """The one-by-one loop's answer for "keep the first row whose first entry is pick", on a copy."""

    def loop(rng, limit):
        for attempt in range(1, limit + 1):
            row = rng.permutation(36)
            if row[0] == pick:
                return attempt, row
        return None

    return loop


@pytest.mark.parametrize("carry", [True, False])
@pytest.mark.parametrize("bg", BIT_GENERATORS)
def test_first_kept_is_the_one_by_one_loop_call_after_call(bg, carry):
    """Rows carried from call to call change nothing: the same rows, attempts and generator state as
    the one-by-one loop, whether the next call starts where the last left (taken up), after another
    draw, or on another generator in between (not taken up), and under a limit."""
    forget_carried()
    screened = []

    def screen(rows):
        screened.append(len(rows))
        return iter(range(len(rows)))  # every row may be kept: accept decides

    a, b = np.random.Generator(bg(3)), np.random.Generator(bg(3))
    other_a, other_b = np.random.Generator(bg(4)), np.random.Generator(bg(4))
    taken_up = 0
    for call in range(60):
        batches = len(screened)
        pick, limit = call % 36, (10_000 if call % 7 else 20)
        want = _first_row(pick)(a, limit)
        got = first_kept(b, 36, "rows", screen, lambda rows, j: rows[j, 0] == pick, limit, carry=carry)
        assert (want is None) == (got is None)
        if want is not None:
            assert got[0] == want[0] and (got[1] == want[1]).all()
        assert _same_state(a, b)
        taken_up += len(screened) == batches
        if call % 5 == 0:
            assert a.integers(1 << 30) == b.integers(1 << 30)  # a draw between calls: nothing carried fits
        if call % 3 == 0:  # another generator's call between two of this one's
            w = _first_row(pick)(other_a, 10_000)
            g = first_kept(other_b, 36, "rows", screen, lambda rows, j: rows[j, 0] == pick, 10_000, carry=carry)
            assert g[0] == w[0] and _same_state(other_a, other_b)
    # calls that drew nothing took up rows carried over (none without carry: first_accepted's draws)
    assert taken_up > 10 if carry else taken_up == 0


def _first_where(rng, keep, limit=10_000):
    for attempt in range(1, limit + 1):
        row = rng.permutation(36)
        if keep(row):
            return attempt, row


def test_first_kept_takes_up_rows_only_under_their_key():
    """Rows screened for one key are not taken up under another, though the generator state fits."""
    forget_carried()
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    even = lambda rows: iter(j for j in range(len(rows)) if rows[j, 0] % 2 == 0)  # noqa: E731
    everything = lambda rows: iter(range(len(rows)))  # noqa: E731
    got = first_kept(b, 36, "even", even, lambda rows, j: True, 10_000)
    assert got[0] == _first_where(a, lambda row: row[0] % 2 == 0)[0]
    got = first_kept(b, 36, "odd", everything, lambda rows, j: rows[j, 0] % 2 == 1, 10_000)
    want = _first_where(a, lambda row: row[0] % 2 == 1)
    assert got[0] == want[0] and (got[1] == want[1]).all()
    assert _same_state(a, b)


def _scalar_refuses(size, walls, blocks, drawn):
    layout = sokoban.layout_from_draw(size, walls, blocks, drawn)
    if sokoban.quick_reject(layout):
        return True
    occupied = {tuple(x) for x in layout["walls"]} | {tuple(x) for x in layout["blocks"]}
    blocks_set = {tuple(x) for x in layout["blocks"]}
    for open_cells in sokoban.frozen_windows(size, layout["walls"], layout["goals"]):
        if all(tuple(x) in blocks_set for x in open_cells) and occupied:
            return True
    return False


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "id"), (5, "ood"), (6, "id"), (6, "ood")])
def test_screen_matches_the_cell_by_cell_claims(size, split):
    rng = np.random.default_rng(size * 10 + (split == "ood"))
    for _ in range(4):
        p = sokoban.sampling_params(size, split, rng)
        w, n = p["walls"], p["blocks"]
        rows = permutation_rows(rng, size * size, 500)
        kept = set(surviving_rows(size, w, n, rows).tolist())
        for j in range(len(rows)):
            drawn = rows[j, : w + 1 + 2 * n].tolist()
            assert (j not in kept) == _scalar_refuses(size, w, n, drawn), drawn
            if j not in kept and j % 5 == 0:  # a refused draw is one the full search cannot solve
                assert sokoban.search_draw(size, w, n, drawn).plan is None


@pytest.mark.parametrize("size", [3, 4, 5, 6, 8])
def test_cornered_cells_are_the_cells_no_push_leaves(size):
    """The screen's first filter: a cell with a wall or the grid's edge on a vertical side and on a
    horizontal side, read cell by cell; off the goal squares, Claim 1 (Board.live) finds it dead."""
    from svot.domains.sokoban.screen import batch_board

    rng = np.random.default_rng(size)
    b, board = batch_board(size), sokoban.board(size)
    for _ in range(60):
        walls = rng.random((size, size)) < rng.uniform(0.1, 0.5)
        wall_bits = sum(1 << (r * size + c) for r in range(size) for c in range(size) if walls[r, c])
        got = int(b.cornered(np.array([wall_bits], dtype=np.uint64))[0])

        def blocked(r, c):
            return not (0 <= r < size and 0 <= c < size) or walls[r, c]

        want = sum(
            1 << (r * size + c)
            for r in range(size)
            for c in range(size)
            if (blocked(r - 1, c) or blocked(r + 1, c)) and (blocked(r, c - 1) or blocked(r, c + 1))
        )
        assert got == want
        free = board.full & ~wall_bits
        goals = free & int(rng.integers(0, 1 << 62)) & board.full
        assert not board.live(free, goals) & got & free & ~goals  # a block there, off the goals: dead


@pytest.mark.parametrize("size", [4, 5, 6])
def test_search_draw_reads_the_bound_problem(size):
    spec = get_spec("sokoban")
    rng = np.random.default_rng(size)
    grounding = shared_grounding(get_spec("sokoban"), size)
    for _ in range(60):
        p = sokoban.sampling_params(size, "ood", rng)
        drawn = sokoban.draw(size, p["walls"], p["blocks"], rng)
        layout = sokoban.layout_from_draw(size, p["walls"], p["blocks"], drawn)
        problem = spec.problem_from_state(layout, "x")
        assert sokoban.search_draw(size, p["walls"], p["blocks"], drawn) == sokoban.search(problem, layout)
        bound = grounding.bind(problem)
        t = sokoban.atom_bits(size)
        assert bound.goal_pos == sum(t.block[i] for i in drawn[p["walls"] + 1 + p["blocks"] :])


def _one_by_one(size, split, rng):
    """The sampler's loop before batching: one permutation, one check, one search at a time."""
    spec = get_spec("sokoban")
    params = sokoban.sampling_params(size, split, rng)
    w, n = params["walls"], params["blocks"]
    for attempt in range(1, 100_000):
        drawn = sokoban.draw(size, w, n, rng)
        layout = sokoban.layout_from_draw(size, w, n, drawn)
        if sokoban.quick_reject(layout):
            continue
        problem = spec.problem_from_state(layout, problem_name("sokoban", size, split, layout))
        result = sokoban.search(problem, layout)
        if result.solved:
            return problem, result.plan, attempt


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "ood"), (6, "id"), (6, "ood")])
def test_generate_equals_the_one_by_one_loop(size, split):
    a, b = np.random.default_rng(size), np.random.default_rng(size)
    for _ in range(5):
        problem, plan, attempt = _one_by_one(size, split, a)
        g = generate("sokoban", size, split, b)
        assert g.problem.to_pddl() == problem.to_pddl() and g.problem.name == problem.name
        assert g.plan == plan and g.params["attempts"] == attempt
    assert a.integers(1 << 62) == b.integers(1 << 62)


@pytest.mark.parametrize("size,split", [(4, "id"), (5, "ood"), (6, "id"), (6, "ood")])
@pytest.mark.parametrize("plan", [True, False])
def test_draw_by_draw_screen_keeps_the_numpy_screens_draws(size, split, plan, monkeypatch):
    """Small batches are screened draw by draw (Claims 1-2, Claim 3 left to the search): the same
    problems, plans, attempts and generator state as screening every batch in numpy."""
    runs = []
    for rows in (0, 1 << 30):  # numpy for every batch, then Python for every batch
        monkeypatch.setattr(sokoban, "SCALAR_SCREEN_ROWS", rows)
        monkeypatch.setattr(sokoban, "SCALAR_MEAN_ATTEMPTS", -1 if rows == 0 else rows)
        forget_carried()  # else the second run takes up the first one's screened rows
        rng = np.random.default_rng(size * 3 + (split == "ood"))
        got = [sokoban.generate(size, split, rng, plan=plan) for _ in range(6)]
        runs.append(([g.problem.to_pddl() for g in got], [g.plan for g in got], [g.params for g in got], rng.integers(1 << 62)))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "ood"), (6, "id")])
def test_claim4_asked_or_not_keeps_the_same_draws(size, split, monkeypatch):
    """Claim 4 is asked only where the last problems took many draws (CLAIM4_MEAN_ATTEMPTS): asked on
    every draw or on none (but where Claim 5 shares its games), the same problems, attempts and
    generator state, since it refuses only draws the search refuses. Interpreted (region_kernel.ENABLED
    off, as SVOT_JIT=0 does): with the search compiled the sampler plays no Claim 4
    (tests/engine/test_region_kernel.py)."""
    monkeypatch.setattr(region_kernel, "ENABLED", False)
    runs = []
    for threshold in (-1, 1 << 30):  # Claim 4 on every draw, then on none
        monkeypatch.setattr(sokoban, "CLAIM4_MEAN_ATTEMPTS", threshold)
        forget_carried()
        rng = np.random.default_rng(size * 5 + (split == "ood"))
        got = [sokoban.generate(size, split, rng, plan=False) for _ in range(6)]
        runs.append(([g.problem.to_pddl() for g in got], [g.params for g in got], rng.integers(1 << 62)))
    assert runs[0] == runs[1]
