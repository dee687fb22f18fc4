"""svot: PDDL grid domains as Gymnasium environments, datasets and scoring tools.

``import svot`` registers every environment id with Gymnasium, e.g.
``gymnasium.make("SVoT/Sokoban-5x5-v0")``.
"""

__version__ = "0.1.0"

from svot.envs.registration import register_all as _register_all

_register_all()
