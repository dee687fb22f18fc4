"""The native vector env: make_vec modes, agreement with the single env, autoreset, determinism, spaces."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import svot  # noqa: F401  (registers the ids)
from svot.envs.vector import SVoTVectorEnv
from svot.errors import ActionError, ConfigError
from svot.domains import entry, generate, get_domain, get_spec

DOMAIN_IDS = [
    ("maze", "SVoT/Maze-5x5-v0"),
    ("frozenlake", "SVoT/FrozenLake-4x4-v0"),
    ("sokoban", "SVoT/Sokoban-5x5-OOD-v0"),
    ("pacman", "SVoT/Pacman-4x4-v0"),
    ("gather", "SVoT/Gather-5x5-OOD-v0"),
    ("regularmaze", "SVoT/RegularMaze-4x4-OOD-v0"),  # uint16 grids; edge walls drawn by no atom
    ("questmaze", "SVoT/QuestMaze-4x4-v0"),  # edge walls drawn by no atom
]


def _gens(domain, size, split, n, seed=0):
    rng = np.random.default_rng(seed)
    return [generate(domain, size, split, rng) for _ in range(n)]


@pytest.mark.parametrize("domain,env_id", DOMAIN_IDS)
def test_vector_env_matches_single_env(domain, env_id):
    """Each sub-env steps exactly like the single env on the same problem, up to its episode's end."""
    venv = gym.make_vec(env_id, num_envs=8, pool_size=12, info_level="state")
    assert isinstance(venv, SVoTVectorEnv)
    obs, info = venv.reset(seed=3)
    singles = []
    for i in range(venv.num_envs):
        env = gym.make(env_id)
        o, inf = env.reset(options={"problem": venv.problem(i)})
        assert np.array_equal(o, obs[i])
        assert info["state"][i] == inf["state"]
        singles.append(env)
    live = np.ones(venv.num_envs, bool)
    rng = np.random.default_rng(0)
    n_actions = venv.single_action_space.n
    inapplicable = 0
    for _ in range(60):
        actions = rng.integers(n_actions, size=venv.num_envs)
        obs, rew, term, trunc, info = venv.step(actions)
        for i in np.flatnonzero(live):
            o, r, te, tr, inf = singles[i].step(int(actions[i]))
            assert np.array_equal(o, obs[i]), i
            assert (r, te, tr) == (rew[i], term[i], trunc[i]), i
            assert inf["applicable"] == info["applicable"][i]
            assert inf["state"] == info["state"][i]
            inapplicable += not inf["applicable"]
            if te or tr:
                live[i] = False
    assert inapplicable > 0
    venv.close()


def test_frozenlake_hole_terminates_with_zero_reward():
    """A failure (hole) terminates like the single env: reward 0, terminated True."""
    venv = gym.make_vec("SVoT/FrozenLake-5x5-OOD-v0", num_envs=64, pool_size=16)
    venv.reset(seed=1)
    rng = np.random.default_rng(1)
    fell = 0
    for _ in range(30):
        obs, rew, term, trunc, info = venv.step(rng.integers(4, size=64))
        fell += int((term & (rew == 0)).sum())
    assert fell > 0


def _plan_env(autoreset_mode, **kw):
    gen = _gens("maze", 5, "id", 1, seed=4)[0]
    env = SVoTVectorEnv(
        num_envs=2, size=5, domain=get_domain("maze"), problems=[gen.problem], autoreset_mode=autoreset_mode, max_episode_steps=100, **kw
    )
    obs0, _ = env.reset(seed=0)
    return env, gen.plan, obs0


def test_next_step_autoreset():
    env, plan, obs0 = _plan_env("NextStep")
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    stay = [a for a in range(4)]  # env 1 walks randomly; env 0 follows the plan
    for t, a in enumerate(plan):
        obs, rew, term, trunc, info = env.step(np.array([a, stay[t % 4]]))
    assert term[0] and rew[0] == 1.0 and not trunc[0]
    terminal_obs = obs[0].copy()
    assert not np.array_equal(terminal_obs, obs0[0])
    obs, rew, term, trunc, info = env.step(np.array([0, 0]))
    # the step after the end resets env 0: reset observation, reward 0, not terminated, applicable
    assert np.array_equal(obs[0], obs0[0])
    assert rew[0] == 0.0 and not term[0] and not trunc[0] and info["applicable"][0]
    # and the episode then runs again
    obs, rew, term, trunc, info = env.step(np.array([plan[0], 0]))
    assert not term[0]


def test_same_step_autoreset():
    env, plan, obs0 = _plan_env("SameStep")
    for a in plan:
        obs, rew, term, trunc, info = env.step(np.array([a, 0]))
    assert term[0] and rew[0] == 1.0
    assert np.array_equal(obs[0], obs0[0])  # already reset
    assert info["_final_obs"][0] and not info["_final_obs"][1]
    assert info["final_obs"][1] is None
    assert not np.array_equal(info["final_obs"][0], obs0[0])
    assert info["final_info"]["_applicable"][0]
    assert info["applicable"][0]  # env 0's info is its reset info


def test_disabled_autoreset_and_reset_mask():
    gen = _gens("maze", 5, "id", 1, seed=4)[0]
    plan = gen.plan
    env = SVoTVectorEnv(
        num_envs=2, size=5, domain=get_domain("maze"), problems=[gen.problem], autoreset_mode="Disabled", max_episode_steps=len(plan) + 2
    )
    obs0, _ = env.reset(seed=0)
    for a in plan:
        obs, rew, term, trunc, info = env.step(np.array([a, 0]))
    assert term[0]
    for _ in range(2):  # no autoreset: the episode clock keeps running into the time limit
        obs, rew, term, trunc, info = env.step(np.array([0, 0]))
    assert trunc.all()
    obs, info = env.reset(options={"reset_mask": np.array([True, False])})
    assert np.array_equal(obs[0], obs0[0])
    assert info["_applicable"].tolist() == [True, False]
    obs, rew, term, trunc, info = env.step(np.array([0, 0]))
    assert trunc.tolist() == [False, True]


def test_truncation_after_max_episode_steps():
    venv = gym.make_vec("SVoT/Sokoban-4x4-v0", num_envs=4, pool_size=4, max_episode_steps=5)
    venv.reset(seed=0)
    for t in range(5):
        obs, rew, term, trunc, info = venv.step(np.zeros(4, np.int64))
    assert (trunc | term).all()
    obs, rew, term, trunc, info = venv.step(np.zeros(4, np.int64))
    assert not trunc.any()


def test_deterministic_by_seed():
    def run(seed):
        venv = gym.make_vec("SVoT/Gather-4x4-v0", num_envs=16, pool_size=8)
        obs, _ = venv.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(5)
        for _ in range(80):
            obs, rew, term, trunc, _ = venv.step(rng.integers(venv.single_action_space.n, size=16))
            out.append(obs)
        return np.stack(out)

    a, b, c = run(1), run(1), run(2)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_make_vec_modes():
    env_id = "SVoT/Maze-5x5-v0"
    native = gym.make_vec(env_id, num_envs=4, pool_size=4)
    assert isinstance(native, SVoTVectorEnv)
    assert isinstance(gym.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", pool_size=4), SVoTVectorEnv)
    sync = gym.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, gym.vector.SyncVectorEnv)
    asy = gym.make_vec(env_id, num_envs=2, vectorization_mode="async")
    assert isinstance(asy, gym.vector.AsyncVectorEnv)
    try:
        for env in (native, sync, asy):
            obs, info = env.reset(seed=0)
            assert obs.shape == (env.num_envs, 5, 5) and obs.dtype == np.uint8
            obs, rew, term, trunc, info = env.step(env.action_space.sample())
            assert obs.shape == (env.num_envs, 5, 5)
            assert rew.shape == term.shape == trunc.shape == (env.num_envs,)
            assert info["applicable"].shape == (env.num_envs,)
            assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    finally:
        asy.close()
        sync.close()


@pytest.mark.parametrize("domain,env_id", DOMAIN_IDS)
def test_spaces_sanity(domain, env_id):
    """env_checker-style: spaces match the single env, observations lie in them, seeding is stable."""
    venv = gym.make_vec(env_id, num_envs=3, pool_size=3)
    single = gym.make(env_id)
    assert venv.single_observation_space == single.observation_space
    assert venv.single_action_space == single.action_space
    assert venv.observation_space.shape == (3,) + single.observation_space.shape
    assert venv.observation_space.dtype == single.observation_space.dtype  # uint8, uint16 above 8 kinds
    assert isinstance(venv.action_space, gym.spaces.MultiDiscrete)
    obs, info = venv.reset(seed=0)
    assert venv.observation_space.contains(obs)
    assert isinstance(info, dict) and info["applicable"].dtype == bool
    for _ in range(10):
        obs, rew, term, trunc, info = venv.step(venv.action_space.sample())
        assert venv.observation_space.contains(obs)
        assert rew.dtype == np.float64 and term.dtype == bool and trunc.dtype == bool
    obs2, _ = venv.reset(seed=0)
    obs3, _ = venv.reset(seed=0)
    assert np.array_equal(obs2, obs3)


def test_bad_arguments():
    venv = gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, pool_size=2)
    with pytest.raises(gym.error.ResetNeeded):
        venv.step(np.zeros(2, np.int64))
    venv.reset(seed=0)
    with pytest.raises(ActionError, match="out of range"):
        venv.step(np.array([0, 4]))
    with pytest.raises(ActionError, match="out of range"):
        venv.step(np.array([-1, 0]))
    with pytest.raises(ActionError, match="shape"):
        venv.step(np.array([0, 1, 2]))
    with pytest.raises(ConfigError, match="autoreset_mode"):
        gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, autoreset_mode="sometimes")
    with pytest.raises(ConfigError, match="sync"):
        gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, engine="pddlgym")
    with pytest.raises(ConfigError, match="one int seed"):
        venv.reset(seed=[1, 2])


def test_full_info_and_render_match_single_env():
    from svot.render import render_state

    venv = gym.make_vec("SVoT/Sokoban-5x5-v0", num_envs=3, pool_size=3, info_level="full", render_mode="rgb_array")
    obs, info = venv.reset(seed=2)
    single = gym.make("SVoT/Sokoban-5x5-v0")
    _, sinfo = single.reset(options={"problem": venv.problem(1)})
    assert info["atoms"][1] == sinfo["atoms"] and info["state_text"][1] == sinfo["state_text"]
    frames = venv.render()
    assert len(frames) == 3
    for i in range(3):
        assert np.array_equal(frames[i], render_state(venv.dspec, venv.state_dict(i), 256))


@pytest.mark.parametrize("domain,env_id", DOMAIN_IDS)
def test_entry_points_are_the_domain_folders_classes(domain, env_id):
    """Each id's env and vector env are the classes in svot/domains/<name>/env.py (the registry's entry points),
    bound to the registry's domain object."""
    spec = get_spec(domain)
    registered = gym.spec(env_id)
    assert registered.entry_point == entry(domain).env
    assert registered.vector_entry_point == entry(domain).vector_env
    assert entry(domain).vector_env.startswith(f"svot.domains.{domain}.env:")
    venv = gym.make_vec(env_id, num_envs=2, pool_size=2)
    assert type(venv).__module__ == f"svot.domains.{domain}.env" and venv.dspec is spec
    assert venv.domain is get_domain(domain)
    venv.close()


def test_the_generic_vector_env_asks_for_a_domain_object():
    """The envs layer takes domain objects, never names: it cannot see the registry."""
    with pytest.raises(ConfigError, match=r"needs a domain: domain=svot\.domains\.get_domain\(name\).*got None"):
        SVoTVectorEnv(num_envs=2)
    with pytest.raises(ConfigError, match="got 'maze'"):
        SVoTVectorEnv(num_envs=2, domain="maze")


def test_a_problem_with_passages_the_engine_never_saw_gets_an_engine_that_has_them():
    """The vector engine leaves out steps through passages none of its reference problems holds
    (svot.engine.vector_compile); a vector env given a problem with such a passage compiles again
    and then steps it exactly as the single env does."""
    size = 4
    gens = _gens("regularmaze", size, "id", 8, seed=3)
    first = gens[0].problem
    other = next(g.problem for g in gens if {a for a in g.problem.init if a[0] == "open"} - set(first.init))
    for problem in (first, other):  # the second cannot be played by the first one's engine
        venv = SVoTVectorEnv(1, size, domain=get_domain("regularmaze"), problems=[problem], autoreset_mode="Disabled")
        single = gym.make(f"SVoT/RegularMaze-{size}x{size}-v0").unwrapped
        obs, _ = venv.reset(seed=0)
        single_obs, _ = single.reset(options={"problem": problem})
        assert np.array_equal(obs[0], single_obs)
        for a in np.random.default_rng(0).integers(4, size=40):
            obs, rew, term, _, _ = venv.step(np.array([a]))
            single_obs, single_rew, single_term, _, _ = single.step(int(a))
            assert np.array_equal(obs[0], single_obs) and rew[0] == single_rew and term[0] == single_term
            if term[0]:
                break
