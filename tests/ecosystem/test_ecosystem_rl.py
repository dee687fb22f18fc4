"""RL ecosystem: Stable-Baselines3's env checker on every id, the SB3 VecEnv adapter, PPO, encodings, human rendering.

Tests that need Stable-Baselines3 (``pip install "svot[rl]"``) or pygame are
skipped with a reason where those are not installed; the encodings need neither.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

from svot.domains.maze.env import MazeEnv
import svot
from svot.domains import registered_ids
from svot.errors import ConfigError
from svot.wrappers import (
    OneHotObservation,
    egocentric,
    encoded_space,
    evaluate_success,
    heldout_problems,
    onehot,
)

ALL_IDS = registered_ids()
MAZE = "SVoT/Maze-5x5-v0"
UNCONVENTIONAL = "unconventional shape"  # SB3's advice for (N, N) observations: flatten them (our wrappers do)


@pytest.fixture(scope="module")
def sb3():
    return pytest.importorskip("stable_baselines3", reason='stable-baselines3 is not installed (pip install "svot[rl]")')


def _sb3_check(env) -> list[str]:
    from stable_baselines3.common.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, warn=True, skip_render_check=True)
    return [str(w.message) for w in caught]


# --- SB3's env checker on every registered id ------------------------------------------------------
@pytest.mark.parametrize("env_id", ALL_IDS)
def test_sb3_check_env(sb3, env_id):
    env = gym.make(env_id)
    try:
        messages = _sb3_check(env)
    finally:
        env.close()
    # the raw (N, N) uint8 grid passes; SB3's only remark is to flatten it, which the wrappers do
    assert all(UNCONVENTIONAL in m for m in messages), messages
    for encoding in ("flat", "egocentric_flat"):  # the MLP encodings: no remarks at all
        wrapped = OneHotObservation(gym.make(env_id), encoding)
        try:
            assert _sb3_check(wrapped) == [], encoding
        finally:
            wrapped.close()
    # (C, H, W) float channels pass too; SB3 only notes that its default NatureCNN wants uint8 images of
    # at least 36x36 pixels, which is why they go with svot.wrappers.GridCNN
    wrapped = OneHotObservation(gym.make(env_id), "onehot")
    try:
        messages = _sb3_check(wrapped)
    finally:
        wrapped.close()
    assert all("image" in m for m in messages), messages


# --- encodings ---------------------------------------------------------------------------------------
def test_onehot_channels_and_border():
    obs = np.array([[1, 2], [4, 6]], np.uint8)  # player | wall | goal | wall+goal
    x = onehot(obs, 3)
    assert x.shape == (3, 2, 2) and x.dtype == np.float32
    assert x[0].tolist() == [[1, 0], [0, 0]] and x[1].tolist() == [[0, 1], [0, 1]] and x[2].tolist() == [[0, 0], [1, 1]]
    b = onehot(np.stack([obs, obs]), 3, border=True)
    assert b.shape == (2, 4, 4, 4)
    assert np.array_equal(b[:, :3, 1:-1, 1:-1], np.stack([x, x]))
    assert b[0, 3].sum() == 12 and b[0, 3, 1:-1, 1:-1].sum() == 0 and b[0, :3, 0].sum() == 0
    assert onehot(obs, 3, border=True, flatten=True).shape == (64,)


def test_sixteen_bit_grids_encode_bit_by_bit():
    """A domain of more than 8 kinds (RegularMaze's 11) observes uint16 grids: bit 10 is channel 10."""
    env = gym.make("SVoT/RegularMaze-4x4-v0")
    obs, _ = env.reset(seed=3)
    env.close()
    assert obs.dtype == np.uint16 and obs.max() >= 1 << 8  # walls live above the first byte
    x = onehot(obs, 11)
    for k in range(11):
        assert np.array_equal(x[k], (obs >> k) & 1), k
    e = egocentric(obs, 11)
    r, c = np.argwhere(obs & 1)[0]
    assert e.shape == (11, 7, 7) and np.array_equal(e[9, 3 - r:7 - r, 3 - c:7 - c], (obs >> 10) & 1)


def test_egocentric_centres_the_player():
    obs = np.zeros((5, 5), np.uint8)
    obs[0, 0] = 1  # player in the top-left corner
    obs[0, 1] = 2  # wall right of it
    obs[4, 4] = 4  # goal in the far corner
    e = egocentric(obs, 3)
    assert e.shape == (3, 9, 9)
    c = 4  # the middle cell
    assert e[0, c, c + 1] == 1 and e[0].sum() == 1  # the wall, one step right
    assert e[1, c + 4, c + 4] == 1 and e[1].sum() == 1  # the goal, 4 down and 4 right
    assert e[2, c, c] == 0 and e[2, c - 1, c] == 1 and e[2, c, c - 1] == 1  # off the grid above and left
    assert e[2, c:, c:].sum() == 0  # the grid itself
    # a batch: each grid centred on its own player; flattening is a reshape
    batch = np.stack([obs, np.roll(obs, (2, 2), axis=(0, 1))])
    eb = egocentric(batch, 3, flatten=True)
    assert eb.shape == (2, 243) and np.array_equal(eb[0], e.ravel())


@pytest.mark.parametrize("encoding", ["onehot", "flat", "egocentric", "egocentric_flat"])
def test_observation_wrapper_matches_its_space(encoding):
    env = OneHotObservation(gym.make("SVoT/Sokoban-5x5-v0"), encoding)
    obs, _ = env.reset(seed=1)
    assert env.observation_space.contains(obs)
    assert env.observation_space == encoded_space(env.unwrapped.observation_space, encoding)
    for _ in range(5):
        obs, *_ = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs)
    env.close()
    with pytest.raises(ConfigError):
        OneHotObservation(gym.make(MAZE), "pixels")


# --- the SB3 VecEnv adapter over the native vector env ---------------------------------------------
def test_sb3_vec_env_follows_sb3_conventions(sb3):
    from stable_baselines3.common.vec_env import VecEnv

    from svot.wrappers import SB3VecEnv, make_sb3_vec_env

    venv = make_sb3_vec_env(MAZE, 8, encoding="egocentric_flat", seed=5, pool_size=64)
    assert isinstance(venv, VecEnv) and isinstance(venv, SB3VecEnv)
    assert venv.num_envs == 8 and venv.action_space == gym.spaces.Discrete(4)
    obs = venv.reset()
    assert obs.shape == (8, 3 * 9 * 9) and venv.observation_space.contains(obs[0])
    rng = np.random.default_rng(0)
    ended = successes = 0
    for _ in range(250):
        obs, rewards, dones, infos = venv.step(rng.integers(0, 4, 8))
        assert obs.shape == (8, 243) and rewards.dtype == np.float32 and dones.dtype == bool and len(infos) == 8
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert venv.observation_space.contains(info["terminal_observation"])
            assert info["is_success"] == (rewards[i] > 0)
            assert info["TimeLimit.truncated"] == (not info["is_success"])  # a maze ends on the goal or the limit
            ended += 1
            successes += info["is_success"]
        assert all(not infos[i] for i in np.flatnonzero(~dones))
    assert ended > 0 and successes > 0
    assert venv.get_attr("render_mode") == [None] * 8 and venv.env_is_wrapped(gym.Wrapper) == [False] * 8
    venv.close()
    with pytest.raises(ConfigError, match="SameStep"):
        SB3VecEnv(gym.make_vec(MAZE, num_envs=2))


def test_sb3_vec_env_seed_reproduces(sb3):
    from svot.wrappers import make_sb3_vec_env

    def run(seed):
        venv = make_sb3_vec_env(MAZE, 4, encoding="raw", pool_size=64)
        venv.seed(seed)
        out = [venv.reset()]
        for t in range(30):
            out.append(venv.step(np.full(4, t % 4))[0])
        venv.close()
        return np.stack(out)

    assert np.array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_ppo_runs_through_the_adapter(sb3, tmp_path):
    from stable_baselines3 import PPO

    from svot.wrappers import GridCNN, grid_cnn_policy_kwargs, make_sb3_vec_env

    venv = make_sb3_vec_env(MAZE, 4, encoding="egocentric_flat", seed=0, pool_size=64)
    model = PPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
                policy_kwargs={"net_arch": [32]})
    model.learn(total_timesteps=512)
    assert model.num_timesteps == 512
    actions, _ = model.predict(venv.reset(), deterministic=True)
    assert actions.shape == (4,)

    cnn_env = make_sb3_vec_env(MAZE, 2, encoding="onehot", seed=0, pool_size=64)
    cnn = PPO("CnnPolicy", cnn_env, n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu",
              policy_kwargs=grid_cnn_policy_kwargs(channels=(8, 8), features_dim=16))
    cnn.learn(total_timesteps=64)
    assert isinstance(cnn.policy.features_extractor, GridCNN)
    cnn.save(tmp_path / "cnn.zip")  # GridCNN pickles by reference (svot.wrappers.GridCNN)
    loaded = PPO.load(tmp_path / "cnn.zip", device="cpu")
    obs = cnn_env.reset()
    assert np.array_equal(loaded.predict(obs, deterministic=True)[0], cnn.predict(obs, deterministic=True)[0])
    venv.close()
    cnn_env.close()


# --- evaluation on fixed problems --------------------------------------------------------------------
def test_evaluate_success_matches_single_env_rollouts():
    problems = heldout_problems(MAZE, 24, seed=77)
    assert [p.name for p in problems] == [p.name for p in heldout_problems(MAZE, 24, seed=77)]
    policy_action = 3  # always "right": solves exactly the mazes whose goal is straight to the right

    rate, lengths = evaluate_success(lambda obs: np.full(len(obs), policy_action), MAZE, problems,
                                     encoding="raw", return_lengths=True)
    env = gym.make(MAZE)
    expected = []
    for p in problems:
        env.reset(options={"problem": p})
        n = -1
        for t in range(1, 101):
            _, reward, terminated, truncated, _ = env.step(policy_action)
            if reward > 0:
                n = t
            if terminated or truncated:
                break
        expected.append(n)
    env.close()
    assert lengths.tolist() == expected
    assert rate == np.mean(np.array(expected) > 0)


# --- render_mode="human" -----------------------------------------------------------------------------
@pytest.fixture
def pygame_dummy(monkeypatch):
    pygame = pytest.importorskip("pygame", reason='pygame is not installed (pip install "svot[rl]")')
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield pygame
    pygame.display.quit()


def test_human_render_mode_opens_and_closes_a_window(pygame_dummy):
    pygame = pygame_dummy
    assert "human" in MazeEnv.metadata["render_modes"]
    env = gym.make(MAZE, render_mode="human", image_size=64)
    env.unwrapped.metadata = {**env.unwrapped.metadata, "render_fps": 50}  # this instance only: a fast test
    env.reset(seed=0)
    window = env.unwrapped._window
    assert window is not None and window.is_open and window.title == MAZE
    assert pygame.display.get_init() and pygame.display.get_surface().get_size() == (64, 64)
    for a in (0, 1):
        env.step(a)
    assert env.render() is None
    # the window shows the rgb_array image of the current state
    from svot.render.image import render_state

    want = render_state(env.unwrapped.dspec, env.unwrapped.state, 64)
    shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
    assert np.array_equal(shown, want)
    env.close()
    assert env.unwrapped._window is None and not window.is_open and not pygame.display.get_init()
    env.close()  # closing twice is fine


def test_human_render_without_a_display_warns_and_draws_nothing(pygame_dummy, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "no-such-video-driver")
    env = gym.make(MAZE, render_mode="human")
    with pytest.warns(UserWarning, match="no display"):
        env.reset(seed=0)
    env.step(1)  # no second warning, no error
    assert not env.unwrapped._window.is_open
    env.close()


def test_no_old_gym_banner_through_svots_sb3_adapter(sb3):
    """Issue 12: old gym's "unmaintained" banner must not reach a user who trains through svot.

    SB3 imports ``gym`` whenever it is installed (only svot's ``pddlgym`` extra brings it); the adapter
    imports it quietly first.
    """
    import subprocess
    import sys

    code = (
        "import gymnasium as gym, svot\n"
        "from svot.wrappers import make_sb3_vec_env\n"
        "venv = make_sb3_vec_env('SVoT/Maze-5x5-v0', n_envs=2); venv.reset()\n"
        "import stable_baselines3\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "unmaintained" not in done.stderr.lower(), done.stderr
