"""RegularMaze in the datasets' words: its one precondition and what a move does.

Read through :class:`~svot.domains.regularmaze.RegularMazeSpec` by :mod:`svot.dataset`; every
other wording hook keeps the generic default (:class:`~svot.kernel.DomainSpec`). The zones are
static facts no action reads: rules (svot.rulemaze), not dynamics, give them meaning.
"""

from __future__ import annotations

from svot.kernel.phrases import PASSAGE

PHRASES = {"open": PASSAGE}

# What the agent's operator does when it applies (formatted with its parameters by name).
CONCLUSIONS = {"step": "the player moves to {to}"}

#: The state fields the goal g asks for.
GOAL_FIELDS = ("player",)
