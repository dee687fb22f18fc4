"""What RL libraries need around the SVoT envs: observation encodings, a Stable-Baselines3 VecEnv, evaluation.

The envs observe an ``(N, N)`` grid of bit flags (bit ``i`` = ``spec.kinds[i]``): ``uint8``, or
``uint16`` for a domain of more than 8 kinds.
Networks learn far better from one channel per kind, so:

* :func:`onehot` turns bit-flag grids (any leading batch shape) into float32
  channels ``(..., C, H, W)`` — one per kind, plus (``border=True``) a channel
  that is 1 on a one-cell frame around the grid, so a convolution sees the
  edge of the board as something other than an empty cell — or flattens them
  (``flatten=True``: ``(..., C*H*W)``, for an MLP).
* :class:`OneHotObservation` is the same as a Gymnasium observation wrapper of
  the single env (``gymnasium.make(id)`` → ``OneHotObservation(env)``).
* :class:`SB3VecEnv` adapts the natively batched vector env
  (``gymnasium.make_vec(id, num_envs=n)``, :mod:`svot.envs.vector`) to
  Stable-Baselines3's :class:`~stable_baselines3.common.vec_env.VecEnv`
  interface, encoding observations on the whole batch at once.
  :func:`make_sb3_vec_env` builds one from an env id.
* ``GridCNN`` (a Stable-Baselines3 features extractor, created on first
  access since it needs torch) is a small padded CNN for these tiny grids
  (SB3's default ``NatureCNN`` wants images of at least 36×36 pixels);
  :func:`grid_cnn_policy_kwargs` gives the ``policy_kwargs`` that use it.
* :func:`heldout_problems` and :func:`evaluate_success` measure a policy's
  success rate on a fixed problem set, all problems stepped as one batch.

Only :class:`SB3VecEnv`, ``GridCNN`` and :func:`grid_cnn_policy_kwargs` import
Stable-Baselines3/torch (``pip install "svot[rl]"``); the rest needs numpy and
Gymnasium only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from svot.errors import ConfigError
from svot.pddl.pddlgym_compat import quiet_gym_import
from svot.envs.vector import problem_pool

# SB3VecEnv and GridCNN are importable by name too (``from svot.wrappers import SB3VecEnv``) but stay out of
# __all__, so ``from svot.wrappers import *`` works without Stable-Baselines3.
__all__ = [
    "OneHotObservation",
    "egocentric",
    "encoded_space",
    "evaluate_success",
    "grid_cnn_policy_kwargs",
    "heldout_problems",
    "make_sb3_vec_env",
    "n_kinds_of",
    "onehot",
]

ENCODINGS = ("onehot", "flat", "egocentric", "egocentric_flat", "raw")
PLAYER_BIT = 0  # every SVoT domain lists "player" first in spec.kinds
BIT_DTYPES = (np.dtype(np.uint8), np.dtype(np.uint16))  # svot.envs.observation.observation_dtype


# --- observation encodings ----------------------------------------------------------------------
def n_kinds_of(space: spaces.Box) -> int:
    """The number of kinds (bits) of an SVoT bit-flag observation space (``high = 2**K - 1``)."""
    high = int(np.max(space.high))
    k = high.bit_length()
    if high != (1 << k) - 1 or space.dtype not in BIT_DTYPES:
        raise ConfigError(f"not an SVoT bit-flag observation space (uint8 or uint16, high = 2**K - 1): {space}")
    return k


def onehot(obs: np.ndarray, n_kinds: int, *, border: bool = False, flatten: bool = False) -> np.ndarray:
    """float32 one-hot channels of bit-flag grids: ``(..., N, N)`` → ``(..., C, H, W)``.

    ``C = n_kinds`` (channel ``i`` = bit ``i`` = ``spec.kinds[i]``), plus one
    border channel when ``border`` (then ``H = W = N + 2``: the grid sits in a
    one-cell frame whose border channel is 1). ``flatten``: ``(..., C*H*W)``.
    """
    obs = np.asarray(obs)
    if obs.ndim < 2 or obs.dtype not in BIT_DTYPES:
        raise ConfigError(f"onehot takes uint8 or uint16 grids of shape (..., N, N), got {obs.dtype} {obs.shape}")
    lead, (h, w) = obs.shape[:-2], obs.shape[-2:]
    shifts = np.arange(n_kinds, dtype=obs.dtype).reshape(n_kinds, 1, 1)
    bits = (obs[..., None, :, :] >> shifts) & obs.dtype.type(1)  # (..., K, N, N)
    if border:
        out = np.zeros(lead + (n_kinds + 1, h + 2, w + 2), np.float32)
        out[..., :n_kinds, 1:-1, 1:-1] = bits
        out[..., n_kinds, :, :] = 1.0
        out[..., n_kinds, 1:-1, 1:-1] = 0.0
    else:
        out = bits.astype(np.float32)
    return out.reshape(lead + (-1,)) if flatten else out


def egocentric(obs: np.ndarray, n_kinds: int, *, flatten: bool = False) -> np.ndarray:
    """float32 channels of bit-flag grids centred on the player: ``(..., N, N)`` → ``(..., K, 2N-1, 2N-1)``.

    The window is ``2N - 1`` cells wide with the player in its middle cell, so
    it shows the whole grid from wherever the player stands (no partial
    observability) and the network need not learn the same move at every
    position. Channels: the ``K - 1`` kinds other than the player (in
    ``spec.kinds`` order), then one that is 1 off the grid. ``flatten``:
    ``(..., K*(2N-1)**2)``.
    """
    obs = np.asarray(obs)
    if obs.ndim < 2 or obs.dtype not in BIT_DTYPES or obs.shape[-1] != obs.shape[-2]:
        raise ConfigError(f"egocentric takes uint8 or uint16 square grids of shape (..., N, N), got {obs.dtype} {obs.shape}")
    lead, n = obs.shape[:-2], obs.shape[-1]
    flat = obs.reshape((-1, n, n))
    b, w = flat.shape[0], 2 * n - 1
    shifts = np.array([i for i in range(n_kinds) if i != PLAYER_BIT], obs.dtype).reshape(-1, 1, 1)
    padded = np.zeros((b, n_kinds, 3 * n - 2, 3 * n - 2), np.float32)  # the grid at offset n-1, frame of border
    padded[:, : n_kinds - 1, n - 1 : 2 * n - 1, n - 1 : 2 * n - 1] = (flat[:, None, :, :] >> shifts) & obs.dtype.type(1)
    padded[:, n_kinds - 1] = 1.0
    padded[:, n_kinds - 1, n - 1 : 2 * n - 1, n - 1 : 2 * n - 1] = 0.0
    where = ((flat >> obs.dtype.type(PLAYER_BIT)) & obs.dtype.type(1)).reshape(b, n * n).argmax(1)  # no player: (0, 0)
    r, c = np.divmod(where, n)
    rows = r[:, None] + np.arange(w)  # (b, w): window rows in padded coordinates
    cols = c[:, None] + np.arange(w)
    out = padded[np.arange(b)[:, None, None, None], np.arange(n_kinds)[None, :, None, None],
                 rows[:, None, :, None], cols[:, None, None, :]]
    out = out.reshape(lead + (n_kinds, w, w))
    return out.reshape(lead + (-1,)) if flatten else out


def encoded_space(space: spaces.Box, encoding: str = "onehot", *, border: bool = True) -> spaces.Box:
    """The single-env observation space after ``encoding`` (``"onehot"``, ``"flat"`` or ``"raw"``)."""
    if encoding not in ENCODINGS:
        raise ConfigError(f"unknown observation encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    if encoding == "raw":
        return space
    k = n_kinds_of(space)
    n, m = space.shape
    if encoding.startswith("egocentric"):
        shape = (k, 2 * n - 1, 2 * m - 1)
    else:
        shape = (k + border, n + 2 * border, m + 2 * border)
    if encoding.endswith("flat"):
        shape = (int(np.prod(shape)),)
    return spaces.Box(0.0, 1.0, shape, np.float32)


def _encoder(space: spaces.Box, encoding: str, border: bool) -> Callable[[np.ndarray], np.ndarray]:
    if encoding == "raw":
        return lambda obs: np.asarray(obs)
    k = n_kinds_of(space)
    flat = encoding.endswith("flat")
    if encoding.startswith("egocentric"):
        return lambda obs: egocentric(obs, k, flatten=flat)
    return lambda obs: onehot(obs, k, border=border, flatten=flat)


class OneHotObservation(gym.ObservationWrapper):
    """A single SVoT env observed as one-hot channels (``encoding="onehot"``, ``(C, H, W)``)
    or their flattening (``"flat"``, ``(C*H*W,)``), float32 in [0, 1]; see :func:`onehot`."""

    def __init__(self, env: gym.Env, encoding: str = "onehot", border: bool = True):
        super().__init__(env)
        if encoding == "raw":
            raise ConfigError("OneHotObservation encodes observations; use the env itself for 'raw'")
        self.observation_space = encoded_space(env.observation_space, encoding, border=border)
        self._encode = _encoder(env.observation_space, encoding, border)

    def observation(self, observation):
        return self._encode(observation)


# --- Stable-Baselines3 ---------------------------------------------------------------------------
def _vec_env_base():
    quiet_gym_import()  # SB3 imports old gym when installed (the pddlgym extra): keep its banner quiet
    try:
        from stable_baselines3.common.vec_env import VecEnv  # optional: the 'rl' extra
    except ImportError as exc:  # pragma: no cover - exercised only without SB3
        raise ImportError('SB3VecEnv needs stable-baselines3: pip install "svot[rl]"') from exc
    return VecEnv


def _build_sb3_vec_env_class():
    VecEnv = _vec_env_base()

    class SB3VecEnv(VecEnv):
        """Stable-Baselines3's ``VecEnv`` over one natively batched SVoT vector env.

        The vector env (``gymnasium.make_vec(id, num_envs=n,
        autoreset_mode="SameStep")``) steps all ``n`` envs in one numpy call; this
        adapter only converts the batch to SB3's conventions:

        * ``step_wait`` returns ``(obs, rewards, dones, infos)`` with
          ``dones = terminated | truncated`` and one info dict per env; an env
          that ended holds ``terminal_observation`` (encoded),
          ``TimeLimit.truncated`` and ``is_success`` (reward > 0: it reached the
          goal), and its row of ``obs`` is already the next episode's first
          observation (Gymnasium's same-step autoreset is SB3's convention);
        * observations are encoded on the whole batch (``encoding``:
          ``"onehot"`` ``(C, H, W)`` channels for a CNN, ``"flat"`` for an MLP,
          ``"raw"`` bit flags), see :func:`onehot`;
        * ``seed(s)`` makes the next ``reset()`` call ``reset(seed=s)`` on the
          vector env, which seeds its problem pool and its problem draws (SB3's
          per-env ``s + i`` seeds collapse to the one seed a batched env takes);
        * attributes and methods (``get_attr``, ``env_method``) belong to the one
          batched env, so every index sees the same value / the method is called
          once and its result repeated.
        """

        def __init__(self, venv, encoding: str = "onehot", border: bool = True):
            if getattr(venv, "autoreset_mode", None) is not AutoresetMode.SAME_STEP:
                raise ConfigError(
                    "SB3VecEnv needs a vector env with autoreset_mode='SameStep' (SB3 resets envs within the "
                    f"terminal step), got {getattr(venv, 'autoreset_mode', None)!r}; see make_sb3_vec_env"
                )
            self.venv = venv
            self.encoding = encoding
            space = encoded_space(venv.single_observation_space, encoding, border=border)
            self._encode = _encoder(venv.single_observation_space, encoding, border)
            self._actions = None
            super().__init__(venv.num_envs, space, venv.single_action_space)

        # --- the VecEnv interface -------------------------------------------------------------
        def reset(self):
            seed = self._seeds[0]
            obs, _info = self.venv.reset(seed=seed)
            self._reset_seeds()
            self._reset_options()
            self.reset_infos = [{} for _ in range(self.num_envs)]
            return self._encode(obs)

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64, copy=False)

        def step_wait(self):
            obs, reward, terminated, truncated, info = self.venv.step(self._actions)
            dones = terminated | truncated
            infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
            if dones.any():
                final_obs = info["final_obs"]
                for i in np.flatnonzero(dones):
                    infos[i] = {
                        "terminal_observation": self._encode(final_obs[i]),
                        "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                        "is_success": bool(reward[i] > 0),
                    }
            return self._encode(obs), reward.astype(np.float32), dones, infos

        def close(self) -> None:
            self.venv.close()

        def get_images(self) -> Sequence[np.ndarray | None]:
            if self.venv.render_mode != "rgb_array":
                return [None] * self.num_envs
            return list(self.venv.render_batch())

        def get_attr(self, attr_name: str, indices=None) -> list[Any]:
            return [getattr(self.venv, attr_name)] * len(list(self._get_indices(indices)))

        def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
            setattr(self.venv, attr_name, value)

        def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
            result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
            return [result] * len(list(self._get_indices(indices)))

        def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
            return [isinstance(self.venv, wrapper_class)] * len(list(self._get_indices(indices)))

    SB3VecEnv.__module__ = __name__
    SB3VecEnv.__qualname__ = "SB3VecEnv"
    return SB3VecEnv


def make_sb3_vec_env(
    env_id: str,
    n_envs: int = 8,
    *,
    encoding: str = "onehot",
    border: bool = True,
    seed: int | None = None,
    **make_kwargs,
):
    """``SB3VecEnv(gymnasium.make_vec(env_id, num_envs=n_envs, autoreset_mode="SameStep", **make_kwargs))``.

    ``make_kwargs`` go to the vector env (``pool_size=``, ``problems=``,
    ``render_mode=``...). ``seed``: the seed of its first reset.
    """
    venv = gym.make_vec(env_id, num_envs=n_envs, autoreset_mode="SameStep", **make_kwargs)
    env = __getattr__("SB3VecEnv")(venv, encoding=encoding, border=border)
    if seed is not None:
        env.seed(seed)
    return env


def _build_grid_cnn_class():
    quiet_gym_import()
    try:
        import torch  # optional: the 'rl' extra (torch and stable-baselines3)
        from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
    except ImportError as exc:  # pragma: no cover - exercised only without SB3
        raise ImportError('GridCNN needs stable-baselines3 and torch: pip install "svot[rl]"') from exc
    from torch import nn  # optional, as above

    class GridCNN(BaseFeaturesExtractor):
        """3×3 same-padded convolutions over ``(C, H, W)`` one-hot grids, then a linear layer.

        ``channels``: the width of each conv layer (their number sets the receptive
        field: ``1 + 2·len(channels)`` cells); ``features_dim``: the output size.
        """

        def __init__(self, observation_space: spaces.Box, channels: Sequence[int] = (32, 64, 64), features_dim: int = 256):
            super().__init__(observation_space, features_dim)
            layers: list[nn.Module] = []
            c = observation_space.shape[0]
            for width in channels:
                layers += [nn.Conv2d(c, width, 3, padding=1), nn.ReLU()]
                c = width
            layers.append(nn.Flatten())
            self.cnn = nn.Sequential(*layers)
            with torch.no_grad():
                n_flat = self.cnn(torch.zeros(1, *observation_space.shape)).shape[1]
            self.linear = nn.Sequential(nn.Linear(n_flat, features_dim), nn.ReLU())

        def forward(self, observations):
            return self.linear(self.cnn(observations))

    GridCNN.__module__ = __name__
    GridCNN.__qualname__ = "GridCNN"
    return GridCNN


_LAZY = {"SB3VecEnv": _build_sb3_vec_env_class, "GridCNN": _build_grid_cnn_class}


def __getattr__(name: str):
    built = globals().get(name)
    if built is not None:  # (a direct __getattr__(name) call from this module)
        return built
    builder = _LAZY.get(name)
    if builder is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    cls = builder()
    globals()[name] = cls  # built once; pickling finds it as svot.wrappers.<name>
    return cls


def grid_cnn_policy_kwargs(
    channels: Sequence[int] = (32, 64, 64), features_dim: int = 256, net_arch: Any = None
) -> dict:
    """``policy_kwargs`` for SB3's ``CnnPolicy`` with :class:`GridCNN` as features extractor."""
    kwargs: dict = {
        "features_extractor_class": __getattr__("GridCNN"),
        "features_extractor_kwargs": {"channels": tuple(channels), "features_dim": int(features_dim)},
    }
    if net_arch is not None:
        kwargs["net_arch"] = net_arch
    return kwargs


# --- evaluation on fixed problems ----------------------------------------------------------------
def heldout_problems(env_id: str, n: int, seed: int) -> list:
    """``n`` problems of ``env_id`` (its domain, size and split) drawn from ``seed``, as the vector env's
    problem pool draws them (:func:`svot.envs.vector.problem_pool`); pick a seed training never uses."""
    kw = gym.spec(env_id).kwargs
    env = gym.make(env_id)  # Gymnasium loads the id's env class, which is bound to its domain; nothing is drawn
    domain = env.unwrapped.domain
    env.close()
    return list(problem_pool(domain, kw["size"], kw.get("split", "id"), seed, n))


def evaluate_success(
    policy: Callable[[np.ndarray], np.ndarray],
    env_id: str,
    problems: Sequence,
    *,
    encoding: str = "onehot",
    border: bool = True,
    max_steps: int | None = None,
    return_lengths: bool = False,
):
    """The fraction of ``problems`` on which ``policy`` reaches the goal (reward > 0) within ``max_steps``
    (default: the id's ``max_episode_steps``).

    All problems run at once in one vector env (one env per problem, no
    autoreset); ``policy`` maps a batch of encoded observations to a batch of
    actions, e.g. ``lambda obs: model.predict(obs, deterministic=True)[0]``.
    With ``return_lengths``: ``(rate, lengths)``, ``lengths[j]`` the steps
    taken on ``problems[j]`` (``-1`` where the goal was not reached).
    """
    problems = list(problems)
    venv = gym.make_vec(env_id, num_envs=len(problems), problems=problems, autoreset_mode="Disabled")
    try:
        encode = _encoder(venv.single_observation_space, encoding, border)
        limit = max_steps if max_steps is not None else (venv.max_episode_steps or gym.spec(env_id).max_episode_steps)
        obs, _ = venv.reset(seed=0)
        index = {id(p): j for j, p in enumerate(venv.pool)}  # venv.pool is problems (parsed), in order
        order = np.array([index[id(venv.problem(i))] for i in range(len(problems))])
        if len(set(order.tolist())) != len(problems):
            raise RuntimeError("evaluate_success: the vector env did not give every problem its own env")
        done = np.zeros(len(problems), bool)
        success = np.zeros(len(problems), bool)
        lengths = np.full(len(problems), -1, np.int64)
        for t in range(1, int(limit) + 1):
            actions = np.asarray(policy(encode(obs))).reshape(len(problems)).astype(np.int64)
            obs, reward, terminated, truncated, _ = venv.step(actions)
            new = ~done & (terminated | truncated)
            won = new & (reward > 0)
            success |= won
            lengths[won] = t
            done |= new
            if done.all():
                break
    finally:
        venv.close()
    rate = float(success.mean())
    if not return_lengths:
        return rate
    by_problem = np.full(len(problems), -1, np.int64)
    by_problem[order] = lengths
    return rate, by_problem
