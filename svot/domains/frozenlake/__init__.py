"""FrozenLake (deterministic): reach the goal tile without falling into a hole.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec),
``generator`` (Table 5 sampling and the solvability check) and ``env`` (the
Gymnasium env and its documentation). The dynamics are ``svot/domains_pddl/frozenlake.pddl``.
"""

from svot.domains.frozenlake.spec import FrozenLakeSpec, tile_and_status

__all__ = ["FrozenLakeSpec", "tile_and_status"]
