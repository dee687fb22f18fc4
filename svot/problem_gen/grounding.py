"""The grounding every problem of a (domain, size) shares, for search and plan checks.

Search and plan verification run on ground actions from the grounded engine
(:class:`svot.engine.GroundTask`); nothing here knows a domain's rules. To avoid
grounding every sampled layout from scratch (about 6 ms to 16 ms for a 6×6
built-in domain), :class:`SearchGrounding` grounds one *template* problem per
(domain, size) with only the size-dependent static predicates folded away
(``adj``, or a domain's own, e.g. a ``ray`` of cells): walls, holes, goals... then stay as fluent bits that
no action changes, which is exactly what ``GroundTask(fold=...)`` is for. A
concrete problem is then just an initial bitset and goal masks over that
grounding (:class:`Bound`). ``tests/problem_gen`` checks step for step that this
agrees with a per-problem :class:`svot.engine.GroundedEngine`. Stepping and the
search are the engine's (:class:`svot.engine.search.SearchStepper`); this module
adds what needs the domain's spec: its grid, its action numbering, state dicts.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from svot.kernel import DomainSpec
from svot.kernel.grid import cell_name, cells
from svot.engine.grounded import shared_grounding as engine_grounding
from svot.engine.search import SearchStepper, atoms_mask
from svot.errors import ProblemError
from svot.pddl import Problem, load_domain


T = TypeVar("T")

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
        # the grid atoms as the spec's problems hold them (the same objects: a problem's own atoms are
        # then split off by identity, SharedGrounding.own_bits)
        grid_atoms = spec.problem(size, "grid", [], []).init
        shared_static = [a for a in grid_atoms if a[0] in self.domain.static_predicates]
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
        own, init = self.shared.own_bits(problem)
        if init is None:
            init_atoms = problem.init if isinstance(problem.init, frozenset) else frozenset(problem.init)
            if len(init_atoms) - len(own) != len(self.static_atoms) or any(a[0] in self.fold for a in own):
                raise ProblemError(
                    f"problem {problem.name!r} does not have the static {'/'.join(sorted(self.fold))} atoms of a "
                    f"{self.size}x{self.size} {self.spec.name} grid"
                )
        bit = self.task.bit
        try:
            if init is None:
                init = atoms_mask(bit, own)  # raises: some atom is outside the grounding
            goal_pos = atoms_mask(bit, problem.goal)
            goal_neg = atoms_mask(bit, problem.negative_goal)
        except KeyError as exc:
            raise ProblemError(f"problem {problem.name!r} has an atom outside the {self.spec.name} domain: {exc}") from None
        return Bound(self, problem, init, goal_pos, goal_neg)

    def own_atoms(self, problem: Problem) -> frozenset:
        """The problem's initial atoms less the grid statics every problem of the size shares (``adj``, ``ray``)."""
        return self.shared.own_bits(problem)[0]


@functools.lru_cache(maxsize=None)
def shared_grounding(spec: DomainSpec, size: int) -> SearchGrounding:
    """The process's :class:`SearchGrounding` of a (domain, size) (cached per spec object)."""
    return SearchGrounding(spec, size)


def cell_bits(grounding: SearchGrounding, size: int, predicates: Sequence[str]) -> list[list[int]]:
    """Per predicate, the grounding's bit of ``(pred c)`` for every cell, by cell index ``r * N + c``.

    A sampler that draws cell indices builds its layouts' initial states from these, with no Problem.
    """
    bit = grounding.task.bit
    names = [cell_name(cell) for cell in cells(size)]
    return [[bit[(pred, c)] for c in names] for pred in predicates]


def kept_per_size(spec: DomainSpec, build: Callable[[int], T]) -> Callable[[int], T]:
    """``build(size)``, kept per size while the (domain, size) shared grounding it reads (its ``grounding``) stays."""
    kept: dict[int, T] = {}

    def get(size: int) -> T:
        value = kept.get(size)
        if value is None or value.grounding is not shared_grounding(spec, size):
            value = kept[size] = build(size)
        return value

    return get


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
