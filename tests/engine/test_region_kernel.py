"""svot.engine.region_kernel: the compiled region search is the interpreted one, state for state.

The compiled search claims more than the verdict: the same states met in the same order, so its
``Reach`` (found, states, complete) equals the interpreted search's without ``dead_with`` on every
search here. The sampler then draws the same problems from the same seed, compiled or not.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.kernel.grid import DIRECTIONS, adjacency_atoms, cell_name, grid_objects
from svot.domains.sokoban import generator as sokoban
from svot.domains.sokoban.screen import surviving_rows
from svot.engine import region_kernel
from svot.engine.grounded import shared_grounding
from svot.engine.search import SearchStepper
from svot.pddl import Problem
from svot.pddl.domain import parse_domain
from svot.problem_gen import draw_rng
from svot.problem_gen.grounding import shared_grounding as search_grounding

ROOT = Path(__file__).resolve().parents[2]
LAMPS = (ROOT / "tests" / "toy_domain" / "lamps.pddl").read_text()

pytestmark = pytest.mark.skipif(region_kernel._compiled() is None, reason="Numba is not importable here")


def _both(monkeypatch, stepper, *args, **kwargs):
    """``stepper.reachable(*args, **kwargs)`` compiled, then interpreted."""
    monkeypatch.setattr(region_kernel, "ENABLED", True)
    assert stepper.reach_compiled()
    got = stepper.reachable(*args, **kwargs)
    monkeypatch.setattr(region_kernel, "ENABLED", False)
    assert not stepper.reach_compiled()
    want = stepper.reachable(*args, **kwargs)
    monkeypatch.setattr(region_kernel, "ENABLED", True)
    return got, want


def _draw_masks(t, size, w, n, drawn):
    init, goal_pos, wall_board, goal_board = sokoban.initial_bits(t, w, n, drawn)
    b = sokoban.board(size)
    free = b.full & ~wall_board
    return init, goal_pos, t.blocks_on(free & ~b.live(free, goal_board))  # Claim 1's dead cells, as the sampler's


@pytest.mark.parametrize("size,split", [(3, "id"), (4, "id"), (4, "ood"), (5, "id"), (5, "ood"), (6, "id"), (6, "ood")])
def test_compiled_sokoban_search_meets_the_interpreted_ones_states(size, split, monkeypatch):
    """Draws as the sampler screens them (Claims 1-3), and raw ones, most unsolvable: the same Reach."""
    t = sokoban.atom_bits(size)
    stepper = t.grounding.stepper
    rng = np.random.default_rng(size * 11 + (split == "ood"))
    verdicts = []
    while len(verdicts) < 80:
        p = sokoban.sampling_params(size, split, rng)
        w, n = p["walls"], p["blocks"]
        rows = rng.permuted(np.tile(np.arange(size * size), (64, 1)), axis=1)
        screened = surviving_rows(size, w, n, rows).tolist()[:6] if size > 3 else []
        kept = sokoban.sample(size, split, rng).generated.state
        index = [r * size + c for key in ("walls", "player", "blocks", "goals") for r, c in (
            [kept[key]] if key == "player" else kept[key])]
        draws = [(w, n, rows[j, : w + 1 + 2 * n].tolist()) for j in screened + [0, 1]]
        draws.append((len(kept["walls"]), len(kept["blocks"]), index))  # solvable: a few per batch
        for w, n, drawn in draws:
            init, goal_pos, dead_any = _draw_masks(t, size, w, n, drawn)
            for dead in (dead_any, 0):
                got, want = _both(monkeypatch, stepper, init, goal_pos, 0, max_states=sokoban.MAX_STATES, dead_any=dead)
                assert got == want, (size, split, drawn, dead)
                verdicts.append(got.found)
    assert True in verdicts and verdicts.count(False) >= 10


@pytest.mark.parametrize("domain_name,size", [("maze", 5), ("maze", 7), ("pacman", 4), ("pacman", 5)])
def test_compiled_search_on_other_domains(domain_name, size, monkeypatch):
    """Maze (no other fluent bits: a flood) and Pacman (pellets eaten by the steps the flood does not take),
    with goals reachable and not."""
    grounding = search_grounding(get_spec(domain_name), size)
    stepper = grounding.stepper
    rng = np.random.default_rng(size)
    verdicts = set()
    for i in range(12):
        bound = grounding.bind(generate(domain_name, size, "ood" if i % 2 else "id", rng).problem)
        start = bound.init & stepper.pivot_mask
        for pos, neg in ((bound.goal_pos, bound.goal_neg), (bound.goal_pos | start, bound.goal_neg | start)):
            got, want = _both(monkeypatch, stepper, bound.init, pos, neg)
            assert got == want
            verdicts.add(got.found)
    assert verdicts == {True, False}


def test_a_toy_domain_searches_compiled(monkeypatch):
    """The tables come from the ground actions, not from a domain's name: the lamps toy domain (a walk
    onto a cell without a lamp, a step that lights one) gets a kernel, meets the interpreted search's
    states, and its verdicts are bfs's."""
    domain = parse_domain(LAMPS)
    keys = [("move", d) for d in DIRECTIONS]
    shared = shared_grounding(domain, tuple(grid_objects(4)), adjacency_atoms(4))
    stepper = SearchStepper(shared, keys)
    assert stepper.reach_compiled()
    for lamps in ([(1, 2), (3, 3), (2, 0)], [(0, 0)], []):
        init = frozenset(adjacency_atoms(4)) | {("at", "c_0_0")} | {("lamp", cell_name(c)) for c in lamps}
        problem = Problem(domain.name, "p", tuple(grid_objects(4)), init, tuple(sorted(("lit", cell_name(c)) for c in lamps)))
        bound = shared.bind(problem)
        reach, interpreted = _both(monkeypatch, stepper, bound.init, bound.goal_pos, bound.goal_neg)
        assert reach == interpreted
        assert reach.complete and reach.found == stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg).solved


# A push where the cell beyond is free, and a bump that marks the block's cell: at the grid's edge (no cell
# beyond) a pair keeps only the bump, inside it keeps both, and the engine takes the first that applies, so a
# trigger's row holds pairs of both shapes (the compiled search's singles, then its picks, as the interpreted).
# Operators are grounded in name order: ``bump`` comes before ``push``, so inside the grid the pick is a bump
# while the block's cell is unmarked; renamed ``tap`` it comes after, the pick is a push where the cell
# beyond is free, and a row's singles and picks then make different states, so that the order of the two
# phases shows in the states counted before a goal.
BUMPS = """
(define (domain bumps)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates (adj ?from - cell ?dir - direction ?to - cell) (block ?c - cell) (bumped ?c - cell)
               (at ?c - cell) (move ?dir - direction))
  ; (:actions move)
  (:action walk :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (block ?to)))
    :effect (and (not (at ?from)) (at ?to)))
  (:action push :parameters (?from - cell ?to - cell ?beyond - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (adj ?to ?dir ?beyond) (block ?to) (not (block ?beyond)))
    :effect (and (not (at ?from)) (at ?to) (not (block ?to)) (block ?beyond)))
  (:action bump :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (block ?to) (not (bumped ?to)))
    :effect (bumped ?to))
)
"""


@pytest.mark.parametrize("second", ["bump", "tap"])
def test_pairs_whose_pick_depends_on_the_state_search_compiled_in_the_same_order(second, monkeypatch):
    size = 4
    # a domain is known by its name and source (the groundings are cached by it): the variant is named apart
    domain = parse_domain(BUMPS.replace("action bump", f"action {second}").replace("bumps", f"bumps-{second}"))
    shared = shared_grounding(domain, tuple(grid_objects(size)), adjacency_atoms(size))
    stepper = SearchStepper(shared, [("move", d) for d in DIRECTIONS])
    kernel = region_kernel.region_kernel(stepper)
    assert kernel is not None
    # pairs with several candidates that push (push and bump) besides pairs with one (bump at the edge)
    sizes = np.diff(kernel.pair_start)
    assert 1 in sizes and 2 in sizes
    # a two-candidate pair's first is the bump (the player stays on its cell) or, renamed tap, the push
    firsts = kernel.cands[kernel.pair_start[:-1][sizes == 2]]
    assert set((firsts[:, 5] != firsts[:, 0]).tolist()) == {second == "tap"}
    rng = np.random.default_rng(3)
    cells = [(r, c) for r in range(size) for c in range(size)]
    verdicts = set()
    for _ in range(60):
        picked = [cells[i] for i in rng.permutation(len(cells))[:5]]
        player, blocks, marks = picked[0], picked[1:3], picked[3:] if rng.random() < 0.5 else picked[1:2]
        init = frozenset(adjacency_atoms(size)) | {("at", cell_name(player))} | {("block", cell_name(b)) for b in blocks}
        goal = tuple(sorted(("bumped", cell_name(m)) for m in marks))
        bound = shared.bind(Problem(domain.name, "p", tuple(grid_objects(size)), init, goal))
        got, want = _both(monkeypatch, stepper, bound.init, bound.goal_pos, bound.goal_neg)
        assert got == want
        assert got.found == stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg).solved
        verdicts.add(got.found)
    assert verdicts == {True, False}


def test_a_capped_compiled_search_is_incomplete_as_the_interpreted_one(monkeypatch):
    t = sokoban.atom_bits(6)
    stepper = t.grounding.stepper
    rng = np.random.default_rng(4)
    capped = 0
    while capped < 5:
        p = sokoban.sampling_params(6, "ood", rng)
        w, n = p["walls"], p["blocks"]
        init, goal_pos, _dead = _draw_masks(t, 6, w, n, sokoban.draw(6, w, n, rng))
        got, want = _both(monkeypatch, stepper, init, goal_pos, 0, max_states=40)
        assert got == want
        if not got.complete:
            assert not got.found and got.states > 40
            capped += 1


def test_dead_with_is_not_asked_by_the_compiled_search(monkeypatch):
    """dead_with is an optional pruning: the compiled search skips it (a call into Python per push), and
    its verdict stays; the interpreted search reads it (tests/engine/test_search_stepper.py)."""
    t = sokoban.atom_bits(5)
    stepper = t.grounding.stepper
    pm = stepper.pivot_mask
    rng = np.random.default_rng(9)
    asked = []

    def everything_dead(bits, q):
        asked.append(bits)
        return pm, pm

    for _ in range(5):
        bound = t.grounding.bind(generate("sokoban", 5, "ood", rng, plan=False).problem)
        assert stepper.reachable(bound.init, bound.goal_pos, dead_with=everything_dead).found
    assert not asked


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "ood"), (6, "id"), (6, "ood")])
def test_the_sampler_draws_the_same_problems_compiled_or_not(size, split, monkeypatch):
    """The compiled verdict search and the interpreted one (its reference, and the search where Numba
    cannot compile) keep the same draws: the same problems and attempts."""
    runs = []
    for jit in ("1", "0"):
        monkeypatch.setattr(region_kernel, "ENABLED", jit == "1")
        assert sokoban.atom_bits(size).grounding.stepper.reach_compiled() == (jit == "1")
        parent = np.random.default_rng(size * 5 + (split == "ood"))
        got = [generate("sokoban", size, split, draw_rng(parent), plan=False) for _ in range(8)]
        runs.append(([g.problem.to_pddl() for g in got], [g.params for g in got]))
    assert runs[0] == runs[1]


def test_without_numba_the_search_stays_interpreted(monkeypatch):
    stepper = SearchStepper(search_grounding(get_spec("sokoban"), 4).stepper.stepping, search_grounding(get_spec("sokoban"), 4).stepper.keys)
    bound = search_grounding(get_spec("sokoban"), 4).bind(generate("sokoban", 4, "id", np.random.default_rng(0)).problem)
    monkeypatch.setattr(region_kernel, "_kernel", False)  # what a failed import leaves
    assert region_kernel.region_kernel(stepper) is None and not stepper.reach_compiled()
    assert region_kernel.status() == "interpreted (Numba not importable)"
    assert stepper.reachable(bound.init, bound.goal_pos).found


def test_numba_is_imported_only_once_a_search_runs():
    code = (
        "import sys, gymnasium as gym, svot\n"
        "gym.make('SVoT/Maze-5x5-v0').reset(seed=0)\n"
        "before = 'numba' in sys.modules\n"
        "gym.make('SVoT/Sokoban-5x5-v0').reset(seed=0)\n"
        "print(before, 'numba' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True"]
