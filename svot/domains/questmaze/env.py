"""The QuestMaze Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.questmaze import QUESTMAZE
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class QuestMazeEnv(SVoTEnv):
    """
    ## Description
    RuleMaze's QuestMaze without its rules: the prince walks an N×N maze whose walls lie between
    cells; entering a cell with an item (key, heart, food) collects it, and entering the
    princess's or the treasure's cell ends the quest. Dynamics come from
    ``svot/domains_pddl/questmaze.pddl``; a move into a wall or off the grid changes nothing.
    The rules, their validators and the EM / PR metrics are :mod:`svot.rulemaze`'s, on top.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 255, (N, N), uint8)``, bit flags per cell: 1 prince, 2 princess, 4 treasure, 8 key,
    16 heart, 32 food, 64 a wall on the cell's right edge, 128 a wall on its lower edge.
    ``render()`` gives an image (``rgb_array``) or a text grid (``ansi``).

    ## Rewards
    1 on reaching either target, else 0.

    ## Starting State
    A fresh maze from :mod:`svot.domains.questmaze.generator` (items on 30 % of the free cells;
    60 % for the OOD ids), or the problem passed as ``reset(options={"problem": ...})``.

    ## Episode End
    Terminated when a target is reached; truncated after ``max_episode_steps`` (4·N², set at
    registration).

    ## Arguments
    Those of :class:`svot.envs.base.SVoTEnv`.
    """

    domain = QUESTMAZE


class QuestMazeVectorEnv(SVoTVectorEnv):
    """QuestMaze, natively batched: ``gymnasium.make_vec("SVoT/QuestMaze-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = QUESTMAZE
