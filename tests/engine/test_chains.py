"""Compiled internal chains (svot.engine.chain) against stepping the internal actions one by one.

Every engine that runs a compiled chain is compared with the same engine
stepping its chain (the stepwise path is kept for ``settle``/``trace`` and as the
fallback), state for state: the grounded engines' ints and the vector engine's
rows must be identical, not merely the same atoms. The PDDLGym comparison of the
compiled engines is ``test_differential.py`` (it steps ``spec.make_engine``,
which runs compiled chains).
"""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.engine import GroundedEngine
from svot.engine.chain import ChainCompiler, at_most_one_groups, balanced_groups
from svot.engine.grounded import SharedGroundedEngine
from svot.engine.vector import VectorEngine
from svot.errors import ProblemError
from svot.pddl import Problem, load_domain
from svot.pddl.domain import parse_domain

GATHER = get_spec("gather")
CASES = [(n, s) for n in GATHER.sizes for s in ("id", "ood")]


def _stepping(engine):
    """The same engine with its compiled chains switched off (internal actions stepped one by one)."""
    engine._programs = None
    return engine


def _problems(size, split, n, seed):
    rng = np.random.default_rng(seed)
    return [generate("gather", size, split, rng).problem for _ in range(n)]


@pytest.mark.parametrize("size,split", CASES)
def test_grounded_chains_match_stepping_state_for_state(size, split):
    dom = load_domain(GATHER.pddl)
    keys = [GATHER.action_key(a, size) for a in range(GATHER.n_actions(size))]
    rng = np.random.default_rng([size, ord(split[0])])
    compiled_steps = 0
    for problem in _problems(size, split, 6, seed=size * 10 + len(split)):
        for fast in (GATHER.make_engine(problem), GroundedEngine(dom, problem, GATHER.internal)):
            assert fast._programs is not None
            slow = _stepping(type(fast).__new__(type(fast)))
            slow.__dict__.update(fast.__dict__)
            _stepping(slow)
            a = b = fast.initial()
            for _ in range(400):
                key = keys[rng.integers(len(keys))]
                a, ok_a = fast.step(a, key)
                b, ok_b = slow.step(b, key)
                assert (a, ok_a) == (b, ok_b), (problem.name, key)
            compiled_steps += sum(1 for p in fast._programs.values() if p)
    assert compiled_steps > 0


@pytest.mark.parametrize("size", GATHER.sizes)
def test_every_chain_end_state_matches_stepping(size):
    """Each agent ground action from many reachable states: the macro's end state is stepping's settled state."""
    dom = load_domain(GATHER.pddl)
    keys = [GATHER.action_key(a, size) for a in range(GATHER.n_actions(size))]
    rng = np.random.default_rng(size)
    checked = 0
    for problem in _problems(size, "ood", 3, seed=size):
        eng = GroundedEngine(dom, problem, GATHER.internal)
        comp = eng._chains.compiler
        index = {id(ga): i for i, ga in enumerate(eng.task.actions)}
        state = eng.initial()
        for _ in range(40):
            for key in keys:
                ga = eng.task.find(state, key)
                if ga is None:
                    continue
                macro = comp.macro(index[id(ga)])
                assert macro is not None, ga
                assert macro.run(state) == eng.settle(ga.apply(state)), (ga.name, ga.args)
                checked += 1
            state, _ = eng.step(state, keys[rng.integers(len(keys))])
    assert checked > 100


def test_compiled_gather_chain_reads_only_the_cells_entered():
    """Derived from the PDDL, not written by hand: a k-cell move has k open steps, each testing the next cell's
    ``clear`` or one ``ball`` per colour; ``arrive`` and the heading/destination bookkeeping are folded away."""
    size = 5
    problem = _problems(size, "id", 1, seed=3)[0]
    eng = GroundedEngine(load_domain(GATHER.pddl), problem, GATHER.internal)
    comp = eng._chains.compiler
    colours = problem.objects_of("colour")
    starts = [i for i, ga in enumerate(eng.task.actions) if ga.name == "start"]
    assert starts
    for i in starts:
        ga = eng.task.actions[i]
        frm, to, _, k = ga.args
        macro = comp.macro(i)
        steps = int(k.lstrip("k"))
        assert len(macro.steps) == steps
        for alts in macro.steps:
            reads = [eng.task.fluent_atoms(a.pos) + eng.task.fluent_atoms(a.neg) for a in alts]
            assert all(len(r) == 1 for r in reads)
            cell = reads[0][0][1]
            assert sorted(r[0] for r in reads) == sorted([("clear", cell)] + [("ball", cell, c) for c in colours])
        if eng.task.find(eng.initial(), ga.key) is ga:  # from the start cell: the move ends idle on `to`
            after = set(eng.task.fluent_atoms(macro.run(eng.initial())))
            assert ("at", to) in after and ("idle",) in after
            assert not any(a[0] in ("dest", "heading") for a in after)


def test_invariants_come_from_the_pddl():
    dom = load_domain(GATHER.pddl)
    groups = balanced_groups(dom)
    assert ("at",) in groups and ("heading", "idle") in groups and ("dest", "idle") in groups
    problem = _problems(4, "id", 1, seed=0)[0]
    assert ("dest", "idle") in at_most_one_groups(dom, [problem.init])
    assert at_most_one_groups(dom, [problem.init | {("dest", "c_0_0")}]) == [
        g for g in at_most_one_groups(dom, [problem.init]) if "dest" not in g
    ]


def test_problem_breaking_an_invariant_still_steps_exactly():
    """A problem starting with an extra (dest c): the (dest, idle) invariant does not hold, so it is not used."""
    dom = load_domain(GATHER.pddl)
    size = 4
    base = _problems(size, "id", 1, seed=5)[0]
    odd = Problem(base.domain, "odd", base.objects, base.init | {("dest", "c_2_2")}, base.goal)
    keys = [GATHER.action_key(a, size) for a in range(GATHER.n_actions(size))]
    for fast in (GroundedEngine(dom, odd, GATHER.internal), GATHER.make_engine(odd)):
        slow = type(fast).__new__(type(fast))
        slow.__dict__.update(fast.__dict__)
        _stepping(slow)
        rng = np.random.default_rng(1)
        a = b = fast.initial()
        for _ in range(300):
            key = keys[rng.integers(len(keys))]
            a, ok_a = fast.step(a, key)
            b, ok_b = slow.step(b, key)
            assert (a, ok_a) == (b, ok_b)
    # the vector engine compiled for ordinary problems refuses it (its chains rest on the invariant)
    spec = GATHER
    shared = [x for x in spec.base_atoms(size) if x[0] in dom.static_predicates]
    eng = VectorEngine(dom, spec.base_objects(size), shared, spec.internal, reference=[base])
    with pytest.raises(ProblemError, match="at most one"):
        eng.encode([odd])


def _vector(size, problems):
    dom = load_domain(GATHER.pddl)
    shared = [a for a in GATHER.base_atoms(size) if a[0] in dom.static_predicates]
    return VectorEngine(dom, GATHER.base_objects(size), shared, GATHER.internal, reference=problems)


@pytest.mark.parametrize("size,split", CASES)
def test_vector_chains_match_vector_stepping_row_for_row(size, split):
    pool = _problems(size, split, 24, seed=100 + size)
    fast, slow = _vector(size, pool), _vector(size, pool)
    assert fast.chains is not None
    slow.chains = None  # settle internal actions pass by pass
    n = 48
    batch_f, batch_s = fast.encode(pool), slow.encode(pool)
    st_f, st_s = fast.new_state(n, batch_f), slow.new_state(n, batch_s)
    which = np.arange(n) % len(pool)
    fast.load(st_f, slice(None), batch_f, which)
    slow.load(st_s, slice(None), batch_s, which)
    keys = [GATHER.action_key(a, size) for a in range(GATHER.n_actions(size))]
    rows_f, rows_s = fast.key_ids(keys), slow.key_ids(keys)
    sampled = range(0, n, 7)  # envs also followed in the grounded engine
    singles = {i: GroundedEngine(load_domain(GATHER.pddl), pool[which[i]], GATHER.internal) for i in sampled}
    states = {i: g.initial() for i, g in singles.items()}
    rng = np.random.default_rng(size)
    for t in range(150):
        act = rng.integers(len(keys), size=n)
        ok_f = fast.step(st_f, rows_f[act])
        ok_s = slow.step(st_s, rows_s[act])
        assert np.array_equal(ok_f, ok_s), t
        assert np.array_equal(st_f.rows, st_s.rows), t
        assert np.array_equal(st_f.code, st_s.code), t
        assert np.array_equal(fast.is_goal(st_f), slow.is_goal(st_s)), t
        for i in sampled:  # and the grounded engine's atoms, for a sample of envs
            states[i], ok = singles[i].step(states[i], keys[act[i]])
            assert ok == bool(ok_f[i])
            assert fast.true_atoms(st_f.rows[i]) == singles[i].true_atoms(states[i])
        if t == 75:  # reload some envs mid-run, as autoreset does
            swap = np.arange(0, n, 3)
            fast.load(st_f, swap, batch_f, (swap + 5) % len(pool))
            slow.load(st_s, swap, batch_s, (swap + 5) % len(pool))
            for i in swap:
                if i % 7 == 0:
                    singles[i] = GroundedEngine(load_domain(GATHER.pddl), pool[(i + 5) % len(pool)], GATHER.internal)
                    states[i] = singles[i].initial()


# --- a chain that cannot be compiled: the engines step it -------------------------------------------

_TOY = """
(define (domain relay)
  (:requirements :strips :negative-preconditions)
  (:predicates (idle) (one) (two) (p) (q) (r) (go) (hop) (flip))
  ; (:actions go hop flip)
  (:action start :parameters () :precondition (and (go) (idle)) :effect (and (not (idle)) (one)))
  (:action onep :parameters () :precondition (and (hop) (one) (p)) :effect (and (not (one)) (two) (q)))
  (:action onen :parameters () :precondition (and (hop) (one) (not (p))) :effect (and (not (one)) (two)))
  (:action twoq :parameters () :precondition (and (hop) (two) (q)) :effect (and (not (two)) (idle) (r)))
  (:action twon :parameters () :precondition (and (hop) (two) (not (q))) :effect (and (not (two)) (idle)))
  (:action setp :parameters () :precondition (and (flip) (idle)) :effect (and (p)))
)
"""


def test_uncompilable_chain_falls_back_to_stepping():
    """Step two reads (q), which step one writes on one branch only: no macro, the chain is stepped."""
    dom = parse_domain(_TOY, "<relay>")
    problem = Problem("relay", "relay-1", (), frozenset({("idle",)}), (("r",),))
    eng = GroundedEngine(dom, problem, ("hop",))
    comp = eng._chains.compiler
    start = next(i for i, ga in enumerate(eng.task.actions) if ga.name == "start")
    assert comp.macro(start) is None
    s, ok = eng.step(eng.initial(), ("go",))
    assert ok and eng.true_atoms(s) == {("idle",)}
    s, _ = eng.step(s, ("flip",))
    s, _ = eng.step(s, ("go",))
    assert eng.true_atoms(s) == {("idle",), ("p",), ("q",), ("r",)}
    # the vector engine gets no compiled chains either: it settles pass by pass, with the same result
    vec = VectorEngine(dom, (), [], ("hop",), reference=[problem])
    assert vec.chains is None
    st = vec.new_state(1)
    vec.load(st, slice(None), vec.encode([problem]), np.arange(1))
    for key in (("go",), ("flip",), ("go",)):
        vec.step(st, vec.key_ids([key]))
    assert vec.true_atoms(st.rows[0]) == {("idle",), ("p",), ("q",), ("r",)}
