"""Stepping PDDL problems: a grounded engine (default) and PDDLGym's (the reference).

Both are built from the same parsed domain and problem and share one interface
(:class:`Engine`): ``initial()``, ``step(state, action)``, ``true_atoms(state)``,
``is_goal(state)``. Neither knows any domain: the dynamics are the PDDL's.
"""

from svot.engine.base import Engine, make_engine
from svot.engine.grounded import GroundedEngine, GroundTask
from svot.engine.search import bfs_plan

__all__ = ["Engine", "GroundTask", "GroundedEngine", "bfs_plan", "make_engine"]
