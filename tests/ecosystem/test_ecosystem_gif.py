"""svot.gif: one GIF frame per step plus the first, the same bytes for the same seed and actions."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from PIL import Image

import svot  # noqa: F401 - registers the ids
from svot.errors import ConfigError
from svot.gif import BAR_HEIGHT, caption_strip, episode_frames, save_episode_gif, write_gif
from svot.wrappers import OneHotObservation

MAZE = "SVoT/Maze-5x5-v0"


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def n_frames(path) -> int:
    with Image.open(path) as im:
        return im.n_frames


def seeded_random_policy(seed: int):
    rng = np.random.default_rng(seed)
    return lambda obs: int(rng.integers(4))


def test_frame_count_is_steps_plus_one(tmp_path):
    actions = [0, 0, 2, 2, 1, 3, 3, 3]  # moves into walls or off the grid change nothing: still a frame each
    out = save_episode_gif("SVoT/Sokoban-5x5-v0", actions, tmp_path / "s.gif", fps=5, seed=2, image_size=80)
    assert out["frames"] == out["steps"] + 1 == n_frames(tmp_path / "s.gif")
    assert out["steps"] <= len(actions) and out["actions"] == actions[: out["steps"]]
    with Image.open(tmp_path / "s.gif") as im:
        assert im.size == (80, 80 + caption_strip("start", 80).shape[0] + BAR_HEIGHT)
        assert im.info["duration"] == 200 and im.info["loop"] == 0


def test_policy_runs_until_the_episode_ends(tmp_path):
    out = save_episode_gif(MAZE, seeded_random_policy(0), tmp_path / "m.gif", seed=4, image_size=64)
    assert out["terminated"] or out["truncated"]
    assert out["frames"] == out["steps"] + 1 == n_frames(tmp_path / "m.gif")
    if out["terminated"]:
        assert out["return"] == 1.0
    else:
        assert out["steps"] == gym.spec(MAZE).max_episode_steps


def test_same_seed_same_bytes(tmp_path):
    a = save_episode_gif(MAZE, seeded_random_policy(1), tmp_path / "a.gif", seed=7, image_size=64)
    b = save_episode_gif(MAZE, seeded_random_policy(1), tmp_path / "b.gif", seed=7, image_size=64)
    save_episode_gif(MAZE, seeded_random_policy(1), tmp_path / "c.gif", seed=8, image_size=64)
    assert a["actions"] == b["actions"] and sha(tmp_path / "a.gif") == sha(tmp_path / "b.gif")
    assert sha(tmp_path / "a.gif") != sha(tmp_path / "c.gif")
    assert not list(tmp_path.glob("*.tmp"))


def test_same_bytes_in_another_process(tmp_path):
    """Nothing in the bytes depends on the process (hash seed, caches): a fresh interpreter writes the same file."""
    code = (
        "import svot; from svot.gif import save_episode_gif; "
        f"save_episode_gif('SVoT/Gather-5x5-v0', [0, 3, 3, 1, 2, 'move down 2'], {str(tmp_path / 'x.gif')!r}, seed=5)"
    )
    save_episode_gif("SVoT/Gather-5x5-v0", [0, 3, 3, 1, 2, "move down 2"], tmp_path / "here.gif", seed=5)
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, capture_output=True, timeout=120)
    assert sha(tmp_path / "x.gif") == sha(tmp_path / "here.gif")


def test_frames_are_the_rgb_array_renders(tmp_path):
    env = gym.make(MAZE, render_mode="rgb_array", image_size=64)
    env.reset(seed=3)
    want = [env.render()]
    for a in (1, 1, 3):
        _, _, term, trunc, _ = env.step(a)
        want.append(env.render())
        if term or trunc:
            break
    frames, summary = episode_frames(MAZE, [1, 1, 3], seed=3, image_size=64)
    assert len(frames) == len(want) == summary["steps"] + 1
    assert all(np.array_equal(f, w) for f, w in zip(frames, want))
    # the exact palette keeps colours: decoding the GIF gives back the frames (above the progress bar)
    save_episode_gif(MAZE, [1, 1, 3], tmp_path / "p.gif", seed=3, image_size=64)
    with Image.open(tmp_path / "p.gif") as im:
        for i, w in enumerate(want):
            im.seek(i)
            assert np.array_equal(np.asarray(im.convert("RGB"))[:64], w)


def test_wrapped_env_and_model_with_predict(tmp_path):
    env = OneHotObservation(gym.make(MAZE), "egocentric_flat")
    seen = []

    class Model:  # anything with SB3's predict signature
        def predict(self, obs, deterministic=False):
            seen.append(obs.shape)
            return np.int64(1), None

    out = save_episode_gif(env, Model(), tmp_path / "w.gif", seed=0, max_steps=5, image_size=64)
    assert seen and set(seen) == {(243,)} and out["steps"] <= 5
    env.close()


def test_without_the_bar_pillow_merges_identical_frames(tmp_path):
    from svot.domains import get_spec

    layout = {"domain": "maze", "size": 5, "player": [0, 0], "walls": [[1, 1]], "goal": [4, 4]}
    problem = get_spec("maze").problem_from_state(layout, "top-left")
    up = 0  # from the top row: changes nothing
    kw = {"seed": 0, "options": {"problem": problem}, "image_size": 64}
    plain = save_episode_gif(MAZE, [up] * 3, tmp_path / "n.gif", progress_bar=False, caption=False, **kw)
    assert plain["steps"] == 3 and plain["frames"] == 1 == n_frames(tmp_path / "n.gif")
    barred = save_episode_gif(MAZE, [up] * 3, tmp_path / "b.gif", **kw)
    assert barred["frames"] == 4 == n_frames(tmp_path / "b.gif")


def test_bad_arguments(tmp_path):
    with pytest.raises(ConfigError):
        save_episode_gif(MAZE, 3, tmp_path / "x.gif")
    with pytest.raises(ConfigError):
        write_gif([], tmp_path / "x.gif")
    with pytest.raises(ConfigError):
        write_gif([np.zeros((4, 4, 3), np.uint8)], tmp_path / "x.gif", fps=0)


def test_each_frame_is_captioned_with_its_action(tmp_path):
    from svot.domains import get_spec

    layout = {"domain": "maze", "size": 5, "player": [0, 0], "walls": [[1, 0]], "goal": [0, 2]}
    problem = get_spec("maze").problem_from_state(layout, "captions")
    kw = {"seed": 0, "options": {"problem": problem}, "image_size": 64}
    frames, summary = episode_frames(MAZE, ["move down", "move right", "move right"], **kw)
    # down is blocked by the wall at (1, 0); two moves right reach the goal at (0, 2)
    assert summary["captions"] == ["start", "1: move down - not applicable", "2: move right", "3: move right - goal"]
    out = save_episode_gif(MAZE, ["move down", "move right", "move right"], tmp_path / "c.gif", progress_bar=False, **kw)
    assert out["frames"] == 4  # the blocked move changes no cell, but its caption differs: its own frame
    with Image.open(tmp_path / "c.gif") as im:
        for i, (frame, caption) in enumerate(zip(frames, summary["captions"])):
            im.seek(i)
            got = np.asarray(im.convert("RGB"))
            strip = caption_strip(caption, 64)
            assert got.shape == (64 + strip.shape[0], 64, 3)
            assert np.array_equal(got[:64], frame) and np.array_equal(got[64:], strip)
    strips = [caption_strip(c, 64) for c in summary["captions"]]
    assert all(len(np.unique(s.reshape(-1, 3), axis=0)) >= 2 for s in strips)  # text drawn on the background
    assert len({s.tobytes() for s in strips}) == 4
    assert not np.array_equal(caption_strip("1: move up", 256), caption_strip("1: move down", 256))
