"""Gather: collect every coloured ball with moves of k cells (1 ≤ k ≤ N-1).

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec),
``generator`` (Table 5 sampling and the solvability check) and ``env`` (the
Gymnasium env and its documentation). The dynamics are ``svot/domains_pddl/gather.pddl``.
"""

from svot.domains.gather.spec import COLOURS, COLOURS_BY_SIZE, GatherSpec, colours_for

__all__ = ["COLOURS", "COLOURS_BY_SIZE", "GatherSpec", "colours_for"]
