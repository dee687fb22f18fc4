"""Pacman: eat every coin; no walls.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec and its
hooks), ``table5`` (its Table 5 row), ``generator`` (sampling and the solvability check), ``solver``
(its exact planner), ``look`` (floor, sprites, ANSI characters, random states), ``wording`` (task
description, reasoning phrases, goal fields, distractor rules) and ``env`` (the Gymnasium env,
its documentation, and its vector env). The dynamics are ``svot/domains_pddl/pacman.pddl``.
"""

from svot.domains.pacman import generator, solver
from svot.domains.pacman.spec import SPEC, PacmanSpec
from svot.kernel import GridDomain

PACMAN = GridDomain(SPEC, generator, solver)

__all__ = ["PACMAN", "PacmanSpec", "SPEC"]
