"""OpenQuestMaze: QuestMaze on the open cell grid the RuleMaze paper draws, where monster cells block.

RuleMaze's open-grid QuestMaze (Chen et al., *Rule-Compliant Visual Spatial Planning for MLLMs*,
Fig. 3: "cell-based layouts without complex wall structures") as a domain of the registry:
``spec`` (the DomainSpec and its hooks), ``look`` (floor, sprites, label combinations, sample
states), ``generator`` (a logical maze from :mod:`svot.domains.passages` laid out on the open grid)
and ``env`` (the Gymnasium env and its documentation). The dynamics are
``svot/domains_pddl/questmaze5.pddl``, whose domain name, ``questmaze5``, is the registry key (a
problem names its PDDL domain, and the engines and solvers match it against the spec's name).
RuleMaze's rules, tools and EM / PR metrics (:mod:`svot.rulemaze`) sit on top: the problems it
writes for an open-grid maze are this domain's problems (``tests/rulemaze/test_rulemaze_as_domain.py``).
"""

from svot.domains.questmaze5 import generator
from svot.domains.questmaze5.spec import SPEC, OpenQuestMazeSpec
from svot.kernel import GridDomain

QUESTMAZE5 = GridDomain(SPEC, generator)

__all__ = ["OpenQuestMazeSpec", "QUESTMAZE5", "SPEC"]
