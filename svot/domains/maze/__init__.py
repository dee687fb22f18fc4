"""Maze: reach the goal; walls and the grid's edge block a move.

Everything that is this domain's lives in this folder: ``spec`` (the DomainSpec and its
hooks), ``table5`` (its Table 5 row), ``generator`` (sampling and the solvability check), 
``look`` (floor, sprites, ANSI characters, random states), ``wording`` (task
description, reasoning phrases, goal fields, distractor rules) and ``env`` (the Gymnasium env,
its documentation, and its vector env). The dynamics are ``svot/domains_pddl/maze.pddl``.
"""

from svot.domains.maze import generator
from svot.domains.maze.spec import SPEC, MazeSpec
from svot.kernel import GridDomain

MAZE = GridDomain(SPEC, generator)

__all__ = ["MAZE", "MazeSpec", "SPEC"]
