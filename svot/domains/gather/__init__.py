"""Gather: collect every coloured ball with moves of k cells (1 ≤ k ≤ N-1).

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec and its
hooks), ``table5`` (its Table 5 row), ``generator`` (sampling and the solvability check), ``solver``
(its exact planner), ``look`` (floor, sprites, ANSI characters, random states), ``wording`` (task
description, reasoning phrases, goal fields, distractor rules) and ``env`` (the Gymnasium env,
its documentation, and its vector env). The dynamics are ``svot/domains_pddl/gather.pddl``.
"""

from svot.domains.gather import generator, solver
from svot.domains.gather.spec import SPEC, COLOURS, COLOURS_BY_SIZE, GatherSpec, colours_for
from svot.kernel import GridDomain

GATHER = GridDomain(SPEC, generator, solver)

__all__ = ["COLOURS", "COLOURS_BY_SIZE", "GATHER", "GatherSpec", "SPEC", "colours_for"]
