"""Lifted PDDL domains: parsed by svot's own reader, held as plain tuples.

svot reads the domain text itself (:mod:`svot.pddl.sexpr`), refuses malformed
files with a line number, and builds :class:`Operator` values that the grounded
engine instantiates. PDDLGym is not needed to parse: it is the reference that
*runs* the PDDL (``engine="pddlgym"`` and the differential tests), and a test
checks that its parse of every shipped domain equals this one
(``svot.pddl.pddlgym_compat.load_domain_via_pddlgym``).
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from svot.errors import PDDLError
from svot.pddl import sexpr
from svot.pddl.files import read_pddl_file

# (predicate, (variable or constant names...)) with variables written "?x".
LiftedAtom = tuple[str, tuple[str, ...]]


@dataclass(frozen=True)
class Operator:
    """One action schema.

    ``action`` is the agent-facing action literal in the precondition (PDDLGym's
    "action predicate"): the agent chooses a ground action literal, and the
    ground operator whose preconditions hold is applied.
    """

    name: str
    params: tuple[tuple[str, str], ...]  # (variable, type)
    action: LiftedAtom
    pre_pos: tuple[LiftedAtom, ...]
    pre_neg: tuple[LiftedAtom, ...]
    add: tuple[LiftedAtom, ...]
    delete: tuple[LiftedAtom, ...]


@dataclass(frozen=True)
class Domain:
    name: str
    source: str
    types: tuple[str, ...]
    predicates: dict  # name -> tuple of argument types
    action_predicates: tuple[str, ...]
    operators: tuple[Operator, ...]  # empty when ``unsupported``
    # why svot's compiled engine cannot run this domain (it then steps on PDDLGym), or None
    unsupported: str | None = None

    # PDDLGym's inference for this domain: its CSP search handles conjunctions of literals only;
    # disjunctions, quantifiers and derived predicates need its Prolog mode (SWI-Prolog's swipl)
    inference: str = "csp"

    @functools.cached_property
    def fluent_predicates(self) -> frozenset[str]:
        """Predicates some operator adds or deletes; all others are static."""
        return frozenset(p for op in self.operators for p, _ in op.add + op.delete)

    @functools.cached_property
    def static_predicates(self) -> frozenset[str]:
        return frozenset(self.predicates) - self.fluent_predicates - frozenset(self.action_predicates)

    def __hash__(self) -> int:  # domains are compared by identity of their source
        return hash((self.name, self.source))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Domain) and (self.name, self.source) == (other.name, other.source)


def match_atom(args: tuple, fact: tuple, binding: dict) -> dict | None:
    """``binding`` extended so that the lifted arguments ``args`` (variables ``?x``
    and constants) equal the ground ``fact``'s, or None if they cannot."""
    new = dict(binding)
    for var, obj in zip(args, fact):
        if var.startswith("?"):
            if new.setdefault(var, obj) != obj:
                return None
        elif var != obj:
            return None
    return new


def domain_path(name: str) -> Path:
    """Path of a shipped domain file, e.g. ``domain_path(spec.pddl)``."""
    ref = resources.files("svot.domains_pddl").joinpath(f"{name}.pddl")
    path = Path(str(ref))
    if not path.is_file():
        shipped = sorted(p.stem for p in Path(str(resources.files("svot.domains_pddl"))).glob("*.pddl"))
        raise PDDLError(f"no shipped domain {name!r}; shipped domains: {', '.join(shipped)}")
    return path


@functools.lru_cache(maxsize=None)
def load_domain(name: str) -> Domain:
    """Parse a shipped domain by name, or any domain file by path (cached)."""
    if name.endswith(".pddl") or os.sep in name:
        return load_domain_file(name)
    return load_domain_file(domain_path(name))


def load_domain_file(path: str | os.PathLike) -> Domain:
    """Parse a domain file with svot's reader: structural checks, then operators."""
    path = Path(path)
    source = str(path)
    text = read_pddl_file(path, what="domain file")  # regular, bounded, UTF-8: rule 1
    return parse_domain(text, source)


def parse_domain(text: str, source: str = "<domain>") -> Domain:
    """A :class:`Domain` from domain text (``source`` names it in errors)."""
    beyond = _check_domain_text(text, source)
    return _build_domain(sexpr.read(text, source), text, source, beyond)


# PDDLGym's convention: the agent's action predicates are named on a '; (:actions a b)' line
_ACTIONS_LINE = re.compile(r"\(:actions\b([^)]*)\)", re.IGNORECASE)


def _build_domain(define: sexpr.SList, text: str, source: str, beyond: list[tuple[str, str]]) -> Domain:
    """Types, predicates and operators from the checked tree; operators only if the compiled engine runs them."""
    name = define.items[1].items[1].text
    types_node = sexpr.section(define, ":types")
    types = set()
    if types_node is not None:
        for t, parent, _line in sexpr.parse_typed_list(types_node.items[1:], source):
            types.add(t)
            if parent != "object":
                types.add(parent)
    predicates = {}
    for item in sexpr.section(define, ":predicates").items[1:]:
        predicates[item.head()] = tuple(t for _v, t, _line in sexpr.parse_typed_list(item.items[1:], source))
    match = _ACTIONS_LINE.search(text)
    actions = tuple(sorted(match.group(1).lower().split())) if match else ()
    for a in actions:
        if a not in predicates:
            raise PDDLError(f"action predicate {a!r} (on the '(:actions ...)' line) is not declared in :predicates",
                            source=source)
    operators = []
    if not beyond:
        for item in define.items:
            if isinstance(item, sexpr.SList) and item.head() == ":action":
                operators.append(_operator(item, set(actions), source))
        operators.sort(key=lambda op: op.name)
    return Domain(
        name=name,
        source=source,
        types=tuple(sorted(types)),
        predicates=dict(sorted(predicates.items())),
        action_predicates=actions,
        operators=tuple(operators),
        unsupported="; ".join(reason for reason, _ in beyond) or None,
        inference="prolog" if any(mode == "prolog" for _, mode in beyond) else "csp",
    )


def _literals(node, source: str, what: str) -> list[tuple[bool, LiftedAtom]]:
    """A conjunction of literals as (positive, atom) pairs; anything else is refused with its line."""
    if not isinstance(node, sexpr.SList) or node.head() is None:
        found = f"{node.text!r}" if isinstance(node, sexpr.Sym) else "'()'"
        raise PDDLError(f"{what}: expected a literal '(predicate ...)', found {found}", source=source, line=node.line)
    if node.head() == "and":
        return [lit for sub in node.items[1:] for lit in _literals(sub, source, what)]
    if node.head() == "not":
        if len(node.items) != 2 or not isinstance(node.items[1], sexpr.SList) or node.items[1].head() in ("and", "not"):
            raise PDDLError(f"{what}: '(not ...)' must hold exactly one atom", source=source, line=node.line)
        return [(False, _atom(node.items[1], source, what))]
    return [(True, _atom(node, source, what))]


def _atom(node: sexpr.SList, source: str, what: str) -> LiftedAtom:
    for arg in node.items[1:]:
        if not isinstance(arg, sexpr.Sym):
            raise PDDLError(f"{what}: an argument of {node.head()!r} is a '(...)' list, not a name", source=source,
                            line=arg.line)
    return (node.head(), tuple(arg.text for arg in node.items[1:]))


def _operator(action: sexpr.SList, action_preds: set[str], source: str) -> Operator:
    name = action.items[1].text
    items = action.items[2:]
    parts = {key.text: value for key, value in zip(items[::2], items[1::2]) if isinstance(key, sexpr.Sym)}
    params = tuple((v, t) for v, t, _line in sexpr.parse_typed_list(parts[":parameters"].items, source))
    act, pos, neg = None, [], []
    for positive, atom in _literals(parts[":precondition"], source, f"action {name!r}"):
        if atom[0] in action_preds:
            if not positive:
                raise PDDLError(f"action {name!r} negates its action literal {atom[0]!r}", source=source,
                                line=action.line)
            if act is not None:
                raise PDDLError(f"operator {name!r} has two action literals", source=source, line=action.line)
            act = atom
        else:
            (pos if positive else neg).append(atom)
    if act is None:
        raise PDDLError(
            f"operator {name!r} has no action literal ({', '.join(sorted(action_preds))}) in its precondition",
            source=source,
            line=action.line,
        )
    add, delete = [], []
    for positive, atom in _literals(parts[":effect"], source, f"action {name!r}"):
        (add if positive else delete).append(atom)
    return Operator(name=name, params=params, action=act, pre_pos=tuple(pos), pre_neg=tuple(neg),
                    add=tuple(add), delete=tuple(delete))


def _check_domain_text(text: str, source: str) -> list[tuple[str, str]]:
    """Catch what PDDLGym would report badly: balance, unknown predicates, arity, variables.

    Returns why svot's compiled engine cannot run the domain, as (reason,
    PDDLGym inference mode) pairs: a type hierarchy (PDDLGym's CSP search runs
    it), disjunctions, quantifiers, derived predicates (its Prolog mode does).
    """
    define = sexpr.read(text, source)
    if define.head() != "define":
        raise PDDLError("a domain file must start with '(define'", source=source, line=define.line)
    head = define.items[1] if len(define.items) > 1 else None
    if not (
        isinstance(head, sexpr.SList) and head.head() == "domain" and len(head.items) == 2
        and isinstance(head.items[1], sexpr.Sym)
    ):
        raise PDDLError("expected '(domain <name>)' after 'define'", source=source, line=define.line)
    types_node = sexpr.section(define, ":types")
    parent: dict[str, str] = {"object": ""}
    beyond = []
    if types_node is not None:
        for t, p, line in sexpr.parse_typed_list(types_node.items[1:], source):
            parent[t] = p
            parent.setdefault(p, "object")
            if p != "object":  # the compiled engine binds parameters by exact type
                beyond.append((f"a type hierarchy ({t} - {p}, line {line})", "csp"))
    if "(:actions" not in text.lower():
        raise PDDLError(
            "missing the '; (:actions ...)' line that names the agent's action predicates",
            source=source,
        )
    preds = sexpr.section(define, ":predicates")
    if preds is None:
        raise PDDLError("missing (:predicates ...)", source=source, line=define.line)
    arg_types: dict[str, list[str]] = {}
    for item in preds.items[1:]:
        if not isinstance(item, sexpr.SList) or item.head() is None:
            raise PDDLError("each predicate must be written '(name ?arg - type ...)'", source=source, line=preds.line)
        if item.head() in arg_types:
            raise PDDLError(f"predicate {item.head()!r} declared twice", source=source, line=item.line)
        args = sexpr.parse_typed_list(item.items[1:], source)
        for _v, t, line in args:
            _check_type(t, parent, f"predicate {item.head()!r}", source, line)
        arg_types[item.head()] = [t for _v, t, _line in args]
    for item in define.items:
        if isinstance(item, sexpr.SList) and item.head() == ":action":
            reason = _check_action(item, arg_types, parent, source)
            if reason:
                beyond.append((reason, "prolog"))
        elif isinstance(item, sexpr.SList) and item.head() == ":derived":
            beyond.append((f"derived predicates (':derived', line {item.line})", "prolog"))
    return beyond


def _check_type(type_name: str, parent: dict[str, str], what: str, source: str, line: int) -> None:
    if type_name not in parent:
        known = ", ".join(sorted(t for t in parent if t != "object")) or "none"
        raise PDDLError(f"{what} uses undeclared type {type_name!r} (declared types: {known})", source=source, line=line)


def _is_a(type_name: str, want: str, parent: dict[str, str]) -> bool:
    seen = set()
    while type_name and type_name not in seen:
        if type_name == want:
            return True
        seen.add(type_name)
        type_name = parent.get(type_name, "")
    return want == "object"


def _check_action(
    action: sexpr.SList, arg_types: dict[str, list[str]], parent: dict[str, str], source: str
) -> str | None:
    """Refuse what PDDLGym would report badly; return why the compiled engine cannot run the action, if so."""
    arity = {p: len(ts) for p, ts in arg_types.items()}
    name = action.items[1].text if len(action.items) > 1 and isinstance(action.items[1], sexpr.Sym) else "?"
    parts = {}
    items = action.items[2:]
    for key, value in zip(items[::2], items[1::2]):
        if isinstance(key, sexpr.Sym):
            parts[key.text] = value
    for key in (":parameters", ":precondition", ":effect"):
        if key not in parts:
            raise PDDLError(f"action {name!r} has no {key}", source=source, line=action.line)
    if not isinstance(parts[":parameters"], sexpr.SList):
        raise PDDLError(f"action {name!r}: :parameters must be a '(...)' list", source=source, line=action.line)
    params = {}
    for v, t, line in sexpr.parse_typed_list(parts[":parameters"].items, source):
        _check_type(t, parent, f"action {name!r} parameter {v}", source, line)
        params[v] = t

    beyond: list[str] = []  # what the compiled engine cannot run, first first

    def walk(node, params) -> None:
        if not isinstance(node, sexpr.SList):
            return
        head = node.head()
        if head in ("and", "not"):
            for sub in node.items[1:]:
                walk(sub, params)
            return
        if head in ("or", "imply", "forall", "exists"):
            beyond.append(f"action {name!r} uses '{head}' (line {node.line})")
            if head in ("forall", "exists") and len(node.items) == 3 and isinstance(node.items[1], sexpr.SList):
                scoped = dict(params)
                for v, t, line in sexpr.parse_typed_list(node.items[1].items, source):
                    _check_type(t, parent, f"action {name!r} {head} variable {v}", source, line)
                    scoped[v] = t
                walk(node.items[2], scoped)
            else:
                for sub in node.items[1:]:
                    walk(sub, params)
            return
        if head == "when":
            raise PDDLError(
                f"action {name!r} uses conditional effects ('when'), which neither svot's compiled engine "
                "nor PDDLGym 0.0.7 runs",
                source=source,
                line=node.line,
            )
        if head == "probabilistic":
            raise PDDLError(
                f"action {name!r} uses probabilistic effects; svot's environments are deterministic",
                source=source,
                line=node.line,
            )
        if head not in arity:
            raise PDDLError(f"action {name!r} uses unknown predicate {head!r}", source=source, line=node.line)
        args = node.items[1:]
        if len(args) != arity[head]:
            raise PDDLError(
                f"action {name!r}: predicate {head!r} takes {arity[head]} argument(s), given {len(args)}",
                source=source,
                line=node.line,
            )
        for arg, want in zip(args, arg_types[head]):
            if isinstance(arg, sexpr.Sym) and arg.text.startswith("?") and arg.text not in params:
                raise PDDLError(
                    f"action {name!r} uses variable {arg.text} that is not among its :parameters",
                    source=source,
                    line=arg.line,
                )
            if isinstance(arg, sexpr.Sym) and arg.text in params and not _is_a(params[arg.text], want, parent):
                raise PDDLError(
                    f"action {name!r}: {arg.text} is a {params[arg.text]}, but {head!r} wants a {want} there",
                    source=source,
                    line=arg.line,
                )

    walk(parts[":precondition"], params)
    walk(parts[":effect"], params)
    return beyond[0] if beyond else None
