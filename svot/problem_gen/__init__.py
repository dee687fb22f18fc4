"""Problem samplers for the five SVoT domains, with Table 5's parameters.

``generate(domain, size, split, rng)`` draws one solvable problem and a plan
that reaches its goal::

    import numpy as np
    from svot.problem_gen import generate
    g = generate("sokoban", 6, "ood", np.random.default_rng(0))
    g.problem.to_pddl(); g.plan; g.state; g.params

All randomness comes from the ``numpy.random.Generator`` passed in, so the same
seed gives the same problems in any process, whatever ``PYTHONHASHSEED``.
``PARAMS`` holds Table 5's sampling parameters (ID and OOD values) as data.
``solve(domain, problem_or_state)`` returns a shortest plan: breadth-first
search on the grounded engine for Maze, FrozenLake and Sokoban, and
:mod:`~svot.problem_gen.optimal` for Pacman and Gather (``greedy=True`` gives
their faster greedy collection plans, which are not always shortest).
``Generated.plan_optimal`` records whether a generated plan is a shortest one.

How each domain is sampled and checked is documented in its module:
:mod:`~svot.domains.maze.generator`, :mod:`~svot.domains.frozenlake.generator`,
:mod:`~svot.domains.sokoban.generator`, :mod:`~svot.domains.pacman.generator`,
:mod:`~svot.domains.gather.generator`.
"""

from __future__ import annotations


import numpy as np

from svot.domains import get_spec
from svot.errors import ConfigError, ProblemError
from svot.pddl import Problem
from svot.domains.frozenlake import generator as frozenlake
from svot.domains.gather import generator as gather
from svot.domains.maze import generator as maze
from svot.domains.pacman import generator as pacman
from svot.domains.sokoban import generator as sokoban
from svot.problem_gen.optimal import gather_plan, pacman_plan
from svot.problem_gen.common import (
    DOMAINS,
    PARAMS,
    SPLITS,
    Generated,
    check_args,
    check_rng,
    count_for,
    problem_name,
    shared_grounding,
)

_MODULES = {
    "maze": maze,
    "frozenlake": frozenlake,
    "sokoban": sokoban,
    "pacman": pacman,
    "gather": gather,
}


def register_generator(domain: str, module, *, sizes: tuple[int, ...]) -> None:
    """Add a sampler for a new domain.

    ``module`` is any object with ``generate(size, split, rng) -> Generated``
    (and optionally ``sampling_params(size, split)``), like the modules here;
    ``sizes`` are the domain's nominal sizes.
    """
    key = str(domain).lower()
    if not callable(getattr(module, "generate", None)):
        raise ConfigError(f"generator for {domain!r} has no generate(size, split, rng) function")
    PARAMS[key] = {"sizes": tuple(sizes)}
    _MODULES[key] = module


def generate(
    domain: str, size: int, split: str, rng: np.random.Generator, *, allow_any_size: bool = False, plan: bool = True
) -> Generated:
    """One solvable problem of ``domain`` at ``size`` × ``size`` with ``split`` ("id"/"ood") parameters.

    ``plan=False`` lets a domain whose layouts are solvable without a search
    (FrozenLake: the sampler's path check; Pacman, Gather: every layout) skip
    planning: its ``Generated.plan`` is then ``None`` (:func:`solve` gives the
    same plan later). The problem, and the draws taken from ``rng``, are the same
    either way. Maze and Sokoban, whose solvability *is* the search, always plan.

    Raises :class:`~svot.errors.ConfigError` for an unknown domain, split, or a
    size outside Table 5 (unless ``allow_any_size=True``; sizes below 2 never).
    """
    domain, size, split = check_args(domain, size, split, allow_any_size)
    check_rng(rng)
    module = _MODULES[domain]
    if not plan and getattr(module, "PLAN_OPTIONAL", False):
        return module.generate(size, split, rng, plan=False)
    return module.generate(size, split, rng)


def sampling_params(domain: str, size: int, split: str, *, allow_any_size: bool = False) -> dict:
    """The fixed parameters ``generate`` uses (densities, counts; Sokoban's block range)."""
    domain, size, split = check_args(domain, size, split, allow_any_size)
    return _MODULES[domain].sampling_params(size, split)


def solve(
    domain: str,
    problem_or_state: Problem | dict,
    *,
    max_states: int = 1_000_000,
    prune: bool = True,
    greedy: bool = False,
) -> list[int] | None:
    """A goal-reaching plan (agent action ints) from a problem or a state dict, or None.

    Maze, FrozenLake, Sokoban: a shortest plan by breadth-first search on the
    grounded engine (actions tried in index order), None when the goal is
    unreachable or more than ``max_states`` states would be needed. Sokoban's
    search skips provably dead states unless ``prune=False`` (same plan either
    way). FrozenLake never plans through a hole; from a state already in a hole
    there is no plan. Pacman, Gather: a shortest plan (in agent actions) from
    :mod:`svot.problem_gen.optimal`, None past its limits (more than
    ``optimal.MAX_ITEMS`` coins; more than ``max_states`` Gather search states);
    with ``greedy=True`` their modules' greedy plan instead (never None, not
    necessarily shortest).
    """
    spec = get_spec(domain)
    if spec.name not in _MODULES:
        raise ConfigError(f"no solver for domain {domain!r}; choose one of {', '.join(DOMAINS)}")
    if isinstance(problem_or_state, Problem):
        problem = problem_or_state
        if problem.domain != spec.name:
            raise ProblemError(f"problem {problem.name!r} is for domain {problem.domain!r}, not {spec.name!r}")
        size = spec.size_of(problem)
        state = spec.state_dict(problem.init, size)
    elif isinstance(problem_or_state, dict):
        state = problem_or_state
        if state.get("domain", spec.name) != spec.name:
            raise ProblemError(f"state is for domain {state.get('domain')!r}, not {spec.name!r}")
        try:
            size = int(state["size"])
            problem = spec.problem_from_state(state, f"{spec.name}-{size}x{size}-solve")
        except KeyError as exc:
            raise ProblemError(f"{spec.name} state has no {exc.args[0]!r} field") from None
    else:
        raise ConfigError(f"solve() takes a svot.pddl.Problem or a state dict, got {type(problem_or_state).__name__}")
    if spec.name == "maze":
        grounding = shared_grounding("maze", size)
        bound = grounding.bind(problem)
        return grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg, max_states=max_states).plan
    if spec.name == "frozenlake":
        return frozenlake.bfs_plan(problem, size, max_states=max_states)
    if spec.name == "sokoban":
        return sokoban.search(problem, state, prune=prune, max_states=max_states).plan
    if spec.name == "pacman":
        coins = state["coins"]
        player = tuple(state["player"])
        return pacman.greedy_plan(size, player, coins) if greedy else pacman_plan(size, player, coins)
    balls = [b for where in state["balls"].values() for b in where]
    player = tuple(state["player"])
    if greedy:
        return gather.greedy_plan(size, player, balls)
    return gather_plan(size, player, balls, max_states=max_states)


__all__ = [
    "DOMAINS",
    "register_generator",
    "PARAMS",
    "SPLITS",
    "Generated",
    "count_for",
    "generate",
    "problem_name",
    "sampling_params",
    "solve",
]
