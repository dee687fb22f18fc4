"""The Gather Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.gather import GATHER
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class GatherEnv(SVoTEnv):
    """
    ## Description
    Gather, from ``gather.pddl``: the player moves k cells at once in one
    direction and collects every coloured ball on the k cells it enters. A move
    whose path would leave the grid changes nothing. (In the PDDL a move is a
    ``(move ?dir ?k)`` start followed by internal ``(advance)`` steps; the env
    applies the whole chain as one action.)

    ## Action Space
    ``Discrete(4·(N-1))``: action ``4·(k-1)+d`` moves k cells in direction d
    (0 up, 1 down, 2 left, 3 right).

    ## Observation Space
    ``Box(0, 31, (N, N), uint8)``, bit flags per cell: 1 player, 2 red ball,
    4 green ball, 8 blue ball, 16 yellow ball.

    ## Rewards
    1 when every ball has been collected, else 0.

    ## Starting State
    Balls on 30% of the cells (50% for OOD) in the size's colours: red, green
    (4×4); + blue (5×5); + yellow (6×6).

    ## Episode End
    Terminated when all balls are collected; truncated after
    ``max_episode_steps`` (4·N²).

    ## Info
    ``state`` (``balls`` remaining per colour, ``collected`` per colour),
    ``state_text``, ``atoms``, ``applicable``.

    ## Registered Configurations
    ``SVoT/Gather-{4,5,6}x{4,5,6}-v0`` and ``SVoT/Gather-NxN-OOD-v0``.
    """

    domain = GATHER


class GatherVectorEnv(SVoTVectorEnv):
    """Gather, natively batched: ``gymnasium.make_vec("SVoT/Gather-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = GATHER
