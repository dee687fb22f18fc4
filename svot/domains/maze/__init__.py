"""Maze: reach the goal; walls and the grid's edge block a move.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec),
``generator`` (Table 5 sampling and the solvability check) and ``env`` (the
Gymnasium env and its documentation). The dynamics are ``svot/domains_pddl/maze.pddl``.
"""

from svot.domains.maze.spec import MazeSpec

__all__ = ["MazeSpec"]
