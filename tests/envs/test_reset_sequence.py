"""A seeded env draws the very problems ``svot.problem_gen.generate`` draws from ``default_rng(seed)``.

Resetting with a seed gives ``np.random.default_rng(seed)``'s stream (Gymnasium's seeding), and the
default env spends it on nothing but its problems: reset ``k`` gets ``generate``'s ``k``-th problem,
whichever path the reset takes (FrozenLake's starts from the draw's bits and builds the Problem when
read, :func:`svot.domains.frozenlake.generator.draw_bits`).
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from svot.domains import DOMAINS, SPECS, env_id, generate, get_spec

RESETS = 30


@pytest.mark.parametrize("domain", sorted(DOMAINS))
@pytest.mark.parametrize("read_every", [1, 3])
def test_seeded_resets_are_generates_problems(domain, read_every):
    size = max(SPECS[domain].sizes)
    env = gym.make(env_id(domain, size))
    rng = np.random.default_rng(7)
    try:
        env.reset(seed=7)
        for k in range(RESETS):
            expected = generate(domain, size, "id", rng, allow_any_size=True, plan=False)
            if k % read_every == 0:  # the problem read at once, or (read_every=3) some resets never read it
                u = env.unwrapped
                assert u.problem.to_pddl() == expected.problem.to_pddl()
                assert u.engine.problem is u.problem
                assert u.engine.initial() == u._make_engine(u.problem).initial()
            env.reset()
    finally:
        env.close()


def test_frozenlake_bits_are_the_bound_problems():
    from svot.domains.frozenlake import generator as fl
    from svot.problem_gen.grounding import shared_grounding

    for size in (4, 5, 6, 7):
        rng_a, rng_b = np.random.default_rng(size), np.random.default_rng(size)
        for _ in range(40):
            drawn = fl.draw_bits(size, "ood", rng_a)
            gen = fl.generate(size, "ood", rng_b, plan=False)
            bound = shared_grounding(get_spec("frozenlake"), size).bind(gen.problem)
            assert (drawn.init, drawn.goal_pos, 0) == (bound.init, bound.goal_pos, bound.goal_neg)
            assert drawn.problem().to_pddl() == gen.problem.to_pddl() and drawn.generated().state == gen.state
        assert rng_a.bit_generator.state == rng_b.bit_generator.state


@pytest.mark.parametrize("size,split", [(4, "id"), (5, "ood"), (6, "id"), (6, "ood"), (9, "ood")])
def test_frozenlake_bit_stream_is_successive_draws(size, split):
    from svot.domains.frozenlake import generator as fl

    stream = fl.bit_stream(size, split, np.random.default_rng(size))
    rng = np.random.default_rng(size)
    for _ in range(300):  # several refills, the batch growing
        a, b = stream(), fl.draw_bits(size, split, rng)
        assert (a.init, a.goal_pos, a.attempts) == (b.init, b.goal_pos, b.attempts)
        assert np.array_equal(a.holes, b.holes)
    assert stream().problem().to_pddl() == fl.generate(size, split, rng, plan=False).problem.to_pddl()


@pytest.mark.parametrize("domain", ["frozenlake", "regularmaze", "questmaze", "questmaze5"])
def test_reseeding_restarts_the_sequence(domain):
    env = gym.make(env_id(domain, max(SPECS[domain].sizes)))
    names = []
    for _ in range(2):
        env.reset(seed=11)
        names.append([env.unwrapped.problem.name] + [env.reset()[0] is not None and env.unwrapped.problem.name for _ in range(12)])
    env.close()
    assert names[0] == names[1]


@pytest.mark.parametrize("domain", ["frozenlake", "sokoban", "regularmaze", "questmaze", "questmaze5"])
def test_grounded_env_pickles_mid_stream_and_continues_identically(domain):
    import pickle

    env = gym.make(env_id(domain, 5 if domain == "questmaze5" else 4)).unwrapped
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


# The walled mazes (and OpenQuestMaze's logical maze) draw their layouts as bits too (their ``draw_bits``)
MAZES = [("regularmaze", 3), ("regularmaze", 4), ("questmaze", 3), ("questmaze", 4), ("questmaze5", 5), ("questmaze5", 7)]


def _maze_generator(domain):
    import importlib

    return importlib.import_module(f"svot.domains.{domain}.generator")


@pytest.mark.parametrize("domain,size", MAZES)
@pytest.mark.parametrize("split", ["id", "ood"])
def test_maze_bits_are_the_bound_problems(domain, size, split):
    from svot.problem_gen.grounding import shared_grounding

    gen_module = _maze_generator(domain)
    rng_a, rng_b = np.random.default_rng(size), np.random.default_rng(size)
    for _ in range(60):
        drawn = gen_module.draw_bits(size, split, rng_a)
        gen = gen_module.generate(size, split, rng_b, plan=False)
        bound = shared_grounding(get_spec(domain), size).bind(gen.problem)
        assert (drawn.init, drawn.goal_pos, drawn.goal_neg) == (bound.init, bound.goal_pos, bound.goal_neg)
        assert drawn.shared is shared_grounding(get_spec(domain), size).shared
        assert drawn.problem().to_pddl() == gen.problem.to_pddl() and drawn.generated().state == gen.state
        assert drawn.generated().params == gen.params
    assert rng_a.bit_generator.state == rng_b.bit_generator.state


@pytest.mark.parametrize("domain,size", MAZES)
def test_maze_bit_stream_is_successive_draws(domain, size):
    gen_module = _maze_generator(domain)
    stream = gen_module.bit_stream(size, "id", np.random.default_rng(size))
    rng = np.random.default_rng(size)
    for _ in range(300):  # several batches of the stream's outputs
        a, b = stream(), gen_module.draw_bits(size, "id", rng)
        assert (a.init, a.goal_pos, a.goal_neg) == (b.init, b.goal_pos, b.goal_neg)
    assert stream().problem().to_pddl() == gen_module.generate(size, "id", rng, plan=False).problem.to_pddl()


@pytest.mark.parametrize("domain,size", MAZES)
def test_maze_undrawn_grid_is_the_spec_static_grid(domain, size):
    """The walls a bits reset reads off its draws are what the spec draws from the state dict."""
    from svot.envs.observation import observer_for
    from svot.problem_gen.grounding import shared_grounding

    spec = SPECS[domain]
    observer = observer_for(spec, size, shared_grounding(get_spec(domain), size).task)
    gen_module = _maze_generator(domain)
    rng = np.random.default_rng(1)
    for _ in range(40):
        drawn = gen_module.draw_bits(size, "ood", rng)
        if not observer.undrawn:
            assert drawn.undrawn_grid is None  # every kind is drawn by an atom
            continue
        got = drawn.undrawn_grid(observer.dtype)
        assert got.dtype == observer.dtype
        assert np.array_equal(got, observer.static_grid(drawn.generated().state))


@pytest.mark.parametrize("domain,size", MAZES)
def test_maze_bits_reset_gives_full_info(domain, size):
    """After a bits reset (past the observer's checked states too) the observation, state and text are those
    of the problem passed to reset as a Problem."""
    from svot.envs.observation import spec_observation

    env = gym.make(env_id(domain, size)).unwrapped
    other = gym.make(env_id(domain, size)).unwrapped
    env.reset(seed=2)
    for k in range(300):
        obs, info = env.reset()
        if k % 25:
            continue
        problem = env.problem
        assert env._drawn is not None
        obs_b, info_b = other.reset(options={"problem": problem})
        assert np.array_equal(obs, obs_b)
        assert np.array_equal(obs, spec_observation(env.dspec, info["state"], size))
        assert info["state"] == info_b["state"] and info["state_text"] == info_b["state_text"]
        for a in (0, 1, 2, 3):
            got, want = env.step(a), other.step(a)
            assert np.array_equal(got[0], want[0]) and got[1:3] == want[1:3]
            assert got[4]["state"] == want[4]["state"]
            if got[2]:
                break


BIT_GENERATORS = (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_raw_draws_are_numpys(bit_generator):
    """RawDraws' integers / choice / permutation give numpy's values, call after call, on the generator's
    outputs (here small batches, so that calls straddle refills)."""
    from svot.domains.drawn import RawDraws

    for seed in range(60):
        rng = np.random.Generator(bit_generator(seed))
        raw = RawDraws(np.random.Generator(bit_generator(seed)), batch=7 + seed % 5)
        for step in range(60):
            kind = (seed + step) % 4
            if kind == 0:
                n = (3 * step) % 40
                assert rng.permutation(n).tolist() == raw.permutation(n)
            elif kind == 1:
                k = 1 + (step * 7) % 9
                assert int(rng.integers(k)) == raw.integers(k)
            elif kind == 2:
                n = 1 + (step * 5) % 60
                k = step % (n + 1)
                assert rng.choice(n, size=k, replace=False).tolist() == raw.choice(n, k)
            else:
                k = (2**32 - 1) // (1 + step)  # large bounds: Lemire's rejection is likely
                assert int(rng.integers(k)) == raw.integers(k)


@pytest.mark.parametrize("bit_generator", BIT_GENERATORS)
def test_raw_draws_probe_accepts_numpys_generators(bit_generator):
    from svot.domains.drawn import raw_draws_agree

    assert raw_draws_agree(bit_generator)


def test_stream_uses_numpys_calls_where_raw_draws_disagree(monkeypatch):
    """A numpy whose algorithms RawDraws does not follow (simulated: the probe finds an integer off by
    one) gets a stream on the Generator itself, with generate's problems all the same."""
    import svot.domains.drawn as drawn

    class OffByOne(drawn.RawDraws):
        def integers(self, k):
            return (super().integers(k) + 1) % k

    monkeypatch.setattr(drawn, "RawDraws", OffByOne)
    drawn.raw_draws_agree.cache_clear()
    try:
        assert not drawn.raw_draws_agree(np.random.PCG64)
        gen_module = _maze_generator("questmaze")
        stream = gen_module.bit_stream(4, "id", np.random.default_rng(5))
        assert type(stream.draws) is np.random.Generator
        rng = np.random.default_rng(5)
        for _ in range(20):
            assert stream().problem().to_pddl() == gen_module.generate(4, "id", rng, plan=False).problem.to_pddl()
    finally:
        monkeypatch.undo()
        drawn.raw_draws_agree.cache_clear()


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "id"), (6, "id"), (6, "ood")])
def test_sokoban_bits_are_the_bound_problems(size, split):
    """Sokoban's search already reads a draw as bits: draw_bits keeps generate(plan=False)'s draws, and
    its bits are bind() of that problem; the rng ends where generate leaves it."""
    from svot.domains.sokoban import generator as sokoban
    from svot.problem_gen.grounding import shared_grounding

    rng_a, rng_b = np.random.default_rng(size), np.random.default_rng(size)
    stream = sokoban.bit_stream(size, split, rng_a)
    for _ in range(25 if split == "id" else 6):
        drawn = stream()
        gen = sokoban.generate(size, split, rng_b, plan=False)
        bound = shared_grounding(get_spec("sokoban"), size).bind(gen.problem)
        assert (drawn.init, drawn.goal_pos, drawn.goal_neg) == (bound.init, bound.goal_pos, bound.goal_neg)
        assert drawn.problem().to_pddl() == gen.problem.to_pddl()
        assert drawn.generated().state == gen.state and drawn.generated().params == gen.params
    assert rng_a.bit_generator.state == rng_b.bit_generator.state


@pytest.mark.parametrize("domain,size", MAZES)
def test_maze_undrawn_words_are_the_undrawn_grid(domain, size):
    """EdgeWalls.words is the walls' grid as an int of the observer's words, and observe() ORs it in as
    it ORs the grid (the path a bits reset takes)."""
    from svot.envs.observation import observer_for
    from svot.problem_gen.grounding import shared_grounding

    spec = SPECS[domain]
    observer = observer_for(spec, size, shared_grounding(get_spec(domain), size).task)
    if not observer.undrawn:
        pytest.skip("every kind is drawn by an atom")
    gen_module = _maze_generator(domain)
    rng = np.random.default_rng(2)
    width = observer.word_bits
    for _ in range(40):
        drawn = gen_module.draw_bits(size, "id", rng)
        grid = drawn.undrawn_grid(observer.dtype)
        words = drawn.undrawn_grid.words(width)
        assert words == sum(int(v) << (width * c) for c, v in enumerate(grid.reshape(-1).tolist()))
        assert np.array_equal(observer.observe(drawn.init, words), observer.observe(drawn.init, grid))
