"""Checking a problem against its domain before an env adopts it.

``reset(options={"problem": ...})`` (and the vector env's ``problems=``) take
a problem from the caller. :func:`check_problem` refuses one that does not fit,
with a :class:`~svot.errors.ProblemError` naming the problem and the fact at
fault, *before* the env replaces its current problem, so a refused problem
leaves the env as it was. Nothing here is written per domain; the checks come
from three sources:

* the PDDL domain: object types, predicate names, arities and argument types
  (a :class:`~svot.pddl.Problem` built in code skips the parser's checks);
* the spec's grid layout (:meth:`~svot.kernel.DomainSpec.base_objects`): the
  objects of each grid type (cells, directions...) are exactly those of an
  N x N grid, so no fact can name a cell outside it;
* the spec's declared invariants (:attr:`~svot.kernel.DomainSpec.unique_predicates`):
  predicates that hold of exactly one object in every state, such as the
  player's ``at``. PDDL cannot say "exactly one", and an engine handed two
  players or none has no defined behaviour.
"""

from __future__ import annotations

from svot.errors import ProblemError
from svot.pddl import Problem
from svot.pddl.domain import Domain
from svot.pddl.source import problem_from_input


def load_problem(value, spec, domain: Domain, size: int, *, what: str = "options['problem']") -> Problem:
    """The problem a caller handed an env, read and checked in full before the env adopts it.

    ``value`` is PDDL text, a path or a :class:`~svot.pddl.Problem`, told apart by
    :mod:`svot.pddl.source`'s rule (a ``Path`` or an existing file is a path; text starting
    with ``(define`` is PDDL; anything else is a :class:`~svot.errors.ProblemError`); a file
    is read by :func:`svot.pddl.files.read_pddl_file` (regular files only, bounded, UTF-8).
    Then the grid size and :func:`check_problem`.
    """
    parsed = problem_from_input(value, domain, what=what)
    if parsed.domain != domain.name:
        raise ProblemError(f"problem {parsed.name!r} is for domain {parsed.domain!r}, not {domain.name!r}")
    n = spec.size_of(parsed)
    if n != size:
        raise ProblemError(f"problem {parsed.name!r} is {n}x{n}, but this env is {size}x{size}")
    check_problem(parsed, spec, domain, size)
    return parsed


def _fact(atom: tuple) -> str:
    return "(" + " ".join(atom) + ")"


def check_problem(problem: Problem, spec, domain: Domain, size: int) -> None:
    """Raise :class:`~svot.errors.ProblemError` unless ``problem`` fits ``domain`` and an N x N grid of ``spec``."""
    where = f"problem {problem.name!r} ({domain.name} {size}x{size})"
    if problem.domain != domain.name:
        raise ProblemError(f"{where}: it is for domain {problem.domain!r}, not {domain.name!r}")
    types: dict[str, str] = {}
    for name, type_name in problem.objects:
        if type_name not in domain.types:
            raise ProblemError(f"{where}: object {name!r} has type {type_name!r}, which the domain does not declare "
                               f"(types: {', '.join(domain.types)})")
        if name in types:
            raise ProblemError(f"{where}: object {name!r} is declared twice")
        types[name] = type_name
    grid: dict[str, set[str]] = {}
    for name, type_name in spec.base_objects(size):
        grid.setdefault(type_name, set()).add(name)
    for type_name, names in grid.items():
        have = {n for n, t in types.items() if t == type_name}
        extra, missing = sorted(have - names), sorted(names - have)
        if extra:
            raise ProblemError(f"{where}: {type_name} object {extra[0]!r} is not part of the {size}x{size} grid")
        if missing:
            raise ProblemError(f"{where}: {type_name} object {missing[0]!r} of the {size}x{size} grid is not declared")
    for section, atoms in ((":init", sorted(problem.init)), (":goal", list(problem.goal) + list(problem.negative_goal))):
        for atom in atoms:
            if not isinstance(atom, tuple) or not atom or not all(isinstance(x, str) for x in atom):
                raise ProblemError(f"{where}: {section} holds {atom!r}, which is not a fact (a tuple of names)")
            pred, args = atom[0], atom[1:]
            signature = domain.predicates.get(pred)
            if signature is None or pred in domain.action_predicates:
                raise ProblemError(f"{where}: {section} fact {_fact(atom)} uses {pred!r}, which is not a predicate of the domain")
            if len(args) != len(signature):
                raise ProblemError(f"{where}: {section} fact {_fact(atom)}: {pred!r} takes {len(signature)} argument(s)")
            for arg, want in zip(args, signature):
                if arg not in types:
                    raise ProblemError(f"{where}: {section} fact {_fact(atom)} names {arg!r}, which is not a declared object")
                if types[arg] != want:
                    raise ProblemError(f"{where}: {section} fact {_fact(atom)}: {arg!r} is a {types[arg]}, "
                                       f"but {pred!r} wants a {want} there")
    for pred in spec.unique_predicates:
        facts = sorted(a for a in problem.init if a[0] == pred)
        if len(facts) != 1:
            shown = ", ".join(_fact(a) for a in facts[:4]) or "none"
            raise ProblemError(f"{where}: the initial state must hold exactly one ({pred} ...) fact "
                               f"({spec.unique_predicates[pred]}); it holds {len(facts)}: {shown}")
