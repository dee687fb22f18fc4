"""Sokoban: push every block onto a goal square.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec),
``generator`` (Table 5 sampling and the solvability check) and ``env`` (the
Gymnasium env and its documentation). The dynamics are ``svot/domains_pddl/sokoban.pddl``.
"""

from svot.domains.sokoban.spec import SokobanSpec

__all__ = ["SokobanSpec"]
