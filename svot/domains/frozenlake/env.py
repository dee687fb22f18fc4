"""The FrozenLake Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.frozenlake import FROZENLAKE
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class FrozenLakeEnv(SVoTEnv):
    """
    ## Description
    Deterministic FrozenLake (not slippery), from ``frozenlake.pddl``: the player
    walks from the start (0, 0) to the goal (N-1, N-1) over ice; walking off the
    grid changes nothing; entering a hole ends the episode.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 15, (N, N), uint8)``, bit flags per cell: 1 player, 2 hole, 4 goal,
    8 start.

    ## Rewards
    1 on reaching the goal; 0 otherwise (falling into a hole included).

    ## Starting State
    A map made like Gymnasium's ``generate_random_map`` with hole density 0.2
    (0.4 for OOD), kept only if the goal is reachable.

    ## Episode End
    Terminated on the goal (``status`` "reached") or in a hole (``status``
    "fell"); truncated after ``max_episode_steps`` (4·N²).

    ## Info
    ``state`` (with ``tile`` and ``status``), ``state_text``, ``atoms``,
    ``applicable``.

    ## Registered Configurations
    ``SVoT/FrozenLake-{4,5,6}x{4,5,6}-v0`` and ``SVoT/FrozenLake-NxN-OOD-v0``.
    """

    domain = FROZENLAKE


class FrozenLakeVectorEnv(SVoTVectorEnv):
    """FrozenLake, natively batched: ``gymnasium.make_vec("SVoT/FrozenLake-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = FROZENLAKE
