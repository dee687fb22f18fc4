"""The Pacman Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.pacman import PACMAN
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class PacmanEnv(SVoTEnv):
    """
    ## Description
    Pacman, from ``pacman.pddl``: no walls; entering a coin's cell eats it;
    a move off the grid changes nothing.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 3, (N, N), uint8)``, bit flags per cell: 1 player, 2 coin.

    ## Rewards
    1 when every coin has been eaten, else 0.

    ## Starting State
    Coins on 30% of the cells (50% for OOD), the player elsewhere.

    ## Episode End
    Terminated when all coins are eaten; truncated after ``max_episode_steps``
    (4·N²).

    ## Info
    ``state`` (``coins`` remaining, ``collected``, ``total``), ``state_text``,
    ``atoms``, ``applicable``.

    ## Registered Configurations
    ``SVoT/Pacman-{4,5,6}x{4,5,6}-v0`` and ``SVoT/Pacman-NxN-OOD-v0``.
    """

    domain = PACMAN


class PacmanVectorEnv(SVoTVectorEnv):
    """Pacman, natively batched: ``gymnasium.make_vec("SVoT/Pacman-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = PACMAN
