"""The grounded engine against PDDLGym's successor function, step for step."""

from __future__ import annotations

import pytest

import numpy as np

from svot.domains import get_spec
from svot.engine import GroundTask, bfs_plan, make_engine
from svot.pddl import load_domain
from tests.conftest import HAVE_PDDLGYM


def _engines(name, state):
    """(spec, compiled engine, PDDLGym's engine or None where PDDLGym is not installed)."""
    spec = get_spec(name)
    domain = load_domain(spec.pddl)
    problem = spec.problem_from_state(state, f"{name}-t")
    return (
        spec,
        make_engine("grounded", domain, problem, spec.internal),
        make_engine("pddlgym", domain, problem, spec.internal) if HAVE_PDDLGYM else None,
    )


@pytest.mark.pddlgym
def test_random_walk_agrees_with_pddlgym(sample):
    name, state = sample
    spec, g, r = _engines(name, state)
    rng = np.random.default_rng(1)
    sg, sr = g.initial(), r.initial()
    assert g.true_atoms(sg) == r.true_atoms(sr)
    inapplicable = 0
    for _ in range(300):
        key = spec.action_key(int(rng.integers(spec.n_actions(state["size"]))), state["size"])
        sg, ag = g.step(sg, key)
        sr, ar = r.step(sr, key)
        inapplicable += not ag
        assert ag == ar
        assert g.true_atoms(sg) == r.true_atoms(sr)
        assert g.is_goal(sg) == r.is_goal(sr)
    assert inapplicable > 0  # the walk exercised blocked moves too


def test_at_most_one_ground_action_applies(sample):
    """The domains are deterministic: an action literal selects at most one ground operator."""
    name, state = sample
    spec, g, _ = _engines(name, state)
    task = g.task
    rng = np.random.default_rng(2)
    s = g.initial()
    for _ in range(100):
        for key in task.keys():
            assert len(task.applicable_all(s, key)) <= 1
            found = task.find(s, key)
            assert (found is None) == (not task.applicable_all(s, key))
        key = spec.action_key(int(rng.integers(spec.n_actions(state["size"]))), state["size"])
        s, _ = g.step(s, key)


def test_static_predicates_are_folded():
    spec = get_spec("sokoban")
    from tests.conftest import SAMPLE_STATES

    problem = spec.problem_from_state(SAMPLE_STATES["sokoban"], "t")
    task = GroundTask(load_domain("sokoban"), problem)
    assert {a[0] for a in task.fluents} == {"at", "block"}
    # no ground action moves into a wall cell: the wall precondition was folded away
    assert not any(ga.args[1] == "c_4_4" and ga.name == "walk" for ga in task.actions)
    unfolded = GroundTask(load_domain("sokoban"), problem, fold=["adj"])
    assert {a[0] for a in unfolded.fluents} == {"at", "block", "wall", "goal"}


def test_sokoban_push_semantics():
    spec = get_spec("sokoban")
    state = {"domain": "sokoban", "size": 4, "player": [0, 1], "walls": [[3, 1]], "blocks": [[1, 1]], "goals": [[2, 1]]}
    _, g, _ = _engines("sokoban", state)
    s = g.initial()
    s, ok = g.step(s, ("move", "down"))
    assert ok and g.is_goal(s)
    assert spec.state_dict(g.true_atoms(s), 4)["player"] == [1, 1]
    s2, ok = g.step(s, ("move", "down"))  # block against the wall: nothing moves
    assert not ok and s2 == s


def test_gather_k_move_collects_along_path():
    spec = get_spec("gather")
    state = {"domain": "gather", "size": 4, "player": [0, 0], "balls": {"red": [[0, 1], [0, 3]], "green": [[1, 0]]}}
    _, g, r = _engines("gather", state)
    key = spec.action_key(spec.parse_action("move right 3", 4), 4)
    s, ok = g.step(g.initial(), key)
    sd = spec.state_dict(g.true_atoms(s), 4)
    assert ok and sd["player"] == [0, 3] and sd["collected"] == {"red": 2, "green": 0}
    # a move that would leave the grid changes nothing
    s2, ok = g.step(s, spec.action_key(spec.parse_action("move up 1", 4), 4))
    assert not ok and s2 == s
    if r is not None:  # and PDDLGym's successor function agrees, where it is installed
        rs, _ = r.step(r.initial(), key)
        assert r.true_atoms(rs) == g.true_atoms(s)


def test_bfs_finds_shortest_plan():
    state = {"domain": "maze", "size": 5, "player": [0, 0], "walls": [[0, 1], [1, 1], [2, 1], [3, 1]], "goal": [0, 2]}
    spec, g, _ = _engines("maze", state)
    keys = [spec.action_key(a, 5) for a in range(4)]
    plan = bfs_plan(g.initial(), g.step, keys, g.is_goal)
    assert plan is not None and len(plan) == 10
    s = g.initial()
    for k in plan:
        s, _ = g.step(s, k)
    assert g.is_goal(s)
    walled = dict(state, walls=state["walls"] + [[4, 1]])
    _, g2, _ = _engines("maze", walled)
    assert bfs_plan(g2.initial(), g2.step, keys, g2.is_goal) is None


def test_decision_index_is_sound_on_random_actions():
    """Whatever the masks, the index finds an applicable ground action exactly when a scan does.

    Random actions over 24 atoms, several pivot atoms true at once, shared
    preconditions, actions with no positive precondition: the cases the
    greedy splitter has to stay sound on.
    """
    from svot.engine.grounded import GroundAction, _index_by_key, _predicate_bits, _select

    rng = np.random.default_rng(5)
    atoms = [(p, f"o{i}") for p in ("a", "b", "c") for i in range(8)]
    bit = {a: 1 << i for i, a in enumerate(atoms)}
    for trial in range(40):
        actions = []
        for j in range(int(rng.integers(1, 60))):
            pos = sum(b for b in bit.values() if rng.random() < 0.12)
            neg = sum(b for b in bit.values() if rng.random() < 0.05) & ~pos
            actions.append(GroundAction("op", (str(j),), ("act", str(j % 3)), pos, neg, 0, 0))
        counts = {"a": int(rng.integers(0, 3))}
        index = _index_by_key(actions, _predicate_bits(bit), counts)
        for _ in range(300):
            state = int(rng.integers(0, 1 << 24))
            for key in {ga.key for ga in actions}:
                scan = [ga for ga in actions if ga.key == key and ga.applies(state)]
                found = _select(index[key], state)
                assert (found is None) == (not scan), (trial, key, state)
                assert found is None or found in scan


def test_shared_grounding_index_finds_the_one_applicable_action():
    """On the shared groundings the env steps on, find() agrees with a scan of every ground action."""
    from svot.engine.grounded import SharedGroundedEngine, shared_grounding
    from svot.domains import generate

    rng = np.random.default_rng(3)
    for name in ("maze", "frozenlake", "sokoban", "pacman", "gather"):
        spec = get_spec(name)
        size = max(spec.sizes)
        domain = load_domain(spec.pddl)
        shared = shared_grounding(
            domain, spec.base_objects(size), [a for a in spec.base_atoms(size) if a[0] in domain.static_predicates],
            spec.internal,
        )
        keys = shared.task.keys()
        for _ in range(3):
            engine = SharedGroundedEngine(shared, generate(name, size, "id", rng).problem)
            s = engine.initial()
            for _ in range(60):
                for key in keys:
                    scan = shared.task.applicable_all(s, key)
                    assert len(scan) <= 1
                    assert shared.find(s, key) == (scan[0] if scan else None)
                s, _ = engine.step(s, spec.action_key(int(rng.integers(spec.n_actions(size))), size))
