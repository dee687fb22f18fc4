"""Natively batched SVoT environments: ``gymnasium.make_vec(env_id, num_envs=1024)``
(ids: :func:`svot.domains.registered_ids`).

:class:`SVoTVectorEnv` steps all sub-environments at once on the
:class:`~svot.engine.vector.VectorEngine` (one numpy array, compiled from the
domain's PDDL), with Gymnasium 1.x autoreset semantics. It is every SVoT id's
``vector_entry_point``, so ``make_vec`` returns it by default
(``vectorization_mode=None`` or ``"vector_entry_point"``); ``"sync"`` and
``"async"`` still build Gymnasium's wrappers around the single env.

## Description
Each sub-environment behaves as the single env (:class:`svot.envs.base.SVoTEnv`)
of the same id with the default grounded engine: same actions, observations,
rewards, termination, and truncation after ``max_episode_steps`` (4·N², from the
registration). Problems come from a *pool*: ``pool_size`` solvable problems (default
``2·num_envs`` clamped to 64..1024) drawn by :func:`svot.problem_gen.generate`
from a generator seeded by the seed given to :meth:`reset` (cached per process,
so a second env with the same seed and pool size costs nothing; problem ``j`` is
the same whatever the pool size). Generating it is the cost of the seeded
``reset()`` (about a second for 1,024 problems; more for OOD sizes whose
solvability search is slow). Every (auto)reset then assigns an env a
problem drawn from the pool with ``self.np_random``, so resets never wait on a
solvability search, and the same seed and actions give the same trajectories.
The first reset spreads the envs over distinct pool problems when the pool is
large enough. A fixed list of problems
(``problems=``: :class:`~svot.pddl.Problem` values or PDDL texts) replaces the
generated pool.

## Action Space
``MultiDiscrete([n_actions] * num_envs)`` (``single_action_space`` is the
single env's ``Discrete``); an action outside it raises
:class:`~svot.errors.ActionError`.

## Observation Space
``Box(0, 2**K - 1, (num_envs, N, N), uint8)`` (``uint16`` above 8 kinds): per env
the single env's bit-flag grid (bit i = ``spec.kinds[i]``), computed from the
state columns with a few numpy ops. The atom→(cell, kind) map is derived from
the predicates' names (``(at ?c)`` is the player; ``(wall ?c)`` the kind
``wall``; ``(ball ?c red)`` the kind ``ball_red``; a spec may say more through
``atom_kind_names``); kinds that no atom draws (edge walls, the absence of a
passage) come from each pool problem's own grid. The map is verified against
the spec's own ``state_dict``/``cell_kinds`` on the pool's states when the env
is built; a domain where it does not hold falls back to the spec per env (logged).

## Rewards, Episode End
As the single env: reward 1.0 on reaching the goal; terminated on the goal or on
a failure. Failure is the spec's ``is_failure``; it is
evaluated only for envs in which no agent action applies any more (failures are
absorbing in the PDDL), once per (problem, state),
cached.

## Autoreset
``autoreset_mode`` is ``"NextStep"`` (default, Gymnasium's), ``"SameStep"`` or
``"Disabled"`` (a string or :class:`gymnasium.vector.AutoresetMode`), and is in
``metadata["autoreset_mode"]``. Next-step: the step after an env terminates or
truncates resets it and returns its reset observation with reward 0,
``terminated=truncated=False`` and ``applicable=True``; the action given to it is
ignored. Same-step: the reset happens within the terminal step; the terminal
observation is in ``info["final_obs"]`` (an object array, ``None`` for envs that
did not end) and the terminal info in ``info["final_info"]``, with masks
``_final_obs``/``_final_info``. Disabled: call
``reset(options={"reset_mask": mask})`` yourself.

## Info
``info_level="minimal"`` (default here, for speed): ``{"applicable", "_applicable"}``,
``applicable`` a bool array saying whether each env's action changed anything
(``_applicable`` is all True, Gymnasium's per-key mask). ``"state"`` adds
``"state"`` (an object array of the single env's state dicts); ``"full"`` adds
``"state_text"`` and ``"atoms"`` too. Both build Python dicts per env per step,
so they are slow.

## Rendering
``render_mode="rgb_array"`` returns a tuple of images (the tile-atlas renderer,
the single env's pixels), one per env, or for the first ``render_envs`` envs;
``"ansi"`` returns text grids.
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from svot.kernel import DomainSpec, GridDomain
from svot.engine.vector import ProblemBatch, VectorEngine
from svot.envs.observation import (
    observation_dtype,
    observation_layout,
    slots_per_cell,
    spec_observation,
    static_grid,
    undrawn_kinds,
)
from svot.envs.pool import generated_pool
from svot.errors import ActionError, ConfigError, ProblemError
from svot.envs.problem_check import load_problem
from svot.pddl import Problem, load_domain
from svot.render.ansi import render_ansi
from svot.render.atlas import get_atlas
from svot.render.labels import canonical_label
from svot.render.text import describe

log = logging.getLogger(__name__)

SPLITS = ("id", "ood")
INFO_LEVELS = ("minimal", "state", "full")
MIN_DEFAULT_POOL_SIZE, MAX_DEFAULT_POOL_SIZE = 64, 1024  # default pool: 2·num_envs, clamped
_ENGINES: dict = {}  # (domain, size) -> VectorEngine


# --- pools and engines (shared within a process) ----------------------------------------------
def problem_pool(
    domain: GridDomain, size: int, split: str, seed: int, pool_size: int, allow_any_size: bool = False
) -> tuple[Problem, ...]:
    """``pool_size`` generated problems, deterministic in ``seed`` (cached; see :mod:`svot.envs.pool`)."""
    return tuple(g.problem for g in generated_pool(domain, size, split, seed, pool_size))


def engine_for(spec: DomainSpec, size: int, problems: Sequence[Problem]) -> VectorEngine:
    """The process's :class:`VectorEngine` for (domain, size), rebuilt if ``problems`` do not fit it."""
    key = (spec.name, spec.pddl, size)
    eng = _ENGINES.get(key)
    if eng is not None:
        try:
            for p in problems:
                eng.check(p)
            return eng
        except ProblemError as exc:
            log.info("recompiling the %s %dx%d vector engine: %s", spec.name, size, size, exc)
    domain = load_domain(spec.pddl)
    shared = [a for a in spec.base_atoms(size) if a[0] in domain.static_predicates]
    layout = observation_layout(spec, size, domain, {a[0] for a in shared})
    eng = VectorEngine(domain, spec.base_objects(size), shared, spec.internal, reference=list(problems), layout=layout)
    _ENGINES[key] = eng
    return eng


class SVoTVectorEnv(VectorEnv):
    """Batched SVoT grid environments; see the module docstring for the full description."""

    metadata = {
        "render_modes": ["rgb_array", "ansi"],
        "render_fps": 4,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }
    domain: GridDomain | None = None  # a domain's subclass (svot/domains/<name>/env.py) binds its domain

    def __init__(
        self,
        num_envs: int = 1,
        size: int | None = None,
        split: str = "id",
        *,
        domain: GridDomain | None = None,
        max_episode_steps: int | None = None,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        pool_size: int | None = None,
        problems: Sequence[Problem | str] | None = None,
        info_level: str = "minimal",
        render_mode: str | None = None,
        render_envs: int | None = None,
        image_size: int = 256,
        engine: str = "grounded",
        allow_any_size: bool = False,
    ):
        domain = self.domain if domain is None else domain
        if not isinstance(domain, GridDomain):
            raise ConfigError(
                "SVoTVectorEnv needs a domain: domain=svot.domains.get_domain(name), or a domain's own subclass "
                f"(svot/domains/<name>/env.py); got {domain!r}"
            )
        if domain is not type(self).domain:
            self.domain = domain  # a domain's subclass binds its own: the instance (and a pickle) need not hold it
        self.dspec: DomainSpec = domain.spec
        name = domain.name
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ConfigError(f"num_envs must be a positive int, got {num_envs!r}")
        self.num_envs = int(num_envs)
        size = self.dspec.sizes[0] if size is None else size
        self.size = self.dspec.check_size(size, allow_any=allow_any_size)
        if split not in SPLITS:
            raise ConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
        self.split = split
        if engine not in ("grounded", "vector"):
            raise ConfigError(
                f"the vector env steps its own compiled engine; engine={engine!r} is available through "
                "gymnasium.make_vec(..., vectorization_mode='sync') only"
            )
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            raise ConfigError(
                f"unknown autoreset_mode {autoreset_mode!r}; choose one of {', '.join(m.value for m in AutoresetMode)}"
            ) from None
        if info_level not in INFO_LEVELS:
            raise ConfigError(f"unknown info_level {info_level!r}; choose one of {', '.join(INFO_LEVELS)}")
        self.info_level = info_level
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"unknown render_mode {render_mode!r}; choose one of {', '.join(self.metadata['render_modes'])}"
            )
        self.render_mode = render_mode
        self.render_envs = None if render_envs is None else max(1, min(int(render_envs), self.num_envs))
        self.image_size = image_size
        if max_episode_steps is not None and (not isinstance(max_episode_steps, (int, np.integer)) or max_episode_steps < 1):
            raise ConfigError(f"max_episode_steps must be a positive int or None, got {max_episode_steps!r}")
        self.max_episode_steps = None if max_episode_steps is None else int(max_episode_steps)
        if pool_size is None:
            pool_size = min(MAX_DEFAULT_POOL_SIZE, max(MIN_DEFAULT_POOL_SIZE, 2 * self.num_envs))
        if isinstance(pool_size, bool) or not isinstance(pool_size, (int, np.integer)) or pool_size < 1:
            raise ConfigError(f"pool_size must be a positive int, got {pool_size!r}")
        self.pool_size = int(pool_size)
        self.allow_any_size = allow_any_size
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)

        self.pddl_domain = load_domain(self.dspec.pddl)
        if self.pddl_domain.unsupported is not None:
            raise ConfigError(
                f"the native {name} vector env needs svot's compiled engine, which cannot run "
                f"{self.pddl_domain.unsupported} in {self.pddl_domain.source}; use "
                "gymnasium.make_vec(id, num_envs, vectorization_mode='sync') (PDDLGym, slow)"
            )
        n_actions = self.dspec.n_actions(self.size)
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n_kinds = len(self.dspec.kinds)
        self._obs_dtype = observation_dtype(self.dspec)
        self.single_observation_space = spaces.Box(0, (1 << n_kinds) - 1, (self.size, self.size), self._obs_dtype)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._keys = [self.dspec.action_key(a, self.size) for a in range(n_actions)]
        self._track_failure = type(self.dspec).is_failure is not DomainSpec.is_failure

        self._fixed: tuple[Problem, ...] | None = None
        if problems is not None:
            self._fixed = tuple(self._load_problem(p) for p in problems)
            if not self._fixed:
                raise ConfigError("problems= must hold at least one problem")
        self.engine: VectorEngine | None = None
        self.pool: tuple[Problem, ...] = ()
        self.pool_seed: int | None = None
        self._batch: ProblemBatch | None = None
        self._state = None
        self._all_true = np.ones(self.num_envs, bool)
        self._all_true.setflags(write=False)
        self._needs_reset = np.zeros(self.num_envs, bool)
        self._elapsed = np.zeros(self.num_envs, np.int64)
        self._failed_cache: dict = {}

    # --- actions ------------------------------------------------------------------------------
    def action_text(self, action: int) -> str:
        return self.dspec.action_text(self.dspec.check_action(action, self.size), self.size)

    def parse_action(self, text: str) -> int:
        return self.dspec.parse_action(text, self.size)

    def _check_actions(self, actions) -> np.ndarray:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ActionError(
                f"{self.dspec.name} vector env takes an integer array of shape ({self.num_envs},), "
                f"got {a.dtype} {a.shape}"
            )
        n = self.single_action_space.n
        if a.dtype.kind == "i":  # negatives wrap to huge values: one max() checks both ends
            a = a.view(np.uint64) if a.dtype == np.int64 else a.astype(np.uint64)
        if a.max() >= n:
            a = np.asarray(actions)
            bad = int(np.flatnonzero((a < 0) | (a >= n))[0])
            raise ActionError(f"{self.dspec.name} action {int(a[bad])} of env {bad} is out of range 0..{n - 1}")
        return a

    # --- problems -------------------------------------------------------------------------------
    def _load_problem(self, problem) -> Problem:
        # the single env's rule and checks, word for word (svot.envs.problem_check.load_problem)
        return load_problem(problem, self.dspec, self.pddl_domain, self.size, what="problems")

    def _use_pool(self, pool: tuple[Problem, ...]) -> None:
        if pool is self.pool and self.engine is not None:
            return
        self.engine = engine_for(self.dspec, self.size, pool)
        self._batch = self.engine.encode(pool)
        self.pool = pool
        self._state = self.engine.new_state(self.num_envs, self._batch)
        self._act_rows = self.engine.key_ids(self._keys)
        self._failed_cache = {}
        self._fail_table = None
        if self._track_failure and self.engine.code_covers_state:
            self._fail_table = np.full(len(pool) * self.engine.n_codes, -1, np.int8)
        self._agent_rows = np.arange(len(self.engine.agent_keys))
        self._build_observer()

    def problem(self, i: int) -> Problem:
        """The problem env ``i`` is playing."""
        self._require_reset()
        return self.pool[int(self._state.problem[i])]

    # --- episode ----------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if options is not None and not isinstance(options, dict):
            raise ConfigError(f"reset options must be a dict such as {{'reset_mask': ...}}, got {type(options).__name__}")
        options = dict(options or {})
        unknown = sorted(set(options) - {"reset_mask"})
        if unknown:
            raise ConfigError(f"unknown reset option(s) {', '.join(map(repr, unknown))}; known: 'reset_mask'")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise ConfigError(
                f"the SVoT vector env takes one int seed for all envs (it seeds the problem pool), got {seed!r}"
            )
        super().reset(seed=None if seed is None else int(seed))  # seeds self.np_random
        if self._fixed is not None:
            self._use_pool(self._fixed)
        elif seed is not None or self.engine is None:
            pool_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
            self.pool_seed = pool_seed
            self._use_pool(
                problem_pool(self.domain, self.size, self.split, pool_seed, self.pool_size, self.allow_any_size)
            )
        mask = options.get("reset_mask")
        if mask is None:
            rows = np.arange(self.num_envs)
        else:
            mask = np.asarray(mask)
            if mask.shape != (self.num_envs,) or mask.dtype != np.bool_:
                raise ConfigError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)")
            if self._state is None or not self._loaded:
                raise ConfigError("reset with a reset_mask needs a full reset() first")
            rows = np.flatnonzero(mask)
        self._load_rows(rows, initial=mask is None)
        self._loaded = True
        obs = self._observe()
        info = self._info(self._all_true.copy(), rows if mask is not None else None)
        return obs, info

    _loaded = False

    def _load_rows(self, rows: np.ndarray, initial: bool = False) -> None:
        P = len(self.pool)
        if initial:
            which = self.np_random.choice(P, size=len(rows), replace=P < len(rows))
        else:
            which = self.np_random.integers(P, size=len(rows))
        self.engine.load(self._state, rows, self._batch, which)
        self._elapsed[rows] = 0
        self._needs_reset[rows] = False

    def _require_reset(self) -> None:
        if not self._loaded:
            raise gym.error.ResetNeeded("call reset() before step()")

    def step(self, actions):
        self._require_reset()
        a = self._check_actions(actions)
        st = self._state
        eng = self.engine
        applied = eng.step(st, self._act_rows.take(a))
        goal = eng.is_goal(st)
        if self._track_failure:
            terminated = goal | self._failure_of(goal)
        else:
            terminated = goal
        self._elapsed += 1
        if self.max_episode_steps is not None:
            truncated = self._elapsed >= self.max_episode_steps
        else:
            truncated = np.zeros(self.num_envs, bool)
        reward = goal.astype(np.float64)
        mode = self.autoreset_mode
        info_extra: dict = {}
        if mode is AutoresetMode.NEXT_STEP:
            if self._needs_reset.any():
                rows = np.flatnonzero(self._needs_reset)
                self._load_rows(rows)
                terminated[rows] = False
                truncated[rows] = False
                reward[rows] = 0.0
                applied[rows] = True
            self._needs_reset = terminated | truncated
            obs = self._observe()
        elif mode is AutoresetMode.SAME_STEP:
            obs = self._observe()
            done = terminated | truncated
            if done.any():
                rows = np.flatnonzero(done)
                final_obs = np.full(self.num_envs, None, dtype=object)
                for i in rows:
                    final_obs[i] = obs[i].copy()
                final_info = self._info(applied.copy(), rows)
                info_extra = {"final_obs": final_obs, "_final_obs": done.copy(), "final_info": final_info, "_final_info": done.copy()}
                self._load_rows(rows)
                obs[rows] = self._observe(rows)
                applied = applied.copy()
                applied[rows] = True  # the info of a reset env is its reset info
        else:
            obs = self._observe()
        info = self._info(applied)
        if info_extra:
            info.update(info_extra)
        return obs, reward, terminated, truncated, info

    # --- failure (``is_failure``): absorbing states the spec calls failures --------------------
    def _failure_of(self, goal: np.ndarray) -> np.ndarray:
        """Per env: the spec's ``is_failure`` of its state.

        Asked of the spec only where no agent action applies any more (a failure
        is absorbing in the PDDL), once per (problem,
        state). When the engine's pivot code fixes the whole changing part of a
        state (e.g. only the player's cell changes), the answers live in a
        (problem × code) table and a step costs one lookup.
        """
        st = self._state
        table = self._fail_table
        if table is not None:
            idx = st.problem * self.engine.n_codes
            idx += st.code
            f = table.take(idx)
            unknown = f < 0
            if unknown.any():
                rows = np.flatnonzero(unknown)
                vals = self._spec_failures(rows)
                table[idx[rows]] = vals
                f[rows] = vals
            return f == 1
        out = np.zeros(self.num_envs, bool)
        dead = np.flatnonzero(~goal)
        if dead.size:
            dead = dead[~self.engine.applicable(st, self._agent_rows, dead).any(1)]
        cache = self._failed_cache
        for i in dead:
            key = (int(st.problem[i]), st.rows[i].tobytes())
            v = cache.get(key)
            if v is None:
                v = cache[key] = bool(self._spec_failures(np.array([i]))[0])
            out[i] = v
        return out

    def _spec_failures(self, rows: np.ndarray) -> np.ndarray:
        """0/1 per env of ``rows``: 1 where no agent action applies and the spec calls the state a failure."""
        out = np.zeros(len(rows), np.int8)
        dead = ~self.engine.applicable(self._state, self._agent_rows, rows).any(1)
        for j in np.flatnonzero(dead):
            sd = self.dspec.state_dict(self.engine.true_atoms(self._state.rows[rows[j]]), self.size)
            out[j] = bool(self.dspec.is_failure(sd))
        return out

    # --- observations -------------------------------------------------------------------------------
    def _build_observer(self) -> None:
        """The observation is the first ``S * N * N`` columns (S slots per cell, see :func:`observation_layout`),
        plus, for kinds no atom draws (edge walls), each pool problem's own grid of them, verified
        against the spec's own ``state_dict``/``cell_kinds`` on pool states."""
        layout = self.engine.columns[: slots_per_cell(self.dspec) * self.size * self.size]
        self._obs_cols = len(layout)
        self._obs_words = np.dtype(self._obs_dtype).itemsize  # packed bytes per cell
        undrawn = undrawn_kinds(self.dspec, self.size, layout)
        self._static_obs = None
        if undrawn:
            self._static_obs = np.stack([
                static_grid(self.dspec, self.dspec.state_dict(p.init, self.size), self.size, undrawn) for p in self.pool
            ])
        self._obs_fallback = False
        bad = self._verify_observer()
        if bad is not None:
            log.warning(
                "SVoT vector env %s: observations computed per env through the spec (slow), since the "
                "predicate-name map disagrees with spec.cell_kinds: %s",
                self.dspec.name,
                bad,
            )
            self._obs_fallback = True

    def _verify_observer(self, samples: int = 16, walk: int = 24) -> str | None:
        """Compare the projection with the spec's obs on pool states and short random walks."""
        eng = self.engine
        k = min(samples, len(self.pool))
        st = eng.new_state(k, self._batch)
        eng.load(st, slice(None), self._batch, np.arange(k))
        rng = np.random.default_rng(0)
        nA = self.single_action_space.n
        for t in range(walk + 1):
            fast = self._project(st.rows, st.problem)
            for i in range(k):
                slow = self._spec_obs(st.rows[i])
                if not np.array_equal(fast[i], slow):
                    return f"problem {self.pool[i].name!r} after {t} random steps"
            eng.step(st, self._act_rows.take(rng.integers(nA, size=k)))
        return None

    def _project(self, rows: np.ndarray, problems: np.ndarray) -> np.ndarray:
        # S bytes (0/1) per cell → S bits, slot i = bit i (packbits reads the bytes in order, little bit order)
        bits = np.packbits(rows[:, : self._obs_cols], axis=-1, bitorder="little")
        n, N = len(rows), self.size
        if self._obs_words == 1:
            obs = bits.reshape(n, N, N)
        else:  # uint16 grids: two bytes per cell, low byte first
            obs = bits.view("<u2").astype(np.uint16, copy=False).reshape(n, N, N)
        if self._static_obs is not None:  # the kinds no atom draws: the problem's own
            obs |= self._static_obs[problems]
        return obs

    def _spec_obs(self, row: np.ndarray) -> np.ndarray:
        return spec_observation(self.dspec, self.dspec.state_dict(self.engine.true_atoms(row), self.size), self.size)

    def _observe(self, rows: np.ndarray | None = None) -> np.ndarray:
        st = self._state
        data, problems = (st.rows, st.problem) if rows is None else (st.rows[rows], st.problem[rows])
        if self._obs_fallback:
            if not len(data):
                return np.zeros((0, self.size, self.size), self._obs_dtype)
            return np.stack([self._spec_obs(r) for r in data])
        return self._project(data, problems)

    # --- info -----------------------------------------------------------------------------------------
    def _info(self, applicable: np.ndarray, rows: np.ndarray | None = None) -> dict:
        """``rows``: the envs the info is about (others masked out), None = all."""
        if rows is None:
            info = {"applicable": applicable, "_applicable": self._all_true}
            which = range(self.num_envs)
        else:
            mask = np.zeros(self.num_envs, bool)
            mask[rows] = True
            info = {"applicable": applicable, "_applicable": mask}
            which = rows
        if self.info_level == "minimal":
            return info
        keys = ["state"] + (["state_text", "atoms"] if self.info_level == "full" else [])
        cols = {k: np.full(self.num_envs, None, dtype=object) for k in keys}
        for i in which:
            sd = self.state_dict(int(i))
            cols["state"][i] = sd
            if self.info_level == "full":
                cols["state_text"][i] = describe(self.dspec, sd)
                cols["atoms"][i] = self.engine.atom_strings(self._state.rows[i])
        for k in keys:
            info[k] = cols[k]
            info["_" + k] = info["_applicable"].copy()
        return info

    def state_dict(self, i: int) -> dict:
        """Env ``i``'s state dict (as the single env's ``info["state"]``)."""
        self._require_reset()
        return self.dspec.state_dict(self.engine.true_atoms(self._state.rows[int(i)]), self.size)

    def atoms(self, i: int) -> list[str]:
        """Env ``i``'s sorted ground-atom strings (as the single env's ``info["atoms"]``)."""
        self._require_reset()
        return self.engine.atom_strings(self._state.rows[int(i)])

    # --- rendering --------------------------------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='rgb_array' or 'ansi'")
            return None
        self._require_reset()
        k = self.num_envs if self.render_envs is None else self.render_envs
        if self.render_mode == "ansi":
            return tuple(render_ansi(self.dspec, self.state_dict(i)) for i in range(k))
        return tuple(self.render_batch(np.arange(k)))

    def render_batch(self, rows: np.ndarray | None = None) -> np.ndarray:
        """``(B, H, W, 3)`` uint8 images of envs ``rows`` (default all), from the tile atlas."""
        self._require_reset()
        rows = np.arange(self.num_envs) if rows is None else np.asarray(rows)
        atlas = get_atlas(self.dspec, self.size, self.image_size)
        lut = getattr(self, "_label_lut", None)
        if lut is None or self._label_lut_atlas is not atlas:
            kinds = self.dspec.kinds
            lut = np.zeros(1 << len(kinds), np.intp)
            for flags in range(1, 1 << len(kinds)):
                present = [k for i, k in enumerate(kinds) if flags >> i & 1]
                lut[flags] = atlas.label_id(canonical_label(self.dspec, present))
            self._label_lut, self._label_lut_atlas = lut, atlas
        ids = lut.take(self._observe(rows).reshape(len(rows), -1))
        return atlas.render_batch(ids)

    def close_extras(self, **kwargs) -> None:
        self._state = None
        self._loaded = False

    def __repr__(self) -> str:
        sid = self.spec.id if self.spec is not None else f"{self.dspec.title}-{self.size}x{self.size}"
        return f"SVoTVectorEnv({sid}, num_envs={self.num_envs})"

