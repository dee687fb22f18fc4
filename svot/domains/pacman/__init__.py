"""Pacman: eat every coin; no walls.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec),
``generator`` (Table 5 sampling and the solvability check) and ``env`` (the
Gymnasium env and its documentation). The dynamics are ``svot/domains_pddl/pacman.pddl``.
"""

from svot.domains.pacman.spec import PacmanSpec

__all__ = ["PacmanSpec"]
