"""Problem samplers for the SVoT domains, with Table 5's parameters.

Each domain's generator has one entry, ``sample(size, split, rng) -> Draw`` (:func:`sample`): the
initial state as bits, the sampling parameters, the Problem built when first read.
``generate(domain, size, split, rng)`` is that draw's problem with a plan that reaches its goal.
``domain`` is a domain object (:class:`~svot.kernel.GridDomain`: its spec, sampler and solver);
this layer looks no name up. The registry gives it by name, and :func:`svot.domains.generate`
(``solve``, ``sampling_params``, ``PARAMS``) takes the name::

    import numpy as np
    from svot import problem_gen
    from svot.domains import DOMAINS, generate, get_domain
    g = generate(DOMAINS[0], 6, "ood", np.random.default_rng(0))                          # by name
    g = problem_gen.generate(get_domain(DOMAINS[0]), 6, "ood", np.random.default_rng(0))  # the same
    g.problem.to_pddl(); g.plan; g.state; g.params

All randomness comes from the ``numpy.random.Generator`` passed in, so the same
seed gives the same problems in any process, whatever ``PYTHONHASHSEED``. A sampler may draw
ahead of the layout it keeps (a batch screened at once), so an env draws each problem from its own
child Generator (:func:`draw_rng`): nothing is rewound or carried from one problem to the next.
Table 5's sampling parameters (ID and OOD values) are each spec's ``table5`` with its
``sizes`` (:data:`svot.domains.PARAMS` reads them by name).
``solve(domain, problem_or_state)`` returns a plan: the domain's solver
(``GridDomain.solver``) if it has one, otherwise a shortest plan by
breadth-first search on the grounded engine, which works for any domain,
including one registered from outside. ``Generated.plan_optimal`` records
whether a generated plan is a shortest one.

Nothing here is any one domain's: each domain's folder ``svot/domains/<name>/``
holds its sampler (``generator.py``), its Table 5 row (``table5.py``) and, where it has one,
its solver (``solver.py``), bound into its domain object in its ``__init__.py``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from svot.engine import bfs_plan
from svot.errors import ConfigError, ProblemError
from svot.kernel import DomainSpec, GridDomain
from svot.pddl import Problem, load_domain
from svot.problem_gen.common import (
    SPLITS,
    Draw,
    Generated,
    check_args,
    check_domain,
    check_rng,
    count_for,
    draw_rng,
    problem_name,
)
from svot.problem_gen.grounding import shared_grounding


def sample(domain: GridDomain, size: int, split: str, rng: np.random.Generator, *, allow_any_size: bool = False) -> Draw:
    """One solvable layout of ``domain`` at ``size`` × ``size`` with ``split`` ("id"/"ood") parameters, as a
    :class:`Draw`: its initial state as bits, its sampling parameters, its Problem built when first read.

    All randomness comes from ``rng``, which the sampler may draw ahead of what it keeps (a batch of
    layouts screened at once): draw each problem from its own Generator (:func:`draw_rng`).
    Raises :class:`~svot.errors.ConfigError` for an unknown domain, split, or a size outside Table 5
    (unless ``allow_any_size=True``; sizes below 2 never).
    """
    domain, size, split = check_args(domain, size, split, allow_any_size)
    check_rng(rng)
    return domain.sampler.sample(size, split, rng)


def generate(
    domain: GridDomain, size: int, split: str, rng: np.random.Generator, *, allow_any_size: bool = False, plan: bool = True
) -> Generated:
    """:func:`sample`'s problem, checked and packaged as :class:`Generated`, with a goal-reaching plan.

    ``plan=False`` lets a domain whose layouts are solvable without a search
    (``DomainSpec.plan_optional``: e.g. a cheaper path check, every
    layout solvable by construction, or a search asked only for its verdict) skip
    planning: its ``Generated.plan`` is then ``None`` unless the sampler found one on the way
    (:func:`solve` gives the same plan later). The problem, and the draws taken
    from ``rng``, are the same either way. Other domains, whose solvability
    *is* the search, always plan.
    """
    draw = sample(domain, size, split, rng, allow_any_size=allow_any_size)
    if plan or not domain.spec.plan_optional:
        return planned(domain, draw.generated)
    return draw.generated


def planned(domain: GridDomain, gen: Generated) -> Generated:
    """``gen`` (one of ``domain``'s) with a plan: its own, else the sampler's ``plan(gen)`` where it defines one
    (a plan that may be greedy past an optimal solver's limits), else :func:`solve`'s shortest plan; replayed
    on the engine."""
    if gen.plan is not None:
        return gen
    planner = getattr(check_domain(domain).sampler, "plan", None)
    steps, optimal = planner(gen) if planner is not None else (solve(domain, gen.problem), True)
    if steps is None:
        raise ProblemError(f"{gen.problem.name}: the sampler kept a layout its planner finds no plan for")
    if load_domain(domain.spec.pddl).unsupported is None:  # on the compiled engine: replayed there
        shared_grounding(domain.spec, gen.size).bind(gen.problem).replay(steps)
    return dataclasses.replace(gen, plan=[int(a) for a in steps], plan_optimal=bool(optimal))


def sampling_params(domain: GridDomain, size: int, split: str, *, allow_any_size: bool = False) -> dict:
    """The fixed parameters ``generate`` uses (densities, counts, e.g. a block-count range).

    ``{}`` for a registered generator without ``sampling_params`` (it is optional there).
    """
    domain, size, split = check_args(domain, size, split, allow_any_size)
    generator = domain.sampler
    if not hasattr(generator, "sampling_params"):
        return {}
    return generator.sampling_params(size, split)


def solve(
    domain: GridDomain,
    problem_or_state: Problem | dict,
    *,
    max_states: int = 1_000_000,
    prune: bool = True,
    greedy: bool = False,
) -> list[int] | None:
    """A goal-reaching plan (agent action ints) from a problem or a state dict, or None.

    Any registered domain can be solved. By default the plan is a shortest one
    by breadth-first search on the grounded engine (:func:`breadth_first_plan`:
    actions tried in index order), None when the goal is unreachable or more
    than ``max_states`` states would be needed; a state the PDDL makes
    absorbing (e.g. a hole) has no plan through it. A domain may name its
    own solver (``GridDomain.solver``, its ``solver.py``), which gets
    the same options: ``prune=False`` turns off a solver's skipping of provably
    dead states (e.g. stuck blocks; the plan is the same either way), ``greedy=True`` asks
    for a solver's faster plan that is not always shortest (for collect-everything
    domains: never None), and ``max_states`` caps its search (None past it).
    """
    spec = check_domain(domain).spec
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
    solver = domain.solver
    if solver is None:
        return breadth_first_plan(spec, problem, size, max_states=max_states)
    return solver.solve(problem, state, max_states=max_states, prune=prune, greedy=greedy)


def plan_length_floor(domain: GridDomain, state: dict) -> int:
    """A lower bound on the length of a shortest goal-reaching plan from ``state``, cheap next to the
    plan itself: the domain solver's ``plan_length_floor(state)`` where its ``solver.py`` defines one,
    else 0 (no bound known). A caller that only keeps short plans can reject a draw on it unplanned."""
    floor = getattr(check_domain(domain).solver, "plan_length_floor", None)
    return 0 if floor is None else int(floor(state))


def has_plan_length_floor(domain: GridDomain) -> bool:
    """Whether :func:`plan_length_floor` knows a bound for ``domain`` (its solver defines one)."""
    return hasattr(check_domain(domain).solver, "plan_length_floor")


def breadth_first_plan(spec: DomainSpec, problem: Problem, size: int, *, max_states: int = 1_000_000) -> list[int] | None:
    """A shortest plan by breadth-first search on the engine (actions in index order), or None.

    The default solver. On the grounding every problem of the size shares when
    the compiled engine runs the domain; otherwise (PDDL beyond it, stepped by
    PDDLGym) the same search on the spec's engine.
    """
    if load_domain(spec.pddl).unsupported is None:
        grounding = shared_grounding(spec, size)
        bound = grounding.bind(problem)
        return grounding.stepper.bfs(bound.init, bound.goal_pos, bound.goal_neg, max_states=max_states).plan
    engine = spec.make_engine(problem)
    keys = [spec.action_key(a, size) for a in range(spec.n_actions(size))]
    actions = list(range(len(keys)))
    return bfs_plan(engine.initial(), lambda s, a: engine.step(s, keys[a]), actions, engine.is_goal, max_states=max_states)


__all__ = [
    "Draw",
    "breadth_first_plan",
    "draw_rng",
    "planned",
    "sample",
    "SPLITS",
    "Generated",
    "count_for",
    "generate",
    "has_plan_length_floor",
    "plan_length_floor",
    "problem_name",
    "sampling_params",
    "solve",
]
