"""RuleMaze (Chen et al., "Rule-Compliant Visual Spatial Planning for MLLMs"): the
engine-independent core.

* :mod:`.maze` -- the :class:`Maze` value type; :mod:`.trajectory` -- what validators see.
* :mod:`.pool` -- maze pools (Alg. 1-4); :mod:`.paths` -- solution paths.
* :mod:`.rules` -- rule language, validators, the built-in bank and the sampler.
* :mod:`.matching` -- rule-maze matching and ground truth (section 3.2).
* :mod:`.metrics` -- EM / PR (Eq. 2-3).
* :mod:`.tools_logic` -- the five tools on a symbolic marker position (Alg. 5-9).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from svot.rulemaze.scenario import scenarios

if TYPE_CHECKING:  # the names below, for type checkers and readers; loaded on first use at run time
    from svot.rulemaze.errors import MazeError, PoolError, RuleError, RuleFileError
    from svot.rulemaze.matching import (MatchResult, compliant_paths, compliant_paths_pruned,
                                        evaluate_paths, match, match_pool)
    from svot.rulemaze.maze import Maze
    from svot.rulemaze.metrics import Scores, parse_actions, score, score_by_group
    from svot.rulemaze.paths import solution_paths
    from svot.rulemaze.pool import generate_maze, generate_pool, read_pool, write_pool
    from svot.rulemaze.rules import (Rule, Validator, builtin_rules, compile_rule, format_formula,
                                     load_rules, parse_formula, sample_rule, sample_rules)
    from svot.rulemaze.trajectory import Trajectory, path_to_actions

# name -> the module that defines it. Loaded on first use (PEP 562), so that importing one submodule,
# e.g. svot.rulemaze.registration on `import svot`, does not load the whole core (pyarrow, networkx).
_HOMES = {
    "MazeError": "svot.rulemaze.errors",
    "PoolError": "svot.rulemaze.errors",
    "RuleError": "svot.rulemaze.errors",
    "RuleFileError": "svot.rulemaze.errors",
    "MatchResult": "svot.rulemaze.matching",
    "compliant_paths": "svot.rulemaze.matching",
    "compliant_paths_pruned": "svot.rulemaze.matching",
    "evaluate_paths": "svot.rulemaze.matching",
    "match": "svot.rulemaze.matching",
    "match_pool": "svot.rulemaze.matching",
    "Maze": "svot.rulemaze.maze",
    "Scores": "svot.rulemaze.metrics",
    "parse_actions": "svot.rulemaze.metrics",
    "score": "svot.rulemaze.metrics",
    "score_by_group": "svot.rulemaze.metrics",
    "solution_paths": "svot.rulemaze.paths",
    "generate_maze": "svot.rulemaze.pool",
    "generate_pool": "svot.rulemaze.pool",
    "read_pool": "svot.rulemaze.pool",
    "write_pool": "svot.rulemaze.pool",
    "Rule": "svot.rulemaze.rules",
    "Validator": "svot.rulemaze.rules",
    "builtin_rules": "svot.rulemaze.rules",
    "compile_rule": "svot.rulemaze.rules",
    "format_formula": "svot.rulemaze.rules",
    "load_rules": "svot.rulemaze.rules",
    "parse_formula": "svot.rulemaze.rules",
    "sample_rule": "svot.rulemaze.rules",
    "sample_rules": "svot.rulemaze.rules",
    "Trajectory": "svot.rulemaze.trajectory",
    "path_to_actions": "svot.rulemaze.trajectory",
}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        # the scenario names old code imports from here (REGULAR...): the scenarios declare them
        for scenario in scenarios():
            if name in scenario.legacy_names:
                return scenario.legacy_names[name]
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))


__all__ = [
    "MatchResult", "Maze", "MazeError", "PoolError", "Rule", "RuleError",
    "RuleFileError", "Scores", "Trajectory", "Validator", "builtin_rules", "compile_rule",
    "compliant_paths", "compliant_paths_pruned", "evaluate_paths", "format_formula",
    "generate_maze", "generate_pool", "load_rules", "match", "match_pool", "parse_actions",
    "parse_formula", "path_to_actions", "read_pool", "sample_rule", "sample_rules", "score",
    "score_by_group", "solution_paths", "write_pool",
]
