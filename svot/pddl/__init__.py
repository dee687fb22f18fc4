"""PDDL in svot's own small form: a lifted domain parsed by svot's reader, and problems.

``load_domain(name)`` parses a shipped domain file into plain tuples
(:class:`Domain`); PDDLGym (an optional extra) is not needed to parse, and a
test checks that its parser reads every shipped file the same way. :class:`Problem` is svot's problem value: objects, init atoms
and a conjunctive goal, with a PDDL text writer and a line-aware reader.
"""

from svot.pddl.domain import Domain, Operator, domain_path, load_domain, load_domain_file
from svot.pddl.problem import Atom, Problem, atom_str, parse_problem

__all__ = [
    "Atom",
    "Domain",
    "Operator",
    "Problem",
    "atom_str",
    "domain_path",
    "load_domain",
    "load_domain_file",
    "parse_problem",
]
