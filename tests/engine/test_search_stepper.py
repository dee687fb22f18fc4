"""svot.engine.search.SearchStepper: its pivot comes from the parsed PDDL, and it plans as bfs_plan does on the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from svot.domains import DOMAINS, generate, get_spec
from svot.kernel.grid import DIRECTIONS, adjacency_atoms, cell_name, grid_objects
from svot.engine import GroundedEngine, bfs_plan
from svot.engine.grounded import pivot_predicate, shared_grounding
from svot.engine.search import SearchStepper
from svot.domains.sokoban import generator as sokoban
from svot.domains.sokoban.generator import dead_masks
from svot.problem_gen.grounding import shared_grounding as search_grounding
from svot.pddl import Problem, load_domain
from svot.pddl.domain import parse_domain
from svot.engine import region_kernel

LAMPS = (Path(__file__).resolve().parents[1] / "toy_domain" / "lamps.pddl").read_text()

# no predicate is both balanced and needed by every operator: `lit` is switched on and off
TOGGLES = """
(define (domain toggles)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell)
  (:predicates (lit ?c - cell) (press ?c - cell))
  ; (:actions press)
  (:action switch-on :parameters (?c - cell) :precondition (and (press ?c) (not (lit ?c))) :effect (lit ?c))
  (:action switch-off :parameters (?c - cell) :precondition (and (press ?c) (lit ?c)) :effect (not (lit ?c)))
)
"""


# `mark` is tried before `walk` and does not exclude it (either may apply onto an unmarked cell): the
# engine takes `mark`, so a walk is not a free move there, and the region search must stand aside
MARKS = """
(define (domain marks)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell direction)
  (:predicates (adj ?from - cell ?dir - direction ?to - cell) (marked ?c - cell) (at ?c - cell) (move ?dir - direction))
  ; (:actions move)
  (:action mark :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to) (not (marked ?to)))
    :effect (and (not (at ?from)) (at ?to) (marked ?to)))
  (:action walk :parameters (?from - cell ?to - cell ?dir - direction)
    :precondition (and (move ?dir) (at ?from) (adj ?from ?dir ?to))
    :effect (and (not (at ?from)) (at ?to)))
)
"""


@pytest.fixture(params=["compiled", "interpreted"])
def search_mode(request, monkeypatch):
    """The region search compiled (svot.engine.region_kernel, the default) and interpreted
    (region_kernel.ENABLED off, as SVOT_JIT=0 does)."""
    monkeypatch.setattr(region_kernel, "ENABLED", request.param == "compiled")
    return request.param


def _lamps_problem(domain, size: int, player, lamps, pivot: str = "at") -> Problem:
    init = frozenset(adjacency_atoms(size)) | {(pivot, cell_name(player))} | {("lamp", cell_name(c)) for c in lamps}
    return Problem(domain.name, "p", tuple(grid_objects(size)), init, tuple(sorted(("lit", cell_name(c)) for c in lamps)))


def _plans(domain, problem, keys, shared_static=()):
    """The stepper's plan on a shared grounding, bfs_plan's on a per-problem GroundedEngine, the stepper and the bound problem."""
    shared = shared_grounding(domain, problem.objects, shared_static)
    bound = shared.bind(problem)
    stepper = SearchStepper(shared, keys)
    engine = GroundedEngine(domain, problem)
    ref = bfs_plan(engine.initial(), lambda s, a: engine.step(s, keys[a]), range(len(keys)), engine.is_goal)
    return stepper, bound, stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg), ref


def test_the_pivot_is_read_off_the_pddl():
    for name in DOMAINS:
        assert pivot_predicate(load_domain(get_spec(name).pddl)) == "at", name
    assert pivot_predicate(parse_domain(LAMPS)) == "at"
    assert pivot_predicate(parse_domain(LAMPS.replace("(at ", "(stands "))) == "stands"
    assert pivot_predicate(parse_domain(TOGGLES)) is None


@pytest.mark.parametrize("pivot", ["at", "stands"])
def test_a_renamed_pivot_still_searches_on_the_fast_path(pivot):
    domain = parse_domain(LAMPS.replace("(at ", f"({pivot} "), f"<lamps, {pivot}>")  # a source of its own: domains compare by it
    problem = _lamps_problem(domain, 4, (0, 0), [(1, 2), (3, 3), (2, 0)], pivot)
    keys = [("move", d) for d in DIRECTIONS]
    stepper, _, got, ref = _plans(domain, problem, keys, adjacency_atoms(4))
    assert stepper.pivot == pivot and stepper._moves() is not None  # every ground action bucketed by its pivot atom
    assert got.complete and got.plan == ref and len(ref) > 4


def test_a_domain_without_a_pivot_takes_the_generic_path():
    domain = parse_domain(TOGGLES)
    cells = [f"c{i}" for i in range(5)]
    problem = Problem(domain.name, "p", tuple((c, "cell") for c in cells), frozenset({("lit", "c1"), ("lit", "c3")}),
                      (("lit", "c0"), ("lit", "c4")), (("lit", "c1"),))
    keys = [("press", c) for c in cells]
    stepper, bound, got, ref = _plans(domain, problem, keys)
    assert stepper.pivot is None and stepper.pivot_mask == 0 and stepper._moves() is None
    assert got.complete and got.plan == ref == [0, 1, 4]
    engine = GroundedEngine(domain, problem)
    s, e = bound.initial(), engine.initial()
    for a in np.random.default_rng(3).integers(len(keys), size=40).tolist():
        s, applied = stepper.step(s, a)
        e, applied_e = engine.step(e, keys[a])
        assert applied == applied_e and bound.true_atoms(s) == engine.true_atoms(e)


@pytest.mark.parametrize("domain_name,size", [("maze", 5), ("sokoban", 5), ("frozenlake", 4)])
def test_rows_kept_across_problems_plan_as_a_fresh_stepper(domain_name, size):
    """Specialised rows are kept by the static bits they read: a stepper that has searched many
    problems plans each as a stepper that has seen none, and as bfs_plan on the problem's engine."""
    from svot.domains import generate
    from svot.problem_gen.grounding import shared_grounding as search_grounding

    spec = get_spec(domain_name)
    grounding = search_grounding(get_spec(domain_name), size)
    rng = np.random.default_rng(5)
    for i in range(40):
        problem = generate(domain_name, size, "ood" if i % 2 else "id", rng).problem
        bound = grounding.bind(problem)
        fresh = SearchStepper(grounding.shared, grounding.stepper.keys)
        kept = grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg)
        assert kept == fresh.bfs(bound.init, bound.goal_pos, bound.goal_neg)
        engine = GroundedEngine(load_domain(spec.pddl), problem)
        keys = grounding.stepper.keys
        ref = bfs_plan(engine.initial(), lambda s, a: engine.step(s, keys[a]), range(len(keys)), engine.is_goal)
        assert kept.plan == ref


def test_own_bits_are_the_problems_own_atoms_and_are_kept_per_init():
    from svot.domains import generate

    spec = get_spec("maze")
    problem = generate("maze", 5, "id", np.random.default_rng(2)).problem
    engine = spec.make_engine(problem)
    shared = engine.shared
    own, bits = shared.own_bits(problem)
    assert own == problem.init - shared.shared_static
    assert bits == sum(shared.task.bit[a] for a in own) == engine.initial()
    assert shared.own_bits(problem)[0] is own  # kept: the same init frozenset
    lacking = Problem(problem.domain, "x", problem.objects, problem.init - {next(iter(shared.shared_static))}, problem.goal)
    assert shared.own_bits(lacking)[1] is None
    foreign = Problem(problem.domain, "y", problem.objects, problem.init | {("wall", "c_9_9")}, problem.goal)
    assert shared.own_bits(foreign)[1] is None


def test_reachable_gives_bfs_verdict_on_lamps_and_the_generic_path():
    domain = parse_domain(LAMPS)
    keys = [("move", d) for d in DIRECTIONS]
    for lamps in ([(1, 2), (3, 3), (2, 0)], [(0, 0)], []):
        problem = _lamps_problem(domain, 4, (0, 0), lamps)
        stepper, bound, got, ref = _plans(domain, problem, keys, adjacency_atoms(4))
        reach = stepper.reachable(bound.init, bound.goal_pos, bound.goal_neg)
        assert reach.complete and reach.found == (ref is not None) == got.solved
    toggles = parse_domain(TOGGLES)
    cells = [f"c{i}" for i in range(5)]
    for neg in ((("lit", "c1"),), (("lit", "c0"),)):  # reachable, then a goal that contradicts itself
        problem = Problem(toggles.name, "p", tuple((c, "cell") for c in cells), frozenset({("lit", "c1")}),
                          (("lit", "c0"),), neg)
        stepper, bound, got, _ref = _plans(toggles, problem, [("press", c) for c in cells])
        reach = stepper.reachable(bound.init, bound.goal_pos, bound.goal_neg)
        assert reach.complete and reach.found == got.solved
    assert not reach.found


@pytest.mark.parametrize(
    "domain_name,size",
    [("sokoban", 4), ("sokoban", 5), ("sokoban", 6), ("maze", 5), ("frozenlake", 4), ("pacman", 4), ("questmaze", 4)],
)
def test_reachable_agrees_with_bfs_on_solvable_and_unsolvable_problems(domain_name, size, search_mode):
    """The verdict search and breadth-first search agree, dead masks included, on drawn problems and on
    the same problems with the goal made unreachable (a goal atom that no state can hold with the others)."""
    spec = get_spec(domain_name)
    grounding = search_grounding(get_spec(domain_name), size)
    stepper = grounding.stepper
    rng = np.random.default_rng(11)
    verdicts = set()
    for i in range(30):
        problem = generate(domain_name, size, "ood" if i % 2 else "id", rng).problem
        bound = grounding.bind(problem)
        masks = {}
        if domain_name == "sokoban":
            masks = dict(zip(("dead_any", "dead_all"), dead_masks(bound, spec.state_dict(problem.init, size))))
        goals = [(bound.goal_pos, bound.goal_neg)]
        # unreachable: the goal also asks that the player's start cell be held and not held at once
        start = bound.init & stepper.pivot_mask
        goals.append((bound.goal_pos | start, bound.goal_neg | start))
        # the goal plus a fluent the problem starts without and no search may need (often unreachable)
        extra = sorted(b for b in (1 << i for i in range(len(grounding.task.fluents))) if b & ~bound.init & ~stepper.static_mask)
        goals.append((bound.goal_pos | extra[i % len(extra)], bound.goal_neg))
        for pos, neg in goals:
            want = stepper.bfs(bound.init, pos, neg, **masks)
            got = stepper.reachable(bound.init, pos, neg, **masks)
            assert got.complete and want.complete and got.found == want.solved
            if not got.found:  # both searches met every state there is to meet: the same ones
                assert got.states == _by_states(stepper, bound.init, pos, neg, masks).states
            verdicts.add(got.found)
    assert verdicts == {True, False}


def _by_states(stepper, init, pos, neg, masks):
    """reachable's state-by-state search (an ``is_dead`` that refuses nothing turns the region search off)."""
    return stepper.reachable(init, pos, neg, **masks, is_dead=lambda s: False)


def test_walks_are_read_off_the_ground_actions():
    """The region search runs where every walk (a step that only moves the player) is a shift of the
    player's bit, blocked by bits at fixed offsets from its target, and excluded by the steps tried before it."""
    for name, size in (("sokoban", 6), ("maze", 5), ("frozenlake", 4), ("pacman", 4)):
        stepper = search_grounding(get_spec(name), size).stepper
        steps, _trig, _always = stepper._walks()
        assert sorted(k for _o, shifts in steps for k, _ in shifts) == sorted((-size, size, -1, 1)), name
    # Sokoban: a walk is blocked by a block or a wall on its target
    t = sokoban.atom_bits(6)
    stepper = t.grounding.stepper
    ((offsets, _shifts),) = stepper._walks()[0]
    at = t.at[7].bit_length()
    assert sorted(offsets) == sorted((t.block[7].bit_length() - at, t.wall[7].bit_length() - at))


def test_a_walk_the_engine_may_not_take_keeps_the_state_search():
    """Where a ground action tried before a walk does not exclude it, walks are not read as free
    moves, and the verdict is still bfs's: crossing the grid marks a cell on the way."""
    domain = parse_domain(MARKS)
    size = 3
    init = frozenset(adjacency_atoms(size)) | {("at", "c_0_0"), ("marked", "c_0_0")}
    problem = Problem(domain.name, "p", tuple(grid_objects(size)), init, (("at", "c_2_2"),))
    keys = [("move", d) for d in DIRECTIONS]
    stepper, bound, got, ref = _plans(domain, problem, keys, adjacency_atoms(size))
    assert stepper._moves() is not None and stepper._walks() is None
    assert got.plan == ref and len(ref) == 4
    middle = 0
    for r in range(size):
        for c in range(size):
            if (r, c) not in ((0, 0), (2, 2)):
                middle |= stepper.task.bit[("marked", cell_name((r, c)))]
    for neg, found in ((0, True), (middle, False)):  # nothing marked but the ends: unreachable
        want = stepper.bfs(bound.init, bound.goal_pos, neg)
        reach = stepper.reachable(bound.init, bound.goal_pos, neg)
        assert reach.complete and reach.found == want.solved == found


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "id"), (5, "ood"), (6, "id"), (6, "ood")])
def test_region_search_agrees_with_bfs_on_raw_sokoban_draws(size, split, search_mode):
    """Draws as the sampler makes them, unscreened (most are unsolvable), and kept problems, with and without the dead
    masks: the region search's verdict is bfs's, and on a refused draw it met the very states the
    state-by-state search meets."""
    spec = get_spec("sokoban")
    grounding = search_grounding(get_spec("sokoban"), size)
    stepper = grounding.stepper
    assert stepper._walks() is not None  # the region search is the one under test
    rng = np.random.default_rng(size * 7 + (split == "ood"))
    verdicts = []
    for i in range(60):
        if i % 4:
            p = sokoban.sampling_params(size, split, rng)
            drawn = sokoban.draw(size, p["walls"], p["blocks"], rng)
            layout = sokoban.layout_from_draw(size, p["walls"], p["blocks"], drawn)
        else:  # a kept problem: solvable
            layout = spec.state_dict(generate("sokoban", size, split, rng).problem.init, size)
            drawn = layout
        bound = grounding.bind(spec.problem_from_state(layout, "x"))
        masks = dict(zip(("dead_any", "dead_all"), dead_masks(bound, layout))) if i % 3 else {}
        want = stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg, **masks)
        got = stepper.reachable(bound.init, bound.goal_pos, bound.goal_neg, **masks)
        assert got.complete and got.found == want.solved, drawn
        if not got.found:
            assert got.states == _by_states(stepper, bound.init, bound.goal_pos, bound.goal_neg, masks).states
        verdicts.append(got.found)
    assert True in verdicts and verdicts.count(False) >= 10


def test_reachable_reports_a_capped_search_as_incomplete():
    grounding = search_grounding(get_spec("maze"), 7)
    problem = generate("maze", 7, "id", np.random.default_rng(3)).problem
    bound = grounding.bind(problem)
    start = bound.init & grounding.stepper.pivot_mask
    got = grounding.stepper.reachable(bound.init, bound.goal_pos | start, bound.goal_neg | start, max_states=3)
    assert not got.found and not got.complete and got.states > 3


def test_region_search_reads_dead_with_only_to_skip_steps(monkeypatch):
    """dead_with: answers that refute nothing leave the region search's states as they were; answers that
    refute every pivot after each step leave only the start's region (no kept problem is solved there,
    as every goal needs a push); a calls' log shows it is asked of the bits a step set. The interpreted
    search's (the compiled one does not ask it: tests/engine/test_region_kernel.py)."""
    monkeypatch.setattr(region_kernel, "ENABLED", False)
    size = 5
    t = sokoban.atom_bits(size)
    stepper = t.grounding.stepper
    rng = np.random.default_rng(9)
    pm = stepper.pivot_mask
    asked = []

    def nothing(bits, q):
        asked.append((bits, q))
        return 0, 0

    for _ in range(10):
        p = generate("sokoban", size, "ood", rng, plan=False).problem
        bound = t.grounding.bind(p)
        plain = stepper.reachable(bound.init, bound.goal_pos)
        assert plain.found
        assert stepper.reachable(bound.init, bound.goal_pos, dead_with=nothing) == plain
        assert not stepper.reachable(bound.init, bound.goal_pos, dead_with=lambda bits, q: (pm, pm)).found
    assert asked and all(bits and not bits & pm and q & pm and not q & (q - 1) for bits, q in asked)
