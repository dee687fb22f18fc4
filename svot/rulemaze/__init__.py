"""RuleMaze (Chen et al., "Rule-Compliant Visual Spatial Planning for MLLMs"): the
engine-independent core.

* :mod:`.maze` -- the :class:`Maze` value type; :mod:`.trajectory` -- what validators see.
* :mod:`.pool` -- maze pools (Alg. 1-4); :mod:`.paths` -- solution paths.
* :mod:`.rules` -- rule language, validators, the built-in bank and the sampler.
* :mod:`.matching` -- rule-maze matching and ground truth (section 3.2).
* :mod:`.metrics` -- EM / PR (Eq. 2-3).
* :mod:`.tools_logic` -- the five tools on a symbolic marker position (Alg. 5-9).
"""

from svot.rulemaze.errors import MazeError, PoolError, RuleError, RuleFileError
from svot.rulemaze.matching import (MatchResult, compliant_paths, compliant_paths_pruned,
                                    evaluate_paths, match, match_pool)
from svot.rulemaze.maze import Maze
from svot.rulemaze.metrics import Scores, parse_actions, score, score_by_group
from svot.rulemaze.paths import solution_paths
from svot.rulemaze.pool import generate_maze, generate_pool, read_pool, write_pool
from svot.rulemaze.rules import (Rule, Validator, builtin_rules, compile_rule, format_formula,
                                 load_rules, parse_formula, sample_rule, sample_rules)
from svot.rulemaze.symbols import QUEST, REGULAR
from svot.rulemaze.trajectory import Trajectory, path_to_actions

__all__ = [
    "MatchResult", "Maze", "MazeError", "PoolError", "QUEST", "REGULAR", "Rule", "RuleError",
    "RuleFileError", "Scores", "Trajectory", "Validator", "builtin_rules", "compile_rule",
    "compliant_paths", "compliant_paths_pruned", "evaluate_paths", "format_formula",
    "generate_maze", "generate_pool", "load_rules", "match", "match_pool", "parse_actions",
    "parse_formula", "path_to_actions", "read_pool", "sample_rule", "sample_rules", "score",
    "score_by_group", "solution_paths", "write_pool",
]
