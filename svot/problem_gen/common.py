"""What every problem sampler shares: argument checks, counts, names, and search.

Search and plan verification run on ground actions from the grounded engine
(:class:`svot.engine.GroundTask`); nothing here knows a domain's rules. To avoid
grounding every sampled layout from scratch (about 6 ms for a 6×6 Sokoban, 16 ms
for a 6×6 Gather), :class:`SearchGrounding` grounds one *template* problem per
(domain, size) with only the size-dependent static predicates folded away
(``adj``, Gather's ``ray``): walls, holes, goals... then stay as fluent bits that
no action changes, which is exactly what ``GroundTask(fold=...)`` is for. A
concrete problem is then just an initial bitset and goal masks over that
grounding. ``tests/problem_gen`` checks step for step that this agrees with a
per-problem :class:`svot.engine.GroundedEngine`. The search itself is the
engine's (:class:`svot.engine.search.SearchStepper`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Sequence

import numpy as np

from svot.domains import get_spec
from svot.domains.base import DomainSpec
from svot.domains.grid import DELTAS, DIRECTIONS, Cell, inside
from svot.engine.grounded import shared_grounding as engine_grounding
from svot.engine.search import SearchStepper, atoms_mask
from svot.errors import ConfigError, ProblemError
from svot.pddl import Problem, load_domain
from svot.problem_gen import registry

SPLITS = ("id", "ood")

# Table 5's sampling parameters are each domain's (``spec.table5``); PARAMS is a read-only view of them.
PARAMS = registry.PARAMS
DOMAINS = registry.DOMAINS


@dataclass(frozen=True)
class Generated:
    """One sampled, solvable problem with a goal-reaching plan.

    ``state`` is the initial state dict exactly as ``spec.state_dict`` reads it
    from ``problem.init``; ``plan`` is a list of agent action ints (the env's
    ``Discrete`` actions) verified to reach the goal in the grounded engine
    (``None`` when ``generate(..., plan=False)`` skipped planning);
    ``plan_optimal`` says whether ``plan`` is a shortest plan (breadth-first
    search, or the domain's solver: ``DomainSpec.solver_module``); it is
    False only for a greedy fallback beyond the optimal solvers' limits.
    ``params`` holds the sampling parameters actually used (densities, counts,
    and ``attempts``: how many layouts were drawn until this one was kept;
    FrozenLake: boards drawn, Gather: colourings drawn, Pacman: always 1).
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


# --- arguments -------------------------------------------------------------------
def check_args(domain: str, size: Any, split: Any, allow_any_size: bool = False) -> tuple[str, int, str]:
    key = str(domain).lower()
    if not registry.is_known(key):
        raise ConfigError(f"unknown domain {domain!r}; choose one of {', '.join(registry.domains())}")
    sizes = registry.sizes(key)
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)):
        raise ConfigError(f"{key} size must be an int, got {size!r}; Table 5 sizes are {', '.join(map(str, sizes))}")
    size = int(size)
    if size < 2 or (not allow_any_size and size not in sizes):
        extra = "" if allow_any_size else " (pass allow_any_size=True for other sizes >= 2)"
        raise ConfigError(f"{key} has no size {size}; Table 5 sizes are {', '.join(map(str, sizes))}{extra}")
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return key, size, split


def check_rng(rng: Any) -> np.random.Generator:
    if not isinstance(rng, np.random.Generator):
        raise ConfigError(
            f"rng must be a numpy.random.Generator (e.g. numpy.random.default_rng(seed)), got {type(rng).__name__}"
        )
    return rng


def nearest_table_size(domain: str, size: int) -> int:
    """The Table 5 size whose per-size parameters a non-Table size borrows."""
    sizes = registry.sizes(domain)
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
def layout_digest(layout: dict) -> str:
    text = json.dumps(layout, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def problem_name(domain: str, size: int, split: str, layout: dict) -> str:
    """``<domain>-<N>x<N>-<split>-<first 12 hex digits of sha256(layout JSON)>``."""
    return f"{domain}-{size}x{size}-{split}-{layout_digest(layout)}"


def index_cell(index: int, size: int) -> Cell:
    return (int(index) // size, int(index) % size)


def cells_list(cells: Iterable[Cell]) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in sorted(cells)]


# --- grid geometry used by samplers (never by the solvability search) ---------------
def cell_bfs(size: int, start: Cell, blocked: frozenset | set = frozenset()) -> dict[Cell, tuple[int, Cell | None, int | None]]:
    """Distances over free cells with single-cell moves: cell → (dist, parent, action).

    Neighbours are tried in action order (up, down, left, right), so parents and
    paths are deterministic.
    """
    neighbours = _cell_neighbours(size)
    out: dict[Cell, tuple[int, Cell | None, int | None]] = {start: (0, None, None)}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        d = out[cur][0] + 1
        for a, nxt in neighbours[cur]:
            if nxt not in out and nxt not in blocked:
                out[nxt] = (d, cur, a)
                queue.append(nxt)
    return out


@functools.lru_cache(maxsize=None)
def _cell_neighbours(size: int) -> dict[Cell, tuple[tuple[int, Cell], ...]]:
    """cell → ((action, neighbour) inside the grid, in action order): the geometry once per size."""
    out = {}
    for r in range(size):
        for c in range(size):
            nbrs = []
            for a, name in enumerate(DIRECTIONS):
                dr, dc = DELTAS[name]
                nxt = (r + dr, c + dc)
                if inside(nxt, size):
                    nbrs.append((a, nxt))
            out[(r, c)] = tuple(nbrs)
    return out


def path_actions(tree: dict, target: Cell) -> list[int]:
    actions = []
    cur = target
    while tree[cur][1] is not None:
        actions.append(tree[cur][2])
        cur = tree[cur][1]
    return actions[::-1]


# --- the grounded engine, shared per (domain, size) --------------------------------
class SearchGrounding:
    """Search over the :class:`GroundTask` every problem of a (domain, size) shares.

    The task is :func:`svot.engine.grounded.shared_grounding`'s: only the static
    predicates that :meth:`DomainSpec.base_atoms` writes (they depend on the size
    alone) are folded; every other predicate is grounded over all its
    type-correct arguments, so any layout of that size is a bitset here. This
    class adds the search (:class:`SearchStepper`, by agent action index) and problem binding.
    """

    def __init__(self, spec: DomainSpec, size: int):
        self.spec = spec
        self.size = size
        self.domain = load_domain(spec.pddl)
        shared_static = [a for a in spec.base_atoms(size) if a[0] in self.domain.static_predicates]
        # the very GroundTask the envs and the dataset step on (one grounding per process, not two)
        self.shared = engine_grounding(self.domain, spec.base_objects(size), shared_static, spec.internal)
        self.task = self.shared.task
        self.fold = self.task.fold
        self.static_atoms = self.task.static_atoms
        keys = [spec.action_key(a, size) for a in range(spec.n_actions(size))]
        self.stepper = SearchStepper(self.shared, keys)

    def bind(self, problem: Problem) -> "Bound":
        """The problem's initial bitset and goal masks over this grounding."""
        # the problem's own atoms: its init less the grid's statics, which it must all have, and no other
        init_atoms = problem.init if isinstance(problem.init, frozenset) else frozenset(problem.init)
        own = init_atoms - self.static_atoms
        if len(init_atoms) - len(own) != len(self.static_atoms) or any(a[0] in self.fold for a in own):
            raise ProblemError(
                f"problem {problem.name!r} does not have the static {'/'.join(sorted(self.fold))} atoms of a "
                f"{self.size}x{self.size} {self.spec.name} grid"
            )
        bit = self.task.bit
        try:
            init = atoms_mask(bit, own)
            goal_pos = atoms_mask(bit, problem.goal)
            goal_neg = atoms_mask(bit, problem.negative_goal)
        except KeyError as exc:
            raise ProblemError(f"problem {problem.name!r} has an atom outside the {self.spec.name} domain: {exc}") from None
        return Bound(self, problem, init, goal_pos, goal_neg)


@functools.lru_cache(maxsize=None)
def shared_grounding(domain: str, size: int) -> SearchGrounding:
    """The process's :class:`SearchGrounding` of a (domain, size) (cached)."""
    return SearchGrounding(get_spec(domain), size)


@dataclass(frozen=True)
class Bound:
    """A problem on a :class:`SearchGrounding`: initial bitset and goal masks."""

    grounding: SearchGrounding
    problem: Problem
    init: int
    goal_pos: int
    goal_neg: int

    def is_goal(self, s: int) -> bool:
        return s & self.goal_pos == self.goal_pos and not s & self.goal_neg

    def atoms(self, s: int) -> frozenset:
        return self.grounding.task.true_atoms(s)

    def state_dict(self, s: int) -> dict:
        return self.grounding.spec.state_dict(self.atoms(s), self.grounding.size)

    def bit(self, atom: tuple) -> int:
        return self.grounding.task.bit[atom]

    def replay(self, plan: Sequence[int]) -> int:
        """Replay ``plan``; raise :class:`ProblemError` unless every action applies and the goal is reached."""
        s = self.init
        stepper = self.grounding.stepper
        for i, a in enumerate(plan):
            if not 0 <= a < len(stepper.keys):
                raise ProblemError(f"plan step {i}: action {a} out of range for {self.problem.name}")
            s, applied = stepper.step(s, a)
            if not applied:
                raise ProblemError(f"plan step {i}: action {a} does not apply in {self.problem.name}")
        if not self.is_goal(s):
            raise ProblemError(f"plan of {len(plan)} actions does not reach the goal of {self.problem.name}")
        return s


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
    state = spec.state_dict(problem.init, size)
    for key, value in layout.items():
        if state.get(key) != value:
            raise ProblemError(
                f"{problem.name}: state dict field {key!r} read back from the atoms is {state.get(key)!r}, "
                f"the sampled layout says {value!r}"
            )
    if plan is not None:
        shared_grounding(spec.name, size).bind(problem).replay(plan)
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


MAX_ATTEMPTS = 100_000


def attempts_exhausted(domain: str, size: int, split: str, attempts: int) -> ProblemError:
    return ProblemError(
        f"no solvable {domain} {size}x{size} {split} layout found in {attempts} attempts; "
        "the parameters leave too little room on this grid"
    )
