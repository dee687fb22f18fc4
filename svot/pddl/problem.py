"""PDDL problems as values: objects, initial atoms and a conjunctive goal.

An atom is a plain tuple ``(predicate, arg, ...)``; its text form is the PDDL
``(predicate arg ...)``. :meth:`Problem.to_pddl` writes the problem text in
one of two flavours:

- ``"standard"`` (the default): classical planners (Fast Downward, pyperplan,
  unified-planning) ground it with the shipped domain as written. The domain's
  action predicates (PDDLGym's ``(move ?dir)`` convention: the agent's choice
  as a precondition literal) are listed in ``:init`` for every type-correct
  argument tuple. They are static and all true, so every ground operator keeps
  exactly the preconditions that decide it in svot's engine, and a planner's
  ground operators, successors and plans are the engine's (a test checks this
  with unified-planning's validator).
- ``"pddlgym"``: no action atoms; PDDLGym adds the chosen action literal itself
  at every step. Only svot's PDDLGym reference engine needs this form.

:func:`parse_problem` reads either back (action atoms in ``:init`` carry no
state and are dropped), checking it against the domain and naming the line of
anything wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import os

from svot.errors import PDDLError
from svot.pddl import sexpr
from svot.pddl.files import read_pddl_file
from svot.pddl.domain import Domain, load_domain

Atom = tuple  # (predicate, *objects)

FLAVOURS = ("standard", "pddlgym")

# domains registered at run time (svot.extend.register_domain), by the name their problems carry
_REGISTERED: dict[str, Domain] = {}


def remember_domain(name: str, domain: Domain) -> None:
    """Let ``Problem.to_pddl`` find a non-shipped domain's action predicates by problem domain ``name``."""
    _REGISTERED[name] = domain


def domain_for(problem: "Problem") -> Domain:
    """The domain a problem names: a registered one, else the shipped file of that name."""
    found = _REGISTERED.get(problem.domain)
    return found if found is not None else load_domain(problem.domain)


def atom_str(atom: Atom) -> str:
    return "(" + " ".join(atom) + ")"


@dataclass(frozen=True)
class Problem:
    """A ground problem. ``objects`` are ``(name, type)`` pairs; ``goal`` a conjunction of atoms."""

    domain: str
    name: str
    objects: tuple[tuple[str, str], ...]
    init: frozenset
    goal: tuple[Atom, ...]
    negative_goal: tuple[Atom, ...] = field(default=())

    def objects_of(self, type_name: str) -> list[str]:
        return [n for n, t in self.objects if t == type_name]

    def to_pddl(self, flavour: str = "standard", domain: Domain | None = None) -> str:
        """The problem as PDDL text; see the module docstring for ``flavour``.

        ``"standard"`` needs the domain's action predicates: ``domain`` if given,
        else the domain registered under ``self.domain`` (:func:`remember_domain`),
        else the shipped domain of that name.
        """
        if flavour not in FLAVOURS:
            raise PDDLError(f"unknown problem flavour {flavour!r}; choose one of {', '.join(FLAVOURS)}")
        init = sorted(self.init)
        if flavour == "standard":
            init += action_atoms(domain if domain is not None else domain_for(self), self.objects)
        by_type: dict[str, list[str]] = {}
        for name, type_name in self.objects:
            by_type.setdefault(type_name, []).append(name)
        object_lines = "\n".join(f"    {' '.join(names)} - {t}" for t, names in by_type.items())
        init_lines = "\n".join(f"    {atom_str(a)}" for a in init)
        goals = [atom_str(a) for a in self.goal] + [f"(not {atom_str(a)})" for a in self.negative_goal]
        goal_text = goals[0] if len(goals) == 1 else "(and " + " ".join(goals) + ")"
        return (
            f"(define (problem {self.name})\n"
            f"  (:domain {self.domain})\n"
            f"  (:objects\n{object_lines}\n  )\n"
            f"  (:init\n{init_lines}\n  )\n"
            f"  (:goal {goal_text})\n"
            f")\n"
        )


def action_atoms(domain: Domain, objects) -> list[Atom]:
    """Every type-correct ground atom of the domain's action predicates, sorted."""
    by_type: dict[str, list[str]] = {}
    for name, type_name in objects:
        by_type.setdefault(type_name, []).append(name)
    out: list[Atom] = []
    for pred in domain.action_predicates:
        tuples: list[tuple[str, ...]] = [()]
        for type_name in domain.predicates[pred]:
            tuples = [t + (o,) for t in tuples for o in sorted(by_type.get(type_name, ()))]
        out.extend((pred,) + t for t in tuples)
    return sorted(out)


def parse_problem(text: str, domain: Domain, source: str = "<problem>") -> Problem:
    """Read a problem text for ``domain``; errors name ``source`` and the line."""
    define = sexpr.read(text, source)
    if define.head() != "define":
        raise PDDLError("a problem file must start with '(define'", source=source, line=define.line)
    head = define.items[1] if len(define.items) > 1 else None
    if not (
        isinstance(head, sexpr.SList) and head.head() == "problem" and len(head.items) == 2
        and isinstance(head.items[1], sexpr.Sym)
    ):
        raise PDDLError("expected '(problem <name>)' after 'define'", source=source, line=define.line)
    name = head.items[1].text
    dom = sexpr.section(define, ":domain")
    if dom is None or len(dom.items) != 2 or not isinstance(dom.items[1], sexpr.Sym):
        raise PDDLError("missing '(:domain <name>)'", source=source, line=define.line)
    if dom.items[1].text != domain.name:
        raise PDDLError(
            f"problem is for domain {dom.items[1].text!r}, not {domain.name!r}", source=source, line=dom.line
        )
    objs = sexpr.section(define, ":objects")
    if objs is None:
        raise PDDLError("missing (:objects ...)", source=source, line=define.line)
    objects: dict[str, str] = {}
    for obj, type_name, line in sexpr.parse_typed_list(objs.items[1:], source):
        if type_name not in domain.types:
            raise PDDLError(
                f"object {obj!r} has unknown type {type_name!r} (domain types: {', '.join(domain.types)})",
                source=source,
                line=line,
            )
        if obj in objects:
            raise PDDLError(f"object {obj!r} declared twice", source=source, line=line)
        objects[obj] = type_name

    def ground(node, what: str, actions_ok: bool = False) -> Atom:
        if not isinstance(node, sexpr.SList) or node.head() is None:
            raise PDDLError(f"expected an atom '(predicate args...)' in {what}", source=source, line=node.line)
        pred = node.head()
        if pred not in domain.predicates or (pred in domain.action_predicates and not actions_ok):
            raise PDDLError(f"unknown predicate {pred!r} in {what}", source=source, line=node.line)
        types = domain.predicates[pred]
        args = node.items[1:]
        if len(args) != len(types):
            raise PDDLError(
                f"predicate {pred!r} takes {len(types)} argument(s), given {len(args)}", source=source, line=node.line
            )
        out = [pred]
        for arg, want in zip(args, types):
            if not isinstance(arg, sexpr.Sym):
                raise PDDLError(f"argument of {pred!r} must be an object name", source=source, line=node.line)
            if arg.text not in objects:
                raise PDDLError(f"undeclared object {arg.text!r} in {what}", source=source, line=arg.line)
            if objects[arg.text] != want:
                raise PDDLError(
                    f"object {arg.text!r} is a {objects[arg.text]}, but {pred!r} wants a {want} there",
                    source=source,
                    line=arg.line,
                )
            out.append(arg.text)
        return tuple(out)

    init_node = sexpr.section(define, ":init")
    if init_node is None:
        raise PDDLError("missing (:init ...)", source=source, line=define.line)
    # the standard flavour's action atoms are checked like any atom, then dropped: they carry no state
    init = frozenset(
        a for a in (ground(n, ":init", actions_ok=True) for n in init_node.items[1:])
        if a[0] not in domain.action_predicates
    )
    goal_node = sexpr.section(define, ":goal")
    if goal_node is None or len(goal_node.items) != 2:
        raise PDDLError("missing '(:goal <condition>)'", source=source, line=define.line)
    body = goal_node.items[1]
    parts = body.items[1:] if isinstance(body, sexpr.SList) and body.head() == "and" else [body]
    goal, negative_goal = [], []
    for part in parts:
        if isinstance(part, sexpr.SList) and part.head() == "not":
            negative_goal.append(ground(part.items[1] if len(part.items) == 2 else part, ":goal"))
        else:
            goal.append(ground(part, ":goal"))
    return Problem(
        domain=domain.name,
        name=name,
        objects=tuple(objects.items()),
        init=init,
        goal=tuple(goal),
        negative_goal=tuple(negative_goal),
    )


def read_problem_file(path, domain: Domain) -> Problem:
    text = read_pddl_file(path, what="problem file")  # regular, bounded, UTF-8: rule 1
    return parse_problem(text, domain, source=os.fspath(path))
