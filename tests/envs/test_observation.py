"""Observations read off state bits (svot.envs.observation) against the spec's cell_kinds."""

from __future__ import annotations

import logging

import gymnasium as gym
import numpy as np
import pytest

import svot  # noqa: F401  (registers the ids)
from svot.domains import DOMAINS, env_id, generate, get_spec
from svot.engine import GroundedEngine
from svot.envs.observation import BitObserver, observation_layout, observer_for, spec_observation
from svot.pddl import load_domain

DOMAIN_SIZES = [(d, n) for d in DOMAINS for n in get_spec(d).sizes]


@pytest.mark.parametrize("domain,size", DOMAIN_SIZES)
@pytest.mark.parametrize("split", ["id", "ood"])
def test_observer_grids_equal_the_specs_along_random_walks(domain, size, split):
    """From scratch and updated by the changed atoms, the grid is the spec's, step after step."""
    spec = get_spec(domain)
    rng = np.random.default_rng(7)
    n_actions = spec.n_actions(size)
    checked = 0
    for _ in range(6):
        problem = generate(domain, size, split, rng).problem
        engine = spec.make_engine(problem)
        observer = observer_for(spec, size, engine.task)
        s = engine.initial()
        static = observer.static_grid(spec.state_dict(engine.true_atoms(s), size)) if observer.undrawn else None
        grid = observer.observe(s, static)
        for _ in range(80):
            expected = spec_observation(spec, spec.state_dict(engine.true_atoms(s), size), size)
            assert np.array_equal(grid, expected)
            assert np.array_equal(observer.observe(s, static), expected)
            t, _ = engine.step(s, spec.action_key(int(rng.integers(n_actions)), size))
            grid, s = observer.update(grid, s, t), t
            checked += 1
    assert checked == 480


@pytest.mark.parametrize("domain", DOMAINS)
def test_only_edge_walls_are_drawn_by_no_atom(domain):
    """Every kind but an edge wall (the absence of an (open ...) passage) has an atom that draws it."""
    spec = get_spec(domain)
    for size in spec.sizes:
        problem = generate(domain, size, "id", np.random.default_rng(0)).problem
        observer = observer_for(spec, size, spec.make_engine(problem).task)
        undrawn = {k for i, k in enumerate(spec.kinds) if observer.undrawn >> i & 1}
        # (of the kinds a grid of this size can hold: Gather's smaller grids have fewer colours)
        assert undrawn == {"wall_right", "wall_down"} & set(spec.kinds_at(size))


class _MovingWalls(type(get_spec("questmaze"))):
    """A spec whose undrawn kind changes within an episode: a wall follows the player."""

    def cell_kinds(self, state):
        out = super().cell_kinds(state)
        out.setdefault(tuple(state["player"]), set()).add("wall_down")
        return out


def test_env_falls_back_to_the_spec_when_an_undrawn_kind_moves(caplog):
    """The observer takes the kinds no atom draws to be fixed for the episode; where they are not,
    its checks catch it and the env returns the spec's own grids."""
    env = gym.make(env_id("questmaze", 4), info_level="minimal")
    spec = _MovingWalls()
    rng = np.random.default_rng(0)
    with caplog.at_level(logging.WARNING, logger="svot.envs.observation"):
        for seed in range(20):  # episodes until one lets the player leave its start (some end at once)
            env.reset(seed=seed)
            u = env.unwrapped
            u.dspec = spec
            task = u.engine.task  # an observer of its own: the shared one may have finished its checks already
            u._observer = BitObserver(spec, 4, task.fluents, observation_layout(spec, 4, task.domain, set()), task.static_atoms)
            u._cache = {}
            for _ in range(60):
                obs, _, term, trunc, _ = env.step(int(rng.integers(4)))
                assert np.array_equal(obs, spec_observation(spec, u.state, 4))
                if term or trunc:  # (a reset fetches the shared observer again)
                    break
            if not u._observer.trusted:
                break
    assert "computing them through the spec" in caplog.text
    assert not u._observer.trusted
    env.close()


def test_per_problem_grounding_draws_folded_walls():
    """A per-problem GroundedEngine folds the walls away; the observer draws them from its static atoms."""
    spec = get_spec("maze")
    problem = generate("maze", 5, "id", np.random.default_rng(0)).problem
    engine = GroundedEngine(load_domain(spec.pddl), problem, spec.internal)
    assert not any(a[0] == "wall" for a in engine.task.fluents)
    observer = observer_for(spec, 5, engine.task)
    s = engine.initial()
    expected = spec_observation(spec, spec.state_dict(engine.true_atoms(s), 5), 5)
    assert (expected & 2).any()  # the maze has walls to draw
    assert np.array_equal(observer.observe(s), expected)


class _MisdrawnMaze(type(get_spec("maze"))):
    """A spec whose cell_kinds draws something no atom name says: the goal cell is also a wall."""

    def cell_kinds(self, state):
        out = super().cell_kinds(state)
        out.setdefault(tuple(state["goal"]), set()).add("wall")
        return out


def _misdrawn_observer(size, task):
    spec = _MisdrawnMaze()
    return spec, BitObserver(spec, size, task.fluents, observation_layout(spec, size, task.domain, set()), task.static_atoms)


def test_observer_that_disagrees_with_the_spec_is_distrusted(caplog):
    spec = get_spec("maze")
    problem = generate("maze", 5, "id", np.random.default_rng(1)).problem
    engine = spec.make_engine(problem)
    wrong_spec, observer = _misdrawn_observer(5, engine.task)
    s = engine.initial()
    sd = spec.state_dict(engine.true_atoms(s), 5)
    with caplog.at_level(logging.WARNING, logger="svot.envs.observation"):
        assert not observer.check(observer.observe(s), sd, "problem x")
    assert not observer.trusted
    assert f"disagree with spec.cell_kinds at cells [{tuple(sd['goal'])}]" in caplog.text


def test_env_falls_back_to_the_spec_when_its_observer_is_wrong(caplog):
    """An env whose observer's map is wrong still returns the spec's grids (and says so in the log)."""
    env = gym.make(env_id("maze", 5), info_level="minimal")
    env.reset(seed=4)
    u = env.unwrapped
    wrong_spec, u._observer = _misdrawn_observer(5, u.engine.task)
    u.dspec = wrong_spec
    u._cache = {}
    rng = np.random.default_rng(0)
    with caplog.at_level(logging.WARNING, logger="svot.envs.observation"):
        for _ in range(40):
            obs, _, term, trunc, _ = env.step(int(rng.integers(4)))
            assert np.array_equal(obs, spec_observation(wrong_spec, u.state, 5))
            if term or trunc:
                break
    assert not u._observer.trusted
    assert "computing them through the spec" in caplog.text
    env.close()


@pytest.mark.parametrize("domain", ["maze", "frozenlake", "sokoban", "pacman", "gather"])
def test_minimal_env_obs_equal_full_env_obs(domain):
    """info_level='minimal' (grids from bits, no state dicts) and 'full' give the same episodes."""
    size = max(get_spec(domain).sizes)
    envs = [gym.make(env_id(domain, size), info_level=level, pool_size=8) for level in ("minimal", "full")]
    for e in envs:
        e.reset(seed=2)
    rng = np.random.default_rng(2)
    n = envs[0].action_space.n
    for _ in range(1500):
        a = int(rng.integers(n))
        (o1, r1, t1, u1, i1), (o2, r2, t2, u2, i2) = (e.step(a) for e in envs)
        assert np.array_equal(o1, o2) and (r1, t1, u1) == (r2, t2, u2)
        assert i1["applicable"] == i2["applicable"]
        assert np.array_equal(o2, spec_observation(get_spec(domain), i2["state"], size))
        assert envs[0].unwrapped.state == i2["state"]
        if t1 or u1:
            for e in envs:
                e.reset()


@pytest.mark.parametrize("domain", DOMAINS)
def test_observe_by_byte_and_by_atom_agree_with_the_spec(domain):
    """observe() ORs the state's marks byte by byte (memoised per byte value) or atom by atom, chosen per
    state: each way alone gives the spec's grid, on states of random walks."""
    spec = get_spec(domain)
    size = max(spec.sizes)
    rng = np.random.default_rng(3)
    problem = generate(domain, size, "ood", rng).problem
    engine = spec.make_engine(problem)
    observer = observer_for(spec, size, engine.task)
    s = engine.initial()
    sd = spec.state_dict(engine.true_atoms(s), size)
    static = observer.static_grid(sd) if observer.undrawn else 0
    width = 8 * np.dtype(observer.dtype).itemsize
    for _ in range(60):
        expected = spec_observation(spec, spec.state_dict(engine.true_atoms(s), size), size) & ~np.asarray(static, observer.dtype)
        drawing = s & observer._drawing
        for marks in (observer._marks_by_byte(drawing), observer._marks_by_atom(drawing)):
            words = observer._base_int | marks
            grid = [(words >> (width * c)) & ((1 << width) - 1) for c in range(size * size)]
            assert grid == expected.reshape(-1).tolist()
        s, _ = engine.step(s, spec.action_key(int(rng.integers(spec.n_actions(size))), size))
