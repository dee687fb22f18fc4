"""The batched VectorEngine against the single-problem GroundedEngine, step for step."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.engine import GroundedEngine
from svot.engine.vector import VectorEngine
from svot.envs.observation import observation_layout
from svot.errors import ProblemError
from svot.pddl import Problem, load_domain

# one size per domain (the middle Table 5 size), both splits
CASES = [
    (d, n, s)
    for d, n in [("maze", 6), ("frozenlake", 5), ("sokoban", 5), ("pacman", 5), ("gather", 5), ("regularmaze", 4), ("questmaze", 4)]
    for s in ("id", "ood")
]
N_ENVS = 16
N_STEPS = 250  # 16 × 250 = 4,000 random steps per case


def _problems(domain: str, size: int, split: str, n: int, seed: int = 0) -> list[Problem]:
    rng = np.random.default_rng(seed)
    return [generate(domain, size, split, rng).problem for _ in range(n)]


def _engine(domain: str, size: int, problems) -> VectorEngine:
    spec = get_spec(domain)
    dom = load_domain(spec.pddl)
    shared = [a for a in spec.base_atoms(size) if a[0] in dom.static_predicates]
    return VectorEngine(dom, spec.base_objects(size), shared, spec.internal, reference=problems)


@pytest.mark.parametrize("domain,size,split", CASES)
def test_vector_engine_agrees_with_grounded_engine(domain, size, split):
    spec = get_spec(domain)
    dom = load_domain(spec.pddl)
    pool = _problems(domain, size, split, 2 * N_ENVS, seed=zlib.crc32(f"{domain}-{split}".encode()))
    eng = _engine(domain, size, pool)
    batch = eng.encode(pool)
    st = eng.new_state(N_ENVS, batch)
    which = np.arange(N_ENVS)
    eng.load(st, slice(None), batch, which)
    singles = [GroundedEngine(dom, pool[i], spec.internal) for i in which]
    states = [g.initial() for g in singles]
    n_actions = spec.n_actions(size)
    keys = [spec.action_key(a, size) for a in range(n_actions)]
    rows = eng.key_ids(keys)
    rng = np.random.default_rng(7)
    inapplicable = goals = 0
    for t in range(N_STEPS):
        if t == N_STEPS // 2:  # swap half the envs to other problems mid-run
            swap = np.arange(0, N_ENVS, 2)
            eng.load(st, swap, batch, swap + N_ENVS)
            for i in swap:
                singles[i] = GroundedEngine(dom, pool[i + N_ENVS], spec.internal)
                states[i] = singles[i].initial()
        actions = rng.integers(n_actions, size=N_ENVS)
        can = eng.applicable(st, rows)
        applied = eng.step(st, rows[actions])
        goal = eng.is_goal(st)
        for i, g in enumerate(singles):
            assert bool(can[i, actions[i]]) == (g.task.find(states[i], keys[actions[i]]) is not None)
            states[i], ok = g.step(states[i], keys[actions[i]])
            assert bool(applied[i]) == ok, (t, i)
            assert eng.true_atoms(st.rows[i]) == g.true_atoms(states[i]), (t, i)
            assert bool(goal[i]) == g.is_goal(states[i]), (t, i)
            inapplicable += not ok
            goals += bool(goal[i])
        # the row is exactly the encoding of the single engine's atoms (complements included)
        i = t % N_ENVS
        assert np.array_equal(st.rows[i], eng.row_of(singles[i].true_atoms(states[i])))
    assert inapplicable > 0
    assert eng.atom_strings(st.rows[0]) == singles[0].atom_strings(states[0])


def test_pivot_groups_and_tables_are_small():
    """The compile-time analysis finds the player's cell (and Gather's heading/idle) as pivots."""
    for domain, size in [("sokoban", 6), ("gather", 6), ("maze", 7)]:
        eng = _engine(domain, size, _problems(domain, size, "id", 4))
        assert ("at",) in eng.groups
        assert eng.table_width <= 2
    gather = _engine("gather", 6, _problems("gather", 6, "id", 4))
    assert ("heading", "idle") in gather.groups
    assert gather.internal_keys == (("advance",),)
    assert gather.code_covers_state is False
    assert _engine("frozenlake", 6, _problems("frozenlake", 6, "id", 4)).code_covers_state is True


def test_without_reference_problems_no_pivots_same_result():
    pool = _problems("sokoban", 4, "id", 6)
    spec = get_spec("sokoban")
    dom = load_domain("sokoban")
    shared = [a for a in spec.base_atoms(4) if a[0] in dom.static_predicates]
    plain = VectorEngine(dom, spec.base_objects(4), shared)
    fast = _engine("sokoban", 4, pool)
    assert plain.groups == [] and plain.n_codes == 1
    a, b = plain.new_state(6), fast.new_state(6)
    plain.load(a, slice(None), plain.encode(pool), np.arange(6))
    fast.load(b, slice(None), fast.encode(pool), np.arange(6))
    rows_a = plain.key_ids([spec.action_key(k, 4) for k in range(4)])
    rows_b = fast.key_ids([spec.action_key(k, 4) for k in range(4)])
    rng = np.random.default_rng(3)
    for _ in range(100):
        act = rng.integers(4, size=6)
        assert np.array_equal(plain.step(a, rows_a[act]), fast.step(b, rows_b[act]))
        for i in range(6):
            assert plain.true_atoms(a.rows[i]) == fast.true_atoms(b.rows[i])


def test_for_problems_folds_only_shared_statics():
    pool = _problems("maze", 5, "id", 5)
    eng = VectorEngine.for_problems(load_domain("maze"), pool)
    assert eng.fold == {"adj"}  # walls and goals differ between problems: they stay columns
    single = VectorEngine.for_problems(load_domain("maze"), pool[:1])
    assert single.fold == {"adj", "goal", "wall"}
    with pytest.raises(ProblemError, match="differ from the shared"):
        single.encode(pool[1:2])


def test_encode_refuses_foreign_problems():
    pool = _problems("sokoban", 5, "id", 3)
    eng = _engine("sokoban", 5, pool)
    other = _problems("sokoban", 4, "id", 1)[0]
    with pytest.raises(ProblemError, match="other objects"):
        eng.encode([other])
    maze = _problems("maze", 5, "id", 1)[0]
    with pytest.raises(ProblemError, match="for domain 'maze'"):
        eng.encode([maze])


def test_unknown_literal_never_applies():
    pool = _problems("maze", 5, "id", 2)
    eng = _engine("maze", 5, pool)
    st = eng.new_state(2)
    eng.load(st, slice(None), eng.encode(pool), np.arange(2))
    before = st.rows.copy()
    rows = eng.key_ids([("move", "sideways")] * 2)
    assert not eng.step(st, rows).any()
    assert np.array_equal(before, st.rows)


def test_actions_on_passages_no_reference_holds_are_left_out():
    """A walled maze's ``(open ?from ?dir ?to)`` passages differ per problem, so the template grounds
    every pair of cells; only the steps whose passage some reference problem holds are kept, and
    ``encode`` refuses a problem with a passage none of them held (its steps are missing)."""
    size = 4
    everything = _engine("regularmaze", size, [])  # no references: nothing is left out
    assert len(everything.task.actions) == (size * size) ** 2 * 4
    pool = _problems("regularmaze", size, "id", 64)
    eng = _engine("regularmaze", size, pool)
    inner_edges = 2 * size * (size - 1)
    assert len(eng.task.actions) == 2 * inner_edges  # each inner edge, both ways: 64 mazes open them all
    one = _problems("regularmaze", size, "id", 1, seed=5)
    small = _engine("regularmaze", size, one)
    other = next(p for p in pool if {a for a in p.init if a[0] == "open"} - set(one[0].init))
    with pytest.raises(ProblemError, match="no problem this vector engine was compiled for held"):
        small.encode([other])
    small.encode(one)  # its own reference is fine


@pytest.mark.parametrize("domain,size", [("questmaze", 4), ("sokoban", 5), ("pacman", 5), ("questmaze5", 5)])
def test_pick_table_chooses_the_first_applicable_candidate(domain, size):
    """The pick table (one word of a cell's literal columns, then a lookup) chooses what testing each
    candidate's literals in trial order chooses, on rows of random bits (any state, reachable or not)."""
    eng = _engine(domain, size, _problems(domain, size, "id", 8))
    assert eng.pick is not None and eng.table_width > 1
    n = 512
    rng = np.random.default_rng(11)
    st = eng.new_state(n)
    M = eng.n_atoms
    st.rows[:, :M] = rng.random((n, M)) < rng.random((n, 1))  # a density per row: sparse to dense
    st.rows[:, eng.COMP : eng.COMP + M] = 1 - st.rows[:, :M]
    flat = st.rows.reshape(-1)
    tried = 0
    for row in range(len(eng.agent_keys) + 1):  # the EMPTY row too
        codes = rng.integers(eng.n_codes, size=n)
        tix = row * eng.n_codes + codes
        by_pick = eng._pick(flat, st.base, tix)
        cand = eng.table.take(tix, 1)
        lits = eng.lit_col.take(cand, 0) + st.base[None, :, None]
        by_test = np.where(eng._all_ones(flat.take(lits)), cand, eng.DUMMY).min(0)
        assert np.array_equal(by_pick, by_test), (domain, row)
        tried += int((by_test != eng.DUMMY).sum())
    assert tried > 0  # some candidates held: the comparison is not all dummies


def test_passages_no_reference_holds_get_no_column():
    """Per-problem static atoms that no reference problem holds are 0 in every problem the engine
    accepts and read by no kept action: they get no state column (narrower rows); a problem that
    holds one is refused, as for the actions left out."""
    size = 4
    everything = _engine("regularmaze", size, [])
    pool = _problems("regularmaze", size, "id", 64)
    eng = _engine("regularmaze", size, pool)
    held = {a for p in pool for a in p.init if a[0] == "open"}
    assert {a for a in eng.col if a[0] == "open"} == held
    assert len({a for a in everything.col if a[0] == "open"}) == (size * size) ** 2 * 4
    assert eng.width < everything.width
    far = ("open", "c_0_0", "down", "c_3_3")  # not neighbours: no problem holds it
    assert far in everything.col and far not in eng.col
    with pytest.raises(ProblemError):
        eng.encode([Problem(domain=pool[0].domain, name="far", objects=pool[0].objects,
                            init=pool[0].init | {far}, goal=pool[0].goal)])


@pytest.mark.parametrize("domain,size", [("sokoban", 5), ("maze", 5)])
def test_a_static_atom_the_layout_places_keeps_its_column_and_literals(domain, size):
    """A wall no reference problem holds still has its observation slot: its column stays and so do
    the negative literals on it (moves into it), so a problem with that wall plays as the grounded
    engine plays it (regression: the literal was dropped while the column stayed)."""
    spec = get_spec(domain)
    dom = load_domain(spec.pddl)
    shared = [a for a in spec.base_atoms(size) if a[0] in dom.static_predicates]
    layout = observation_layout(spec, size, dom, {a[0] for a in shared})
    pool = _problems(domain, size, "id", 40)
    walls = sorted({a for p in pool for a in p.init if a[0] == "wall"})
    wall = next(w for w in walls if sum(w in p.init for p in pool) <= len(pool) // 2)
    refs = [p for p in pool if wall not in p.init]
    eng = VectorEngine(dom, spec.base_objects(size), shared, spec.internal, reference=refs, layout=layout)
    assert wall in layout and wall in eng.col
    walled = [p for p in pool if wall in p.init][:8]
    try:
        batch = eng.encode(walled)
    except ProblemError:
        return  # refused: the env compiles again with these problems among the references
    st = eng.new_state(len(walled), batch)
    eng.load(st, slice(None), batch, np.arange(len(walled)))
    singles = [GroundedEngine(dom, p, spec.internal) for p in walled]
    states = [g.initial() for g in singles]
    keys = [spec.action_key(a, size) for a in range(spec.n_actions(size))]
    rows = eng.key_ids(keys)
    rng = np.random.default_rng(2)
    for t in range(200):
        actions = rng.integers(len(keys), size=len(walled))
        applied = eng.step(st, rows[actions])
        for i, g in enumerate(singles):
            states[i], ok = g.step(states[i], keys[actions[i]])
            assert bool(applied[i]) == ok, (t, i)
            assert eng.true_atoms(st.rows[i]) == g.true_atoms(states[i]), (t, i)
