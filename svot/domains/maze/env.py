"""The Maze Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.maze import MAZE
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class MazeEnv(SVoTEnv):
    """
    ## Description
    A player walks a square grid with walls towards a goal cell. Dynamics come
    from ``svot/domains_pddl/maze.pddl``: one cell per move; a move into a wall
    or off the grid changes nothing.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 7, (N, N), uint8)``, bit flags per cell: 1 player, 2 wall, 4 goal.
    ``render()`` gives an image (``rgb_array``) or a text grid (``ansi``).

    ## Rewards
    1 on reaching the goal, else 0.

    ## Starting State
    A fresh solvable maze from :mod:`svot.domains.maze.generator` (wall density 0.3;
    0.5 for the OOD ids), or the problem passed as ``reset(options={"problem": ...})``.

    ## Episode End
    Terminated when the player stands on the goal; truncated after
    ``max_episode_steps`` (4·N², set at registration).

    ## Info
    ``state`` (dict), ``state_text``, ``atoms`` (sorted ground atoms),
    ``applicable`` (whether the action's preconditions held).

    ## Registered Configurations
    ``SVoT/Maze-{5,6,7}x{5,6,7}-v0`` and ``SVoT/Maze-NxN-OOD-v0``.
    """

    domain = MAZE


class MazeVectorEnv(SVoTVectorEnv):
    """Maze, natively batched: ``gymnasium.make_vec("SVoT/Maze-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = MAZE
