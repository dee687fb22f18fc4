"""A seeded env draws the very problems ``svot.problem_gen.generate`` draws from the same Generator.

Each reset samples from its own child of ``env.np_random`` (:func:`svot.problem_gen.draw_rng`), so
``gym.make(id).reset(seed=s)``'s problem is ``generate(domain, size, split, draw_rng(default_rng(s)))``'s,
and reset ``k`` after it draws from the ``k``-th child. The engine starts from the draw's bits
(:class:`svot.problem_gen.Draw`); the Problem is built when read.
"""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest

from svot.domains import DOMAINS, SPECS, env_id, generate, get_domain, get_spec
from svot.envs.observation import observer_for, spec_observation
from svot.extend import register_domain, unregister_domain
from svot.problem_gen import draw_rng, sample
from svot.problem_gen.grounding import shared_grounding
from tests.toy_domain.lamps import LampsGenerator, LampsSpec

SEEDS = range(50)


@pytest.fixture(scope="module", autouse=True)
def lamps():
    """The toy domain, registered from outside, goes through the same reset as the built-in ones."""
    register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield
    unregister_domain("lamps")


def _domains():
    return sorted(DOMAINS) + ["lamps"]


@pytest.mark.parametrize("domain", sorted(set(_domains())))
def test_seeded_reset_is_generates_problem(domain):
    """Every size and split, seeds 0-49: reset(seed=s)'s problem is generate()'s on draw_rng(default_rng(s))."""
    for size in SPECS[domain].sizes:
        for split in ("id", "ood"):
            env = gym.make(env_id(domain, size, split))
            for s in SEEDS:
                env.reset(seed=s)
                u = env.unwrapped
                want = generate(domain, size, split, draw_rng(np.random.default_rng(s)), plan=s < 3)
                assert u.problem.to_pddl() == want.problem.to_pddl(), (size, split, s)
                if s < 3:  # the plan too (planning every one would cost more than the draws)
                    assert u.plan == want.plan
            env.close()


@pytest.mark.parametrize("domain", sorted(DOMAINS))
@pytest.mark.parametrize("read_every", [1, 3])
def test_reset_k_draws_from_the_kth_child(domain, read_every):
    """Whether a reset's problem is read or not (built or never built), reset ``k`` is generate() on the
    ``k``-th child Generator: no reset's draws leak into the next one."""
    size = max(SPECS[domain].sizes)
    env = gym.make(env_id(domain, size))
    parent = np.random.default_rng(7)
    env.reset(seed=7)
    for k in range(12):
        want = generate(domain, size, "id", draw_rng(parent), allow_any_size=True, plan=False)
        if k % read_every == 0:
            u = env.unwrapped
            assert u.problem.to_pddl() == want.problem.to_pddl()
            assert u.engine.problem is u.problem
            assert u.engine.initial() == u._make_engine(u.problem).initial()
        env.reset()
    env.close()


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_reseeding_restarts_the_sequence(domain):
    env = gym.make(env_id(domain, max(SPECS[domain].sizes)))
    names = []
    for _ in range(2):
        env.reset(seed=11)
        names.append([env.unwrapped.problem.name] + [env.reset()[0] is not None and env.unwrapped.problem.name for _ in range(8)])
    env.close()
    assert names[0] == names[1]
    assert len(set(names[0])) > 1


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_draw_bits_are_the_bound_problems(domain):
    """A draw's bits are what binding its Problem to the size's shared grounding gives."""
    for size in SPECS[domain].sizes:
        rng = np.random.default_rng(size)
        for k in range(15):
            draw = sample(get_domain(domain), size, "ood" if k % 2 else "id", rng)
            if draw.shared is None:  # a sampler without bits: the env builds its engine from the Problem
                continue
            grounding = shared_grounding(get_spec(domain), size)
            bound = grounding.bind(draw.problem)
            assert draw.shared is grounding.shared
            assert (draw.init, draw.goal_pos, draw.goal_neg) == (bound.init, bound.goal_pos, bound.goal_neg)
            assert draw.generated.params == draw.params


@pytest.mark.parametrize("domain", ["frozenlake", "sokoban", "regularmaze", "questmaze", "questmaze5", "maze"])
def test_grounded_env_pickles_mid_run_and_continues_identically(domain):
    env = gym.make(env_id(domain, 5 if domain in ("questmaze5", "maze") else 4)).unwrapped
    env.reset(seed=5)
    for a in (0, 1, 3, 2, 2):  # remembered moves, a refused one included (the view's NOT_APPLIED)
        env.step(a)
    copy = pickle.loads(pickle.dumps(env))
    actions = np.random.default_rng(0).integers(4, size=80).tolist()

    def run(e):
        out = []
        for a in actions:
            obs, r, term, _, info = e.step(a)
            out.append((obs.tobytes(), r, term, info["state_text"]))
            if term:
                e.reset()
                out.append(e.problem.to_pddl())
        return out

    assert run(copy) == run(env)


# The walled mazes draw their walls on edges, a kind no atom draws: a sampled reset reads them off the draw
MAZES = [("regularmaze", 3), ("regularmaze", 4), ("questmaze", 3), ("questmaze", 4)]


@pytest.mark.parametrize("domain,size", MAZES)
def test_drawn_walls_are_the_spec_static_grid(domain, size):
    """EdgeWalls' grid and its words are what the spec draws from the state dict, and observe() ORs the
    words in as it ORs the grid."""
    observer = observer_for(SPECS[domain], size, shared_grounding(get_spec(domain), size).task)
    assert observer.undrawn
    rng = np.random.default_rng(1)
    width = observer.word_bits
    for k in range(40):
        draw = sample(get_domain(domain), size, "ood" if k % 2 else "id", rng)
        grid = draw.walls(observer.dtype)
        assert np.array_equal(grid, observer.static_grid(draw.generated.state))
        words = draw.walls.words(width)
        assert words == sum(int(v) << (width * c) for c, v in enumerate(grid.reshape(-1).tolist()))
        assert np.array_equal(observer.observe(draw.init, words), observer.observe(draw.init, grid))


@pytest.mark.parametrize("domain,size", MAZES + [("questmaze5", 5), ("frozenlake", 4), ("sokoban", 4)])
def test_sampled_reset_gives_full_info(domain, size):
    """After a sampled reset (past the observer's checked states too) the observation, state and text are
    those of the problem passed to reset as a Problem."""
    env = gym.make(env_id(domain, size)).unwrapped
    other = gym.make(env_id(domain, size)).unwrapped
    env.reset(seed=2)
    for k in range(150):
        obs, info = env.reset()
        if k % 25:
            continue
        obs_b, info_b = other.reset(options={"problem": env.problem})
        assert np.array_equal(obs, obs_b)
        assert np.array_equal(obs, spec_observation(env.dspec, info["state"], size))
        assert info["state"] == info_b["state"] and info["state_text"] == info_b["state_text"]
        for a in (0, 1, 2, 3):
            got, want = env.step(a), other.step(a)
            assert np.array_equal(got[0], want[0]) and got[1:3] == want[1:3]
            assert got[4]["state"] == want[4]["state"]
            if got[2]:
                break
