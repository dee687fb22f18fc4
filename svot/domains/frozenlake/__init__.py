"""FrozenLake (deterministic): reach the goal tile without falling into a hole.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec and its
hooks), ``table5`` (its Table 5 row), ``generator`` (sampling and the solvability check), 
``look`` (floor, sprites, ANSI characters, random states), ``wording`` (task
description, reasoning phrases, goal fields, distractor rules) and ``env`` (the Gymnasium env,
its documentation, and its vector env). The dynamics are ``svot/domains_pddl/frozenlake.pddl``.
"""

from svot.domains.frozenlake import generator
from svot.domains.frozenlake.spec import SPEC, FrozenLakeSpec, tile_and_status
from svot.kernel import GridDomain

FROZENLAKE = GridDomain(SPEC, generator)

__all__ = ["FROZENLAKE", "FrozenLakeSpec", "SPEC", "tile_and_status"]
