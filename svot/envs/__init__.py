"""Gymnasium environments for the SVoT domains.

The generic env is :class:`~svot.envs.base.SVoTEnv` and its batched form
:class:`~svot.envs.vector.SVoTVectorEnv`; each takes a domain object
(:class:`~svot.kernel.GridDomain`). Each domain's own env classes live in its folder
(``svot/domains/<name>/env.py``, e.g. ``svot.domains.maze.env.MazeEnv``), bound to its domain;
the registry :mod:`svot.domains` gives their Gymnasium ids (``env_id``, ``registered_ids``).
"""

from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv

__all__ = ["SVoTEnv", "SVoTVectorEnv"]
