"""What every problem sampler shares: argument checks, counts, names, the draw and the checked result.

A generator's ``sample(size, split, rng)`` returns a :class:`Draw`; :func:`finish` builds a sampled
layout's problem, checks that its state dict reads back as sampled and that the plan reaches the goal
on the shared grounding (:mod:`svot.problem_gen.grounding`), and packages it as :class:`Generated`.
:func:`draw_rng` is the one place that says which Generator a seeded reset draws from. Cell helpers
are in :mod:`svot.problem_gen.cells`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np

from svot.kernel import DomainSpec, GridDomain
from svot.errors import ConfigError, ProblemError
from svot.pddl import Problem, load_domain
from svot.problem_gen.grounding import shared_grounding  # finish() replays plans on it

SPLITS = ("id", "ood")



@dataclass(frozen=True)
class Generated:
    """One sampled, solvable problem with a goal-reaching plan.

    ``state`` is the initial state dict exactly as ``spec.state_dict`` reads it
    from ``problem.init``; ``plan`` is a list of agent action ints (the env's
    ``Discrete`` actions) verified to reach the goal in the grounded engine
    (``None`` when ``generate(..., plan=False)`` skipped planning);
    ``plan_optimal`` says whether ``plan`` is a shortest plan (breadth-first
    search, or the domain's solver: ``GridDomain.solver``); it is
    False only for a greedy fallback beyond the optimal solvers' limits.
    ``params`` holds the sampling parameters actually used (densities, counts,
    and ``attempts``: how many layouts were drawn until this one was kept;
    e.g. boards drawn until one is solvable, colourings drawn, or always 1).
    The last dash-separated part of ``problem.name`` is a digest of the layout
    alone (not the split): equal layouts in two splits share it.
    """

    domain: str
    size: int
    split: str
    state: dict
    problem: Problem
    plan: list | None
    params: dict = field(default_factory=dict)
    plan_optimal: bool = True


@dataclass(frozen=True, eq=False)
class Draw:
    """One sampled, solvable layout: what a generator's ``sample(size, split, rng)`` returns.

    ``params``: the sampling parameters used (``attempts`` included: how many layouts were drawn until
    this one was kept). ``init``, ``goal_pos``, ``goal_neg``: the problem's initial state and goal masks as
    bits over ``shared``, the size's shared grounding (:meth:`svot.problem_gen.grounding.SearchGrounding.bind`
    reads the same off the Problem), which the env's engine starts from
    (:meth:`svot.engine.grounded.SharedGroundedEngine.from_bits`); ``shared`` is None where a sampler
    gives no bits (the engine is then built from :attr:`problem`). ``walls``: the observation grid of the
    kinds no atom draws (edge walls, :class:`svot.domains.passages.EdgeWalls`), or None.

    The Problem costs several times the draws, so it is built on first use: :attr:`generated` is
    ``build()``, the checked :class:`Generated` (with the plan where the sampler's solvability check
    found one, else ``plan=None``), built once; :attr:`problem` is its problem.
    """

    domain: str
    size: int
    split: str
    params: dict
    build: Callable[[], "Generated"]
    init: int = 0
    goal_pos: int = 0
    goal_neg: int = 0
    shared: Any = None
    walls: Any = None

    @functools.cached_property
    def generated(self) -> "Generated":
        return self.build()

    @property
    def problem(self) -> Problem:
        return self.generated.problem


def draw_rng(np_random: np.random.Generator) -> np.random.Generator:
    """The Generator one problem is drawn from: the next child of ``np_random`` (``np_random.spawn(1)[0]``).

    An env's ``reset`` draws each problem from a fresh child of ``env.np_random``, so a sampler may draw
    a batch ahead and throw away what it does not use: the next problem does not depend on it. The
    ``k``-th reset after ``reset(seed=s)`` draws from the ``k``-th child of Gymnasium's ``np_random(s)``
    (``Generator(PCG64(SeedSequence(s)))``, which is ``numpy.random.default_rng(s)``), so
    ``gym.make(id).reset(seed=s)``'s problem is ``generate(domain, size, split, draw_rng(default_rng(s)))``'s.
    """
    return np_random.spawn(1)[0]


# --- arguments -------------------------------------------------------------------
def check_domain(domain: Any) -> GridDomain:
    """``domain`` if it is a domain object; this layer takes no names (the registry answers them)."""
    if not isinstance(domain, GridDomain):
        raise ConfigError(
            f"svot.problem_gen takes a domain object, got {domain!r}: svot.domains.get_domain(name) gives it "
            "(or call svot.domains.generate / solve / sampling_params with the name)"
        )
    return domain


def check_args(domain: Any, size: Any, split: Any, allow_any_size: bool = False) -> tuple[GridDomain, int, str]:
    key, sizes = check_domain(domain).name, tuple(domain.spec.sizes)
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)):
        raise ConfigError(f"{key} size must be an int, got {size!r}; Table 5 sizes are {', '.join(map(str, sizes))}")
    size = int(size)
    if size < 2 or (not allow_any_size and size not in sizes):
        extra = "" if allow_any_size else " (pass allow_any_size=True for other sizes >= 2)"
        raise ConfigError(f"{key} has no size {size}; Table 5 sizes are {', '.join(map(str, sizes))}{extra}")
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return domain, size, split


def check_rng(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ConfigError(
            f"rng must be a numpy.random.Generator (e.g. numpy.random.default_rng(seed)), got {type(rng).__name__}"
        )
    return rng


def nearest_table_size(spec: DomainSpec, size: int) -> int:
    """The Table 5 size whose per-size parameters a non-Table size borrows."""
    sizes = spec.sizes
    return min(sizes, key=lambda s: (abs(s - size), -s))


@functools.lru_cache(maxsize=None)
def count_for(density: float, cells: int) -> int:
    """``round(density * cells)``, halves rounded up, computed exactly.

    The density is read as the decimal it is written as (0.3 is 3/10, not the
    binary float just below it), so 0.3 × 25 = 7.5 → 8 and 0.5 × 49 = 24.5 → 25.
    """
    exact = Fraction(str(density)) * cells
    return int(math.floor(exact + Fraction(1, 2)))


# --- names --------------------------------------------------------------------
# json.dumps(layout, sort_keys=True, separators=(",", ":")) builds an encoder per call; one kept
# encoder writes the very same text (json's C encoder where the build has it)
_LAYOUT_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_C_ENCODE = (
    None
    if json.encoder.c_make_encoder is None
    else json.encoder.c_make_encoder(
        None, _LAYOUT_JSON.default, json.encoder.encode_basestring_ascii, None, ":", ",", True, False, True
    )
)


def layout_json(layout: dict) -> str:
    """``json.dumps(layout, sort_keys=True, separators=(",", ":"))``, the text the digest hashes."""
    if _C_ENCODE is None:
        return _LAYOUT_JSON.encode(layout)
    return "".join(_C_ENCODE(layout, 0))


def layout_digest(layout: dict) -> str:
    return hashlib.sha256(layout_json(layout).encode()).hexdigest()[:12]


def problem_name(domain: str, size: int, split: str, layout: dict) -> str:
    """``<domain>-<N>x<N>-<split>-<first 12 hex digits of sha256(layout JSON)>``."""
    return f"{domain}-{size}x{size}-{split}-{layout_digest(layout)}"


def finish(
    spec: DomainSpec,
    size: int,
    split: str,
    layout: dict,
    plan: list[int] | None,
    params: dict,
    problem: Problem | None = None,
    plan_optimal: bool = True,
) -> Generated:
    """Build the problem from ``layout``, check the state dict and the plan (if any), and package them."""
    if problem is None:
        problem = spec.problem_from_state(layout, problem_name(spec.name, size, split, layout))
    state = spec.state_dict(own_atoms(spec, problem, size), size)
    for key, value in layout.items():
        if state.get(key) != value:
            raise ProblemError(
                f"{problem.name}: state dict field {key!r} read back from the atoms is {state.get(key)!r}, "
                f"the sampled layout says {value!r}"
            )
    if plan is not None:
        shared_grounding(spec, size).bind(problem).replay(plan)
    return Generated(
        domain=spec.name,
        size=size,
        split=split,
        state=state,
        problem=problem,
        plan=None if plan is None else [int(a) for a in plan],
        params=params,
        plan_optimal=bool(plan_optimal),
    )


def own_atoms(spec: DomainSpec, problem: Problem, size: int):
    """What ``spec.state_dict`` reads of ``problem.init``: all of it, less the grid statics where the compiled
    engine runs the domain (a state dict reads only a problem's own atoms, :meth:`DomainSpec.state_dict`)."""
    if _compiled(spec.pddl):
        return shared_grounding(spec, size).own_atoms(problem)
    return problem.init


@functools.lru_cache(maxsize=None)
def _compiled(pddl: str) -> bool:
    return load_domain(pddl).unsupported is None


MAX_ATTEMPTS = 100_000


def attempts_exhausted(domain: str, size: int, split: str, attempts: int) -> ProblemError:
    return ProblemError(
        f"no solvable {domain} {size}x{size} {split} layout found in {attempts} attempts; "
        "the parameters leave too little room on this grid"
    )


def finish_connected(spec: DomainSpec, size: int, split: str, layout: dict, params: dict, plan: bool) -> Generated:
    """Package a layout that is solvable by construction (a connected walled grid): no attempt is rejected.

    ``plan``: a shortest plan by breadth-first search on the shared grounding (actions tried in
    index order); False leaves it for the caller to ask for later (``plan_optional`` domains).
    """
    problem = spec.problem_from_state(layout, problem_name(spec.name, size, split, layout))
    steps = None
    if plan:
        grounding = shared_grounding(spec, size)
        bound = grounding.bind(problem)
        steps = grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg).plan
    return finish(spec, size, split, layout, steps, {**params, "attempts": 1}, problem)
