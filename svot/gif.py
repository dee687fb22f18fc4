"""Episodes as animated GIFs: ``save_episode_gif(env_id, policy_or_actions, "episode.gif")``.

One frame for the first observation and one per step, drawn by the env's
``rgb_array`` renderer (the tile atlas of :mod:`svot.render.image`), written by
Pillow. The same env, seed and actions give the same bytes: colours map to one
palette shared by all frames (exact when the episode uses at most 254 colours,
else a median-cut palette of all frames, without dithering), and a GIF holds no
timestamps.

A caption under the grid (``caption=True``, the default) names the action
that led to each frame (``"3: move left"``; ``"start"`` on the first frame),
marks a move whose preconditions failed ("not applicable") and the frame where
the goal is reached. It is drawn with Pillow's built-in bitmap font, scaled by
whole pixels, so the bytes do not depend on the fonts a machine has.

A thin progress bar under the grid (``progress_bar=True``, the default) shows
how far the episode has got. It also keeps every step its own frame: Pillow
merges consecutive identical frames (a move into a wall changes nothing) into
one longer frame, so without the bar such an episode has fewer frames than
steps + 1 (the return value counts the frames actually written).
"""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from svot.atomic import atomic_write_bytes
from svot.errors import ActionError, ConfigError
from svot.render.image import render_state

__all__ = ["caption_strip", "episode_frames", "save_episode_gif", "write_gif"]

BAR_HEIGHT = 6
_CAPTION_BG = (246, 246, 248)
_CAPTION_FG = (29, 35, 43)
_CAPTION_BAD = (179, 38, 30)
_CAPTION_GOAL = (31, 122, 58)
_BAR_DONE = (52, 52, 60)
_BAR_TODO = (214, 214, 220)


def _frame_of(env: gym.Env, image_size: int | None) -> np.ndarray:
    base = env.unwrapped
    if hasattr(base, "dspec") and hasattr(base, "state"):  # an SVoT env: draw its state whatever its render_mode
        return render_state(base.dspec, base.state, image_size or getattr(base, "image_size", 256))
    frame = env.render()
    if not isinstance(frame, np.ndarray) or frame.ndim != 3:
        raise ConfigError("save_episode_gif needs an env whose render() returns an RGB image (render_mode='rgb_array')")
    return frame


def _as_policy(actions_or_policy: Any, env: gym.Env) -> tuple[Callable[[Any], Any] | None, list | None]:
    if hasattr(actions_or_policy, "predict"):  # a Stable-Baselines3 model
        model = actions_or_policy
        return (lambda obs: model.predict(obs, deterministic=True)[0]), None
    if callable(actions_or_policy):
        return actions_or_policy, None
    if isinstance(actions_or_policy, (str, bytes)) or not isinstance(actions_or_policy, (Sequence, np.ndarray)):
        raise ConfigError(
            "actions_or_policy must be a sequence of actions, a callable obs -> action or a model with .predict, "
            f"got {type(actions_or_policy).__name__}"
        )
    acts = []
    parse = getattr(env.unwrapped, "parse_action", None)
    for a in actions_or_policy:
        if isinstance(a, str):
            if parse is None:
                raise ActionError(f"action {a!r} is text, but {type(env.unwrapped).__name__} has no parse_action")
            a = parse(a)
        acts.append(a)
    return None, acts


def episode_frames(
    env_or_id: gym.Env | str,
    actions_or_policy: Any,
    *,
    seed: int | None = 0,
    options: dict | None = None,
    max_steps: int | None = None,
    image_size: int | None = None,
    env_kwargs: dict | None = None,
) -> tuple[list[np.ndarray], dict]:
    """Play one episode and return its frames (``(H, W, 3)`` uint8) and a summary.

    ``env_or_id``: an env id (made with ``gymnasium.make``, closed afterwards) or
    an env (its wrappers shape the observations a policy sees; frames come from
    the unwrapped SVoT env's state, so its ``render_mode`` does not matter).
    ``actions_or_policy``: a sequence of actions (ints, or texts such as
    ``"move up"``), a callable ``obs -> action``, or a Stable-Baselines3 model
    (deterministic ``predict``). The episode stops when it terminates or
    truncates, when the actions run out, or after ``max_steps`` (default: the
    id's ``max_episode_steps``, else 4·N²). ``reset(seed=seed, options=options)``
    starts it (``options={"problem": ...}`` plays a given problem).

    The summary: ``steps``, ``return``, ``terminated``, ``truncated``, ``actions``,
    and ``captions`` (one per frame: ``"start"``, then ``"<t>: <action text>"``,
    with ``" - not applicable"`` when the move's preconditions failed and
    ``" - goal"`` on the step that reached it).
    """
    own = isinstance(env_or_id, str)
    env = gym.make(env_or_id, **(env_kwargs or {})) if own else env_or_id
    if not own and env_kwargs:
        raise ConfigError("env_kwargs apply only when save_episode_gif makes the env from an id")
    try:
        policy, actions = _as_policy(actions_or_policy, env)
        if max_steps is None:
            spec = env.spec
            if spec is not None and spec.max_episode_steps is not None:
                max_steps = spec.max_episode_steps
            else:
                n = getattr(env.unwrapped, "size", 8)
                max_steps = 4 * n * n
        obs, _ = env.reset(seed=seed, options=options)
        frames = [_frame_of(env, image_size)]
        captions = ["start"]
        text_of = getattr(env.unwrapped, "action_text", None)
        taken: list[int] = []
        total, terminated, truncated = 0.0, False, False
        limit = max_steps if actions is None else min(max_steps, len(actions))
        for t in range(limit):
            a = policy(obs) if actions is None else actions[t]
            a = int(np.asarray(a).reshape(()))
            obs, reward, terminated, truncated, info = env.step(a)
            taken.append(a)
            total += float(reward)
            frames.append(_frame_of(env, image_size))
            caption = f"{t + 1}: {text_of(a) if text_of is not None else f'action {a}'}"
            if info.get("applicable") is False:
                caption += " - not applicable"
            if info.get("is_success") or (terminated and reward > 0):
                caption += " - goal"
            captions.append(caption)
            if terminated or truncated:
                break
    finally:
        if own:
            env.close()
    return frames, {"steps": len(taken), "return": total, "terminated": bool(terminated), "truncated": bool(truncated),
                    "actions": taken, "captions": captions}


def caption_strip(text: str, width: int) -> np.ndarray:
    """A ``(h, width, 3)`` strip with ``text`` in Pillow's bitmap font, scaled by a whole factor to suit ``width``."""
    # the built-in bitmap font: the same pixels on every machine (Pillow >= 10.1's load_default() returns a
    # FreeType font where FreeType is present; load_default_imagefont() is the bitmap one)
    font = getattr(ImageFont, "load_default_imagefont", ImageFont.load_default)()
    scale = max(1, width // 180)
    colour = _CAPTION_BAD if "not applicable" in text else _CAPTION_GOAL if text.endswith("goal") else _CAPTION_FG
    small_w = width // scale
    left, top, right, bottom = font.getbbox("Ag")
    line_h = bottom - top + 4
    img = Image.new("RGB", (small_w, line_h), _CAPTION_BG)
    draw = ImageDraw.Draw(img)
    while text and font.getlength(text) > small_w - 4:  # too long for the frame: cut, mark with "..."
        text = text[:-4] + "..." if len(text) > 4 else text[:-1]
    draw.text(((small_w - font.getlength(text)) // 2, 2 - top), text, fill=colour, font=font)
    strip = np.asarray(img.resize((small_w * scale, line_h * scale), Image.NEAREST))
    out = np.empty((strip.shape[0], width, 3), np.uint8)
    out[:] = _CAPTION_BG
    pad = (width - strip.shape[1]) // 2
    out[:, pad:pad + strip.shape[1]] = strip
    return out


def _add_captions(frames: list[np.ndarray], captions: list[str]) -> list[np.ndarray]:
    return [np.concatenate([f, caption_strip(c, f.shape[1])], axis=0) for f, c in zip(frames, captions)]


def _add_bar(frames: list[np.ndarray]) -> list[np.ndarray]:
    n = len(frames)
    out = []
    for t, f in enumerate(frames):
        _h, w = f.shape[:2]
        bar = np.empty((BAR_HEIGHT, w, 3), np.uint8)
        bar[:] = _BAR_TODO
        done = w if n == 1 else round(w * t / (n - 1))
        bar[1:-1, :done] = _BAR_DONE
        if n - 1 > w and t % 2:  # more steps than pixels: a flipped corner keeps consecutive frames distinct
            bar[0, -1] = _BAR_DONE
        out.append(np.concatenate([f, bar], axis=0))
    return out


def _palette_frames(frames: list[np.ndarray]):
    """Frames as ``P`` images over one shared palette (deterministic)."""
    stack = np.stack(frames)
    packed = (stack[..., 0].astype(np.uint32) << 16) | (stack[..., 1].astype(np.uint32) << 8) | stack[..., 2]
    colours, inverse = np.unique(packed.ravel(), return_inverse=True)
    if len(colours) <= 254:
        pal = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], 1).astype(np.uint8)
        idx = inverse.reshape(packed.shape).astype(np.uint8)
        flat_pal = pal.ravel().tolist() + [0] * (768 - 3 * len(pal))
        images = []
        for i in range(len(frames)):
            im = Image.fromarray(idx[i], mode="P")
            im.putpalette(flat_pal)
            images.append(im)
        return images
    mosaic = Image.fromarray(stack.reshape(-1, stack.shape[2], 3))  # all frames stacked vertically
    pal_img = mosaic.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    return [Image.fromarray(f).quantize(palette=pal_img, dither=Image.Dither.NONE) for f in frames]


def write_gif(frames: Sequence[np.ndarray], path: str | os.PathLike, fps: float = 4, *, loop: int = 0) -> int:
    """Write ``(H, W, 3)`` uint8 frames as an animated GIF (atomically: ``*.tmp`` then rename).

    Returns the number of frames in the file (Pillow merges consecutive
    identical frames into one longer frame).
    """
    frames = [np.ascontiguousarray(f, dtype=np.uint8) for f in frames]
    if not frames:
        raise ConfigError("write_gif needs at least one frame")
    shape = frames[0].shape
    if len(shape) != 3 or shape[2] != 3 or any(f.shape != shape for f in frames):
        raise ConfigError(f"write_gif takes (H, W, 3) uint8 frames of one shape, got {[f.shape for f in frames][:3]}...")
    if not fps or fps <= 0:
        raise ConfigError(f"fps must be positive, got {fps!r}")
    duration = max(20, round(1000 / fps / 10) * 10)  # GIF delays are in hundredths of a second
    images = _palette_frames(frames)
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=duration, loop=loop)
    atomic_write_bytes(Path(path), buf.getbuffer())  # a fresh O_EXCL|O_NOFOLLOW temp file, then rename
    distinct = 1 + sum(not np.array_equal(a, b) for a, b in itertools.pairwise(frames))
    return distinct


def save_episode_gif(
    env_or_id: gym.Env | str,
    actions_or_policy: Any,
    path: str | os.PathLike,
    fps: float = 4,
    *,
    seed: int | None = 0,
    options: dict | None = None,
    max_steps: int | None = None,
    image_size: int | None = None,
    progress_bar: bool = True,
    caption: bool = True,
    env_kwargs: dict | None = None,
) -> dict:
    """Play one episode (see :func:`episode_frames`) and write it to ``path`` as a GIF at ``fps`` frames a second.

    Returns the episode summary of :func:`episode_frames` plus ``frames`` (the
    number of GIF frames: ``steps + 1`` with the progress bar) and ``path``.

    Example::

        # env_id: a registered id, ``SVoT/<Domain>-<n>x<n>[-OOD]-v0``
        from svot.gif import save_episode_gif
        save_episode_gif(env_id, ["move up", "move left"], "actions.gif", seed=3)
        env = svot.wrappers.OneHotObservation(gymnasium.make(env_id), "egocentric_flat")
        save_episode_gif(env, PPO.load("model.zip"), "policy.gif", seed=7)
    """
    frames, summary = episode_frames(
        env_or_id, actions_or_policy, seed=seed, options=options, max_steps=max_steps, image_size=image_size,
        env_kwargs=env_kwargs,
    )
    if caption:
        frames = _add_captions(frames, summary["captions"])
    if progress_bar:
        frames = _add_bar(frames)
    n = write_gif(frames, path, fps)
    return {**summary, "frames": n, "path": str(path)}
