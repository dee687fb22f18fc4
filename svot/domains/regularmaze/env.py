"""The RegularMaze Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.regularmaze import REGULARMAZE
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class RegularMazeEnv(SVoTEnv):
    """
    ## Description
    RuleMaze's RegularMaze without its rules: the player walks an N×N maze whose walls lie
    between cells, from the green start to the red goal, across white cells and painted zones
    (blue, yellow, pink, purple, orange, blue-green) that no move reads: rules give them meaning
    (:mod:`svot.rulemaze`, on top). Dynamics come from ``svot/domains_pddl/regularmaze.pddl``; a
    move into a wall or off the grid changes nothing.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 2047, (N, N), uint16)``, bit flags per cell: 1 player, 2 start, 4 goal, 8 ... 256
    the zones blue, yellow, pink, purple, orange, blue-green, 512 a wall on the cell's right edge,
    1024 a wall on its lower edge. ``render()`` gives an image (``rgb_array``) or a text grid
    (``ansi``).

    ## Rewards
    1 on reaching the goal, else 0.

    ## Starting State
    A fresh maze from :mod:`svot.domains.regularmaze.generator` (zones on 30 % of the other cells;
    60 % for the OOD ids), or the problem passed as ``reset(options={"problem": ...})``.

    ## Episode End
    Terminated on the goal; truncated after ``max_episode_steps`` (4·N², set at registration).

    ## Arguments
    Those of :class:`svot.envs.base.SVoTEnv`.
    """

    domain = REGULARMAZE


class RegularMazeVectorEnv(SVoTVectorEnv):
    """RegularMaze, natively batched: ``gymnasium.make_vec("SVoT/RegularMaze-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = REGULARMAZE
