"""RegularMaze: walk a walled maze with painted zones from the green start to the red goal.

RuleMaze's RegularMaze (Chen et al., *Rule-Compliant Visual Spatial Planning for MLLMs*) as a
domain of the registry, on the same layers as every other: ``spec`` (the DomainSpec and its
hooks), ``look`` (floor, sprites, label combinations, sample states), ``wording``, ``generator``
(sampling on :mod:`svot.domains.passages`) and ``env``. The dynamics are
``svot/domains_pddl/regularmaze.pddl``. RuleMaze's rules, tools and EM / PR metrics
(:mod:`svot.rulemaze`) sit on top: the problems it writes for a RegularMaze are this domain's
(``tests/rulemaze/test_rulemaze_as_domain.py``).
"""

from svot.domains.regularmaze import generator
from svot.domains.regularmaze.spec import SPEC, RegularMazeSpec
from svot.kernel import GridDomain

REGULARMAZE = GridDomain(SPEC, generator)

__all__ = ["REGULARMAZE", "RegularMazeSpec", "SPEC"]
