"""Planner-ready PDDL: the shipped domain, or a form without negative preconditions.

Two forms of a domain/problem pair that classical planners take as written:

- ``"shipped"``: the domain file exactly as shipped, with the problem in the
  standard flavour (:meth:`svot.pddl.Problem.to_pddl`: the action atoms such as
  ``(move up)`` listed in ``:init``). Needs ``:negative-preconditions``
  (Fast Downward, unified-planning).
- ``"positive"``: negative preconditions compiled away, for planners without
  them (pyperplan, many STRIPS planners). Every predicate ``P`` used under
  ``not`` in a precondition or the goal gets a complement ``not-P``: a
  precondition ``(not (P x))`` becomes ``(not-P x)``; an effect adding ``(P x)``
  also deletes ``(not-P x)`` and an effect deleting ``(P x)`` also adds it; the
  problem's ``:init`` lists ``(not-P x)`` for every type-correct ``x`` whose
  ``(P x)`` is false. The compilation is exact when no ground action both adds
  and deletes the same atom of a complemented predicate, which holds for every
  shipped domain (a test replays svot's plans in both forms through
  unified-planning's validator).

The positive domain is written from the parsed :class:`~svot.pddl.Domain` (its
:class:`~svot.pddl.Operator` values), so it describes the same operators the
compiled engine grounds.
"""

from __future__ import annotations


from svot.errors import PDDLError
from svot.pddl.domain import Domain, LiftedAtom, Operator
from svot.pddl.files import read_pddl_file
from svot.pddl.problem import Atom, Problem, action_atoms, atom_str

FORMS = ("shipped", "positive")
COMPLEMENT_PREFIX = "not-"


def check_form(form: str) -> str:
    if form not in FORMS:
        raise PDDLError(f"unknown planner form {form!r}; choose one of {', '.join(FORMS)}")
    return form


def negated_predicates(domain: Domain, problems: tuple[Problem, ...] = ()) -> tuple[str, ...]:
    """Predicates some precondition (or some given problem's goal) uses under ``not``."""
    names = {p for op in domain.operators for p, _ in op.pre_neg}
    names |= {a[0] for prob in problems for a in prob.negative_goal}
    return tuple(sorted(names))


def complement(pred: str) -> str:
    return COMPLEMENT_PREFIX + pred


def _lifted(atom: LiftedAtom) -> str:
    pred, args = atom
    return "(" + " ".join((pred,) + tuple(args)) + ")"


def _conj(parts: list[str]) -> str:
    if not parts:
        return "()"
    return parts[0] if len(parts) == 1 else "(and " + " ".join(parts) + ")"


def _operator_text(op: Operator, negated: frozenset[str]) -> str:
    pre = [_lifted(op.action)] + [_lifted(a) for a in op.pre_pos]
    pre += [_lifted((complement(p), args)) for p, args in op.pre_neg]
    eff = [_lifted(a) for a in op.add] + [f"(not {_lifted(a)})" for a in op.delete]
    # keep each complement the negation of its predicate
    eff += [f"(not {_lifted((complement(p), args))})" for p, args in op.add if p in negated]
    eff += [_lifted((complement(p), args)) for p, args in op.delete if p in negated]
    params = " ".join(f"{v} - {t}" for v, t in op.params)
    return (
        f"  (:action {op.name}\n"
        f"    :parameters ({params})\n"
        f"    :precondition {_conj(pre)}\n"
        f"    :effect {_conj(eff)}\n"
        f"  )\n"
    )


def positive_domain_text(domain: Domain, problems: tuple[Problem, ...] = ()) -> str:
    """The domain with negative preconditions compiled into complement predicates."""
    if domain.unsupported is not None:
        raise PDDLError(f"cannot compile this domain ({domain.unsupported})", source=domain.source)
    negated = negated_predicates(domain, problems)
    for p in negated:
        if complement(p) in domain.predicates:
            raise PDDLError(f"complement name {complement(p)!r} is already a predicate", source=domain.source)
    preds = [(p, domain.predicates[p]) for p in domain.predicates]
    preds += [(complement(p), domain.predicates[p]) for p in negated]
    pred_lines = "\n".join(
        "    (" + " ".join([name] + [f"?x{i} - {t}" for i, t in enumerate(types)]) + ")" for name, types in preds
    )
    actions = "\n".join(_operator_text(op, frozenset(negated)) for op in domain.operators)
    return (
        f"; {domain.name} with negative preconditions compiled away (svot.pddl.standard, form 'positive')\n"
        f"(define (domain {domain.name})\n"
        f"  (:requirements :strips :typing)\n"
        f"  (:types {' '.join(domain.types)})\n"
        f"  (:predicates\n{pred_lines}\n  )\n\n"
        f"{actions}"
        f")\n"
    )


def _groundings(types: tuple[str, ...], objects) -> list[tuple[str, ...]]:
    by_type: dict[str, list[str]] = {}
    for name, type_name in objects:
        by_type.setdefault(type_name, []).append(name)
    out: list[tuple[str, ...]] = [()]
    for t in types:
        out = [x + (o,) for x in out for o in sorted(by_type.get(t, ()))]
    return out


def positive_problem_text(problem: Problem, domain: Domain, negated: tuple[str, ...] | None = None) -> str:
    """The problem for :func:`positive_domain_text`: complements in ``:init`` and the goal."""
    if negated is None:
        negated = negated_predicates(domain, (problem,))
    extra: list[Atom] = []
    for p in negated:
        for args in _groundings(domain.predicates[p], problem.objects):
            if (p, *args) not in problem.init:
                extra.append((complement(p), *args))
    goal = tuple(problem.goal) + tuple((complement(a[0]),) + tuple(a[1:]) for a in problem.negative_goal)
    pos = Problem(problem.domain, problem.name, problem.objects, problem.init | frozenset(extra), goal)
    return pos.to_pddl("standard", domain)


def planner_files(domain: Domain, problem: Problem, form: str) -> tuple[str, str]:
    """(domain text, problem text) in ``form`` ("shipped" or "positive")."""
    check_form(form)
    if form == "shipped":
        return read_pddl_file(domain.source, what="domain file"), problem.to_pddl("standard", domain)
    negated = negated_predicates(domain, (problem,))
    return positive_domain_text(domain, (problem,)), positive_problem_text(problem, domain, negated)


def plan_text(steps: list[tuple[str, tuple[str, ...]]]) -> str:
    """A sequential plan in the IPC format planners and validators read: one ``(op args)`` a line."""
    return "".join(atom_str((name, *args)) + "\n" for name, args in steps)


__all__ = [
    "COMPLEMENT_PREFIX",
    "FORMS",
    "action_atoms",
    "check_form",
    "complement",
    "negated_predicates",
    "planner_files",
    "plan_text",
    "positive_domain_text",
    "positive_problem_text",
]
