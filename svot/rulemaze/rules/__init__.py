"""RuleMaze rules: parse -> AST -> print / analyse / compile to a validator.

>>> from svot.rulemaze.rules import parse_formula, format_formula, compile_rule, difficulty
>>> f = parse_formula('zone(t, "blue") -> move(t, "right")')
>>> format_formula(f)
'Zone(t,"blue") -> Move(t,"right")'
>>> difficulty(f)
'medium'
"""

from svot.rulemaze.rules.analysis import (DIFFICULTIES, SEMANTIC_TYPES, connective_count,
                                          difficulty, scenario_of, semantic_types)
from svot.rulemaze.rules.bank import builtin_rules, load_rules, rule_by_id
from svot.rulemaze.rules.bruteforce import brute_force_check
from svot.rulemaze.rules.compiler import OK_SO_FAR, VIOLATED, Validator, compile_rule
from svot.rulemaze.rules.parser import parse_formula
from svot.rulemaze.rules.printer import format_formula
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.rules.sampler import sample_rule, sample_rules

__all__ = [
    "DIFFICULTIES", "SEMANTIC_TYPES", "OK_SO_FAR", "VIOLATED", "Rule", "Validator",
    "brute_force_check", "builtin_rules", "compile_rule", "connective_count", "difficulty",
    "format_formula", "load_rules", "parse_formula", "rule_by_id", "sample_rule", "sample_rules",
    "scenario_of", "semantic_types",
]
