"""QuestMaze: walk a walled maze, collecting items on the way, until the prince reaches a target.

RuleMaze's QuestMaze (Chen et al., *Rule-Compliant Visual Spatial Planning for MLLMs*) as a domain
of the registry, on the same layers as every other: ``spec`` (the DomainSpec and its hooks),
``look`` (floor, sprites, label combinations, sample states), ``generator`` (sampling on
:mod:`svot.domains.passages`) and ``env`` (the Gymnasium env and its documentation). The dynamics
are ``svot/domains_pddl/questmaze.pddl``. RuleMaze's rules, tools and EM / PR metrics
(:mod:`svot.rulemaze`) sit on top: the problems it writes for a walled QuestMaze are this
domain's problems (``tests/rulemaze/test_rulemaze_as_domain.py``).
"""

from svot.domains.questmaze import generator
from svot.domains.questmaze.spec import SPEC, QuestMazeSpec
from svot.kernel import GridDomain

QUESTMAZE = GridDomain(SPEC, generator)

__all__ = ["QUESTMAZE", "QuestMazeSpec", "SPEC"]
