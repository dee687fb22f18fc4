"""The generic SVoT grid environment; each domain's env is a thin subclass.

The env owns no dynamics: it is handed a domain (:class:`~svot.kernel.GridDomain`: a
spec, a sampler, a solver) and asks its :class:`~svot.kernel.DomainSpec` how agent
actions map to PDDL action literals and how atoms read as a state, steps an
engine built from the domain's PDDL file, and draws problems from
:mod:`svot.problem_gen` with ``self.np_random``.

Keyword arguments (``gymnasium.make(id, **kwargs)``):

* ``engine``: ``"grounded"`` (default, compiled from the PDDL) or ``"pddlgym"``
  (PDDLGym's own successor function, the reference; slow).
* ``info_level``: ``"full"`` (default: ``state``, ``state_text``, ``atoms``,
  ``applicable``), ``"state"`` (no text or atoms) or ``"minimal"``
  (``applicable`` only, a plain dict). Above minimal the info is a
  :class:`~svot.envs.info.LazyInfo`: a ``dict`` whose ``state``, ``state_text``
  and ``atoms`` are built when first read, from the state the info was returned
  for (the contract is in :mod:`svot.envs.info` and ``docs/speed.md``); no state
  dict is built per step otherwise, the observation grid is read off the engine
  state's bits (:mod:`svot.envs.observation`).
* ``pool_size``: ``None`` (default) samples a fresh solvable problem at every
  reset (:func:`svot.problem_gen.sample`, from a child Generator of ``self.np_random``:
  :func:`svot.problem_gen.draw_rng`). The engine starts from the draw's bits where it has them;
  ``env.problem`` and ``env.plan`` are built when first read, the problem and plan
  :func:`svot.problem_gen.generate` gives for the same Generator;
  an int draws every reset from a pool of that many problems generated
  once from the seed (:mod:`svot.envs.pool`), so RL loops never wait on a
  solvability search. ``gym.make(id, info_level="minimal", pool_size=K)`` is
  the RL configuration ``benchmarks/bench_envs.py`` measures (``rl``, K = 64).
* ``image_size`` (default 256), ``render_mode`` (``"rgb_array"``, ``"ansi"``),
  ``allow_any_size`` (sizes outside Table 5).

``reset(options={"problem": ...})`` checks the problem against the domain
(:func:`svot.envs.problem_check.check_problem`) before adopting it; a refused
problem raises :class:`~svot.errors.ProblemError` and leaves the env as it was.
``step()`` after ``terminated=True`` follows Gymnasium's convention
(:mod:`svot.envs.episode`): reward 0.0, ``terminated`` stays True, a warning
the first time; call ``reset()``.
"""

from __future__ import annotations

import functools
import marshal
from typing import ClassVar

import gymnasium as gym
from gymnasium import spaces

from svot.kernel import DomainSpec, GridDomain
from svot.engine.base import ENGINES
from svot.engine.grounded import SharedGroundedEngine
from svot.envs.conventions import ConventionsMixin, solve_given
from svot.envs.info import PENDING, LazyInfo
from svot.envs.episode import past_termination
from svot.envs.failure import any_full, failure_masks
from svot.envs.observation import observation_dtype, observer_for, spec_observation
from svot.envs.problem_check import load_problem
from svot.errors import ConfigError
from svot.pddl import Problem, load_domain
from svot.problem_gen import draw_rng, planned, sample
from svot.envs.pool import generated_pool
from svot.envs.view import NOT_APPLIED, new_view
from svot.render.text import describe
from svot.render.ansi import render_ansi
from svot.render.image import render_state
from svot.envs.human import HumanWindow

SPLITS = ("id", "ood")
RESET_OPTIONS = ("problem",)
INFO_LEVELS = ("full", "state", "minimal")
_LAZY_KEYS = {"full": ("state", "state_text", "atoms"), "state": ("state",), "minimal": ()}
_CACHE_LIMIT = 200_000  # states whose views are kept, per problem
_POOL_CACHE_LIMIT = 4_096  # per pool problem (a pool holds many problems)
# with more actions than this (a domain whose moves take a distance) a state's moves rarely repeat in a run, and
# remembering them (which grows the view dicts) costs more than the engine calls it saves
_MEMO_MAX_ACTIONS = 8


class SVoTEnv(ConventionsMixin, gym.Env):
    """Base class of the SVoT grid environments (see each domain's subclass)."""

    metadata = {"render_modes": ["rgb_array", "ansi", "human"], "render_fps": 4}
    domain: ClassVar[GridDomain | None] = None  # a domain's subclass (svot/domains/<name>/env.py) binds its domain

    def __init__(
        self,
        size: int | None = None,
        split: str = "id",
        render_mode: str | None = None,
        engine: str = "grounded",
        image_size: int = 256,
        info_level: str = "full",
        allow_any_size: bool = False,
        pool_size: int | None = None,
        *,
        domain: GridDomain | None = None,
    ):
        domain = type(self).domain if domain is None else domain
        if not isinstance(domain, GridDomain):
            raise ConfigError(
                "SVoTEnv needs a domain: domain=svot.domains.get_domain(name), or a domain's own subclass "
                f"(svot/domains/<name>/env.py); got {domain!r}"
            )
        if domain is not type(self).domain:
            self.domain = domain  # a domain's subclass binds its own: the instance (and a pickle) need not hold it
        self.dspec: DomainSpec = domain.spec
        size = self.dspec.sizes[0] if size is None else size
        self.size = self.dspec.check_size(size, allow_any=allow_any_size)
        if split not in SPLITS:
            raise ConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(
                f"unknown render_mode {render_mode!r}; choose one of {', '.join(self.metadata['render_modes'])}"
            )
        if info_level not in INFO_LEVELS:
            raise ConfigError(f"unknown info_level {info_level!r}; choose one of {', '.join(INFO_LEVELS)}")
        if not isinstance(image_size, int) or image_size < 8 * self.size:
            raise ConfigError(f"image_size must be an int of at least {8 * self.size} pixels, got {image_size!r}")
        self.split = split
        self.render_mode = render_mode
        if engine not in ENGINES:
            raise ConfigError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
        self.engine_kind = engine
        self.image_size = image_size
        self.info_level = info_level
        self._lazy_keys = _LAZY_KEYS[info_level]
        # the infos' items before the lazy fields are read, in their order (LazyInfo.from_template)
        self._info_template = {"applicable": False, **dict.fromkeys(self._lazy_keys, PENDING)}
        self._step_template = {**self._info_template, "is_success": False}
        if pool_size is not None and (isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size < 1):
            raise ConfigError(f"pool_size must be a positive int or None, got {pool_size!r}")
        self.pool_size = pool_size
        self.pool_seed: int | None = None
        self._pool: tuple = ()
        self._pool_engines: dict[int, tuple] = {}  # pool index -> (engine, view cache)
        self.pddl_domain = load_domain(self.dspec.pddl)
        n_kinds = len(self.dspec.kinds)
        self.action_space = spaces.Discrete(self.dspec.n_actions(self.size))
        self.observation_space = spaces.Box(0, (1 << n_kinds) - 1, (self.size, self.size), observation_dtype(self.dspec))
        self._keys = [self.dspec.action_key(a, self.size) for a in range(self.action_space.n)]
        self._n_actions = int(self.action_space.n)
        self._key_tuple = tuple(dict.fromkeys(self._keys))  # the distinct action literals (Engine.stuck)
        self._tracks_failure = type(self.dspec).is_failure is not DomainSpec.is_failure
        self._failure_of: tuple | None = None  # (grounded task, its failure masks or None): _failure_masks
        self._observer = None
        self._observer_of: tuple | None = None  # what self._observer was looked up for (see reset)
        self.engine = None
        self._problem: Problem | None = None
        self._drawn = None  # the reset's svot.problem_gen.Draw, until `problem` is set otherwise
        self._plan: list[int] | None = None
        self._plan_due = False  # a generated problem whose plan is computed when `plan` is read
        self._state = None
        self._view: dict = {}  # the current state's view (svot.envs.view)
        self._cache: dict = {}  # engine state -> its view (svot.envs.view), for the current engine
        self._cache_limit = _CACHE_LIMIT if pool_size is None else _POOL_CACHE_LIMIT
        # the compiled engine is deterministic, so where a move led is remembered on the views (svot.envs.view);
        # the PDDLGym engine is the reference: every step goes through it
        self._remember_moves = engine == "grounded" and self._n_actions <= _MEMO_MAX_ACTIONS
        self._window = None  # the pygame window of render_mode="human" (svot.envs.human)
        self._steps_beyond_terminated: int | None = None  # see svot.envs.episode

    # --- actions ----------------------------------------------------------------
    def action_text(self, action: int) -> str:
        """``"move up"`` (with a distance: ``"move up 2"``) for an action index."""
        return self.dspec.action_text(self.dspec.check_action(action, self.size), self.size)

    def parse_action(self, text: str) -> int:
        """The action index for a text such as ``"move up"``, ``"up"`` or ``"move left 3"``."""
        return self.dspec.parse_action(text, self.size)

    # --- episode -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise ConfigError(f"reset options must be a dict such as {{'problem': ...}}, got {type(options).__name__}")
        options = dict(options) if options else {}
        unknown = sorted(set(options) - set(RESET_OPTIONS)) if options else ()
        if unknown:
            raise ConfigError(f"unknown reset option(s) {', '.join(map(repr, unknown))}; known: {', '.join(RESET_OPTIONS)}")
        if options and options.get("problem") is not None:
            problem = load_problem(options["problem"], self.dspec, self.pddl_domain, self.size)  # rule 1, 2 and 5
            engine = self._make_engine(problem)
            self.problem, self.plan = problem, solve_given(self.domain, problem)
            self.engine, self._cache = engine, {}
        elif self.pool_size is not None:
            self._reset_from_pool(seed)
        else:
            draw = sample(self.domain, self.size, self.split, draw_rng(self.np_random), allow_any_size=True)
            self._problem, self._drawn = None, draw
            self._plan, self._plan_due = None, True
            self.engine, self._cache = self._engine_of(draw), {}
        task = getattr(self.engine, "task", None)
        got = self._observer_of  # (task, spec, observer) of the last lookup: the observer is per task and spec
        if got is None or got[0] is not task or got[1] is not self.dspec or got[2] is not self._observer:
            self._observer = observer_for(self.dspec, self.size, task)
            self._observer_of = (task, self.dspec, self._observer)
        self._state = self.engine.initial()
        self._view = self._read(self._state)
        self._steps_beyond_terminated = None
        if self.render_mode == "human":
            self.render()
        return self._view["obs"].copy(), self._info(applicable=True)

    def step(self, action):
        # fast path for plain ints (what check_action would accept unchanged); anything else is checked
        a = action if type(action) is int and 0 <= action < self._n_actions else self.dspec.check_action(action, self.size)
        engine = self.engine
        if engine is None:
            raise gym.error.ResetNeeded("call reset() before step()")
        before = self._view
        if not self._remember_moves:
            state, applied = engine.step(self._state, self._keys[a])
        else:
            after = before.get(a)  # where this action led from this state before, if remembered (svot.envs.view)
            if after is None:
                state, applied = engine.step(self._state, self._keys[a])
                before[a] = state if applied else NOT_APPLIED
            elif type(after) is str:  # NOT_APPLIED (or an unpickled copy of it)
                state, applied = self._state, False
            else:
                state, applied = after, True
        view = self._cache.get(state) or self._new_view(state, before)
        self._state, self._view = state, view
        if self._steps_beyond_terminated is None:
            reward, terminated = view["reward"], view["terminated"]
            if terminated:
                self._steps_beyond_terminated = 0
        else:  # stepped after the end: Gymnasium's convention
            reward, terminated = past_termination(self)
        if self.render_mode == "human":
            self.render()
        # is_success: SB3 (BaseAlgorithm._update_info_buffer) reads it at episode end
        if self._lazy_keys:
            info = self._step_info(applied, view)
        else:  # _info's minimal dict, built in place (the RL configuration's hot path)
            info = {"applicable": applied, "is_success": view["goal"]}
        return view["obs"].copy(), reward, terminated, False, info

    def _step_info(self, applied: bool, view: dict) -> LazyInfo:
        """_info's LazyInfo with ``is_success`` (a method of its own: a closure in ``step`` would make its
        locals cells, slowing the minimal-info path too)."""
        engine = self.engine
        info = LazyInfo.from_template(self._step_template, lambda key: self._info_field(key, engine, view))
        info["applicable"], info["is_success"] = applied, view["goal"]
        return info

    def _reset_from_pool(self, seed: int | None) -> None:
        """Draw the episode's problem from the pool (built at the first or a seeded reset).

        Engines and their state caches are kept per pool problem, so a reset
        costs a dictionary lookup once a problem has been played.
        """
        if seed is not None or not self._pool:
            pool_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63 - 1))
            if pool_seed != self.pool_seed or not self._pool:
                self._pool = generated_pool(self.domain, self.size, self.split, pool_seed, self.pool_size)
                self._pool_engines = {}
                self.pool_seed = pool_seed
        j = int(self.np_random.integers(len(self._pool)))
        gen = self._pool[j]
        self.problem, self.plan = gen.problem, list(gen.plan)
        kept = self._pool_engines.get(j)
        if kept is None:
            kept = self._pool_engines[j] = (self._make_engine(self.problem), {})
        self.engine, self._cache = kept

    def _engine_of(self, draw):
        """The engine of a sampled problem: started from the draw's bits on the shared grounding where it has
        them (its Problem is then built when first read), else made from its Problem (``_make_engine``: the
        PDDLGym engine, or a subclass's or a test's own engine)."""
        if draw.shared is None or self.engine_kind != "grounded" or "_make_engine" in self.__dict__ or (
            type(self)._make_engine is not SVoTEnv._make_engine
        ):
            return self._make_engine(draw.problem)
        return SharedGroundedEngine.from_bits(
            draw.shared, draw.init, draw.goal_pos, draw.goal_neg, functools.partial(getattr, draw, "problem")
        )

    @property
    def problem(self) -> Problem | None:
        """The episode's PDDL problem. A problem sampled at ``reset`` is built on the first read: the same
        :class:`~svot.pddl.Problem` as ``svot.problem_gen.generate`` gives for the same Generator, the one
        ``env.engine.problem`` is."""
        if self._problem is None and self._drawn is not None:
            self._problem = self._drawn.problem
        return self._problem

    @problem.setter
    def problem(self, value: Problem | None) -> None:
        self._problem, self._drawn = value, None

    @property
    def plan(self) -> list[int] | None:
        """A goal-reaching plan of the episode's problem from its start (``None`` if it has none).

        For a sampled problem it is the plan :func:`svot.problem_gen.generate`
        returns (:func:`svot.problem_gen.planned`), computed on the first read; for a problem passed
        to ``reset`` the one :func:`svot.problem_gen.solve` finds.
        """
        if self._plan_due:
            self._plan, self._plan_due = planned(self.domain, self._drawn.generated).plan, False
        return self._plan

    @plan.setter
    def plan(self, value: list[int] | None) -> None:
        self._plan, self._plan_due = value, False

    def _make_engine(self, problem: Problem):
        return self.dspec.make_engine(problem, self.engine_kind)

    # --- reading states ----------------------------------------------------------
    def _read(self, state) -> dict:
        """The view of ``state``, from the cache or built."""
        return self._cache.get(state) or self._new_view(state)

    def _new_view(self, state, before: dict | None = None) -> dict:
        """The view of a state not in the cache (kept there while it has room).

        ``before`` is the view of the state the env stepped from: its grid is
        then updated by the atoms that changed (:class:`~svot.envs.observation.BitObserver`)
        rather than rebuilt; the state dict is built only where it is needed
        (an info field read, the spec's ``is_failure``, the observer's
        first checks).
        """
        observer = self._observer
        sd = None
        if observer is not None and observer.trusted:
            if before is not None:
                obs = observer.update(before["obs"], before["engine_state"], state)
            elif observer.undrawn:  # kinds no atom draws (edge walls): the episode's own, from the spec
                walls = self._drawn.walls if self._drawn is not None else None
                if walls is not None:  # a sampled reset's, read off its draws (no state dict)
                    static = walls.words(observer.word_bits)
                else:
                    sd = self._state_dict(state)
                    static = observer.static_grid(sd)
                obs = observer.observe(state, static)
            else:
                obs = observer.observe(state)
            if observer.to_verify > 0:
                sd = self._state_dict(state) if sd is None else sd
                if not observer.check(obs, sd, f"problem {self.problem.name!r}"):
                    obs = spec_observation(self.dspec, sd, self.size)
        else:
            sd = self._state_dict(state)
            obs = spec_observation(self.dspec, sd, self.size)
        # a failure is absorbing (absorbing in the PDDL: no agent action applies, the vector env's
        # assumption too), so the compiled engine asks the spec only in dead ends
        failed = False
        if self._tracks_failure:
            if sd is None and (self.engine_kind != "grounded" or self._dead_end(state)):
                masks = self._failure_masks()
                if masks is not None:  # the spec's failure_atoms on the state bits: no state dict needed
                    failed = any_full(state, masks)
                else:
                    sd = self._state_dict(state)
            if sd is not None:
                failed = bool(self.dspec.is_failure(sd))
        # state, state_text and atoms are built when an info field is read (svot.envs.info)
        view = new_view(state, obs, bool(self.engine.is_goal(state)), failed, sd)
        if len(self._cache) < self._cache_limit:
            self._cache[state] = view
        return view

    def _failure_masks(self) -> tuple[int, ...] | None:
        """The spec's ``failure_atoms`` as masks over the compiled engine's bits (svot.envs.failure),
        kept per grounded task; None where the state dict must answer."""
        task = getattr(self.engine, "task", None) if self.engine_kind == "grounded" else None
        if task is None or not self.dspec.failure_atoms:
            return None
        got = self._failure_of
        if got is None or got[0] is not task:
            got = self._failure_of = (task, failure_masks(self.dspec.failure_atoms, task.bit))
        return got[1]

    def _dead_end(self, state) -> bool:
        """No agent action applies in ``state``."""
        stuck = getattr(self.engine, "stuck", None)  # the compiled engine's, verdicts kept by the bits read
        if stuck is not None:
            return stuck(state, self._key_tuple)
        step = self.engine.step
        return not any(step(state, key)[1] for key in self._keys)

    def _state_dict(self, state, engine=None) -> dict:
        # a spec reads the problem's own atoms; the shared grid statics (adj, ray) are hundreds more
        engine = self.engine if engine is None else engine
        own = getattr(engine, "state_atoms", None)
        atoms = own(state) if own is not None else engine.true_atoms(state)
        return self.dspec.state_dict(atoms, self.size)

    def _current_state(self) -> dict:
        """The current state dict (built on demand under ``info_level="minimal"``, then kept in the view)."""
        sd = self._view.get("state")
        if sd is None:
            sd = self._view["state"] = self._state_dict(self._state)
        return sd

    def _info(self, applicable: bool) -> dict:
        """``{"applicable": ...}`` plus, above ``info_level="minimal"``, fields computed when read.

        The state, its text and its atoms cost several times a step; a
        :class:`~svot.envs.info.LazyInfo` builds them from the state this info
        was returned for only if the caller reads them (see :mod:`svot.envs.info`).
        """
        if self._lazy_keys:
            engine, view = self.engine, self._view
            fill = lambda key: self._info_field(key, engine, view)  # noqa: E731
            info = LazyInfo.from_template(self._info_template, fill)
            info["applicable"] = bool(applicable)
            return info
        return {"applicable": bool(applicable)}

    def _info_field(self, key: str, engine, view: dict):
        """One lazily built info field of ``view``'s state (a fresh copy the caller owns; the view keeps the original)."""
        state = view["engine_state"]
        sd = view.get("state")
        if sd is None:
            sd = view["state"] = self._state_dict(state, engine)
        if key == "state":
            blob = view.get("state_blob")
            if blob is None:
                try:  # marshal.loads makes a deep copy fastest
                    blob = view["state_blob"] = marshal.dumps(sd)
                except ValueError:  # a value marshal cannot write
                    return _copy_state(sd)
            return marshal.loads(blob)
        if key == "state_text":
            text = view.get("state_text")
            if text is None:
                text = view["state_text"] = describe(self.dspec, sd)
            return text
        if key == "atoms":
            atoms = view.get("atoms")
            if atoms is None:
                strings = getattr(engine, "atom_strings", None)  # the same sorted strings, faster
                atoms = view["atoms"] = (
                    strings(state) if strings is not None else sorted("(" + " ".join(a) + ")" for a in engine.true_atoms(state))
                )
            return list(atoms)
        raise KeyError(key)

    @property
    def state(self) -> dict:
        """The current state dict (a copy)."""
        return _copy_state(self._current_state())

    # --- rendering -----------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='rgb_array' or 'ansi' to make()")
            return None
        if self.engine is None:
            raise gym.error.ResetNeeded("call reset() before render()")
        if self.render_mode == "ansi":
            return render_ansi(self.dspec, self._current_state())
        frame = render_state(self.dspec, self._current_state(), self.image_size)
        if self.render_mode == "human":
            if self._window is None:
                title = self.spec.id if self.spec is not None else f"SVoT {self.dspec.title} {self.size}x{self.size}"
                self._window = HumanWindow(title, self.metadata.get("render_fps"))
            self._window.show(frame)
            return None
        return frame

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None
        super().close()


def _copy_state(state: dict) -> dict:
    """A deep copy of a JSON-like state dict (lists and dicts of ints and strings)."""
    out = {}
    for k, v in state.items():
        if isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else x for x in v]
        elif isinstance(v, dict):
            out[k] = {kk: ([list(x) for x in vv] if isinstance(vv, list) else vv) for kk, vv in v.items()}
        else:
            out[k] = v
    return out
