"""Play an SVoT env from the keyboard, without drift: ``svot.play.play(env_id)``.

``gymnasium.utils.play.play(env)`` steps the env at every frame, and when no
key (or an unknown combination) is pressed it steps ``noop``, by default
action 0. In SVoT action 0 is "move up", a real move, so the player drifts up
unless you pass ``wait_on_player=True`` (then nothing happens between key
presses, but an unknown key, such as a digit alone where actions take a distance, still moves up).

:class:`WithNoOp` adds one action, ``n`` (the last index), that leaves the env
untouched: no step, no reward, the last observation again. :func:`play` wraps
the env in it and hands that action to Gymnasium as ``noop``. Keys come from the
env's ``get_keys_to_action()``: arrows and WASD; where actions take a
distance, hold the digit ``k`` with a direction for a ``k``-cell move.
"""

from __future__ import annotations

from typing import Any, Callable

import gymnasium as gym

from svot.errors import ConfigError


class WithNoOp(gym.Wrapper):
    """``Discrete(n)`` -> ``Discrete(n + 1)``; action ``n`` is a no-op that does not step the env."""

    def __init__(self, env: gym.Env):
        if not isinstance(env.action_space, gym.spaces.Discrete):
            raise ConfigError(f"WithNoOp needs a Discrete action space, got {env.action_space}")
        super().__init__(env)
        self.noop = int(env.action_space.n)
        self.action_space = gym.spaces.Discrete(self.noop + 1)
        self._last: tuple[Any, dict] | None = None

    def reset(self, **kwargs):
        obs, info = self.env.reset(**kwargs)
        self._last = (obs, info)
        return obs, info

    def step(self, action):
        if int(action) == self.noop:
            if self._last is None:
                raise gym.error.ResetNeeded("call reset() before step()")
            obs, info = self._last
            return obs, 0.0, False, False, dict(info, noop=True)
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._last = (obs, info)
        return obs, reward, terminated, truncated, info


def play(
    env: gym.Env | str,
    *,
    seed: int | None = None,
    fps: int | None = None,
    zoom: float | None = None,
    callback: Callable | None = None,
    wait_on_player: bool = False,
    **make_kwargs,
) -> None:
    """``gymnasium.utils.play.play`` on ``env`` (or ``gym.make(env, render_mode="rgb_array")``) with a true no-op.

    ``fps`` defaults to the env's ``render_fps`` (4: a held key moves four
    cells a second). Escape or closing the window ends the game.
    """
    from gymnasium.utils.play import play as gym_play  # needs pygame (the "rl" extra)

    if isinstance(env, str):
        env = gym.make(env, render_mode="rgb_array", **make_kwargs)
    elif make_kwargs:
        raise ConfigError(f"keyword arguments {sorted(make_kwargs)} are for gym.make; pass an env id, not an env")
    if env.render_mode != "rgb_array":
        raise ConfigError(f"play needs render_mode='rgb_array', got {env.render_mode!r}")
    wrapped = WithNoOp(env)
    gym_play(wrapped, fps=fps, zoom=zoom, callback=callback, seed=seed, noop=wrapped.noop,
             wait_on_player=wait_on_player, keys_to_action=env.get_wrapper_attr("get_keys_to_action")())


__all__ = ["WithNoOp", "play"]
