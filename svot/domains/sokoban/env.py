"""The Sokoban Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.sokoban import SOKOBAN
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class SokobanEnv(SVoTEnv):
    """
    ## Description
    Sokoban, from ``sokoban.pddl``: moving into a free cell moves the player;
    moving into a block pushes it one cell on if that cell is inside the grid,
    not a wall and not a block; otherwise nothing changes.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 15, (N, N), uint8)``, bit flags per cell: 1 player, 2 wall,
    4 block, 8 goal square.

    ## Rewards
    1 when every goal square holds a block, else 0.

    ## Starting State
    Wall density 0.2 with 1–2 blocks (OOD: 0.3 with 2 blocks at size 4, 3 at
    sizes 5 and 6), kept only if solvable by breadth-first search.

    ## Episode End
    Terminated when every goal square holds a block; truncated after
    ``max_episode_steps`` (4·N²).

    ## Info
    ``state``, ``state_text``, ``atoms``, ``applicable``.

    ## Registered Configurations
    ``SVoT/Sokoban-{4,5,6}x{4,5,6}-v0`` and ``SVoT/Sokoban-NxN-OOD-v0``.
    """

    domain = SOKOBAN


class SokobanVectorEnv(SVoTVectorEnv):
    """Sokoban, natively batched: ``gymnasium.make_vec("SVoT/Sokoban-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = SOKOBAN
