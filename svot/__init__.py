"""svot: PDDL grid domains as Gymnasium environments, datasets and scoring tools.

``import svot`` registers every environment id with Gymnasium, e.g.
``gymnasium.make("SVoT/Sokoban-5x5-v0")``.
"""

from svot._version import __version__

from svot.envs.registration import register_all as _register_all

_register_all()
