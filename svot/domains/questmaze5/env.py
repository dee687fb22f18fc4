"""The OpenQuestMaze Gymnasium envs: the single env and its natively batched vector env."""

from svot.domains.questmaze5 import QUESTMAZE5
from svot.envs.base import SVoTEnv
from svot.envs.vector import SVoTVectorEnv


class OpenQuestMazeEnv(SVoTEnv):
    """
    ## Description
    RuleMaze's open-grid QuestMaze (the paper's Fig. 3) without its rules: the prince walks an
    N×N field with no walls, where monster cells can never be entered; entering a cell with an
    item (key, heart, food) collects it, and entering the princess's or the treasure's cell ends
    the quest. Dynamics come from ``svot/domains_pddl/questmaze5.pddl``; a move onto a monster or
    off the grid changes nothing. The rules, their validators and the EM / PR metrics are
    :mod:`svot.rulemaze`'s, on top.

    ## Action Space
    ``Discrete(4)``: 0 up, 1 down, 2 left, 3 right.

    ## Observation Space
    ``Box(0, 127, (N, N), uint8)``, bit flags per cell: 1 prince, 2 princess, 4 treasure, 8 key,
    16 heart, 32 food, 64 monster. ``render()`` gives an image (``rgb_array``) or a text grid
    (``ansi``).

    ## Rewards
    1 on reaching either target, else 0.

    ## Starting State
    A fresh field from :mod:`svot.domains.questmaze5.generator` (a logical (N+1)/2 maze laid out
    on the grid, monsters on the rest; items on 30 % of the free logical cells, 60 % for the OOD
    ids), or the problem passed as ``reset(options={"problem": ...})``.

    ## Episode End
    Terminated when a target is reached; truncated after ``max_episode_steps`` (4·N², set at
    registration).

    ## Arguments
    Those of :class:`svot.envs.base.SVoTEnv`.
    """

    domain = QUESTMAZE5


class OpenQuestMazeVectorEnv(SVoTVectorEnv):
    """OpenQuestMaze, natively batched: ``gymnasium.make_vec("SVoT/OpenQuestMaze-NxN-v0", num_envs=...)`` (see :mod:`svot.envs.vector`)."""

    domain = QUESTMAZE5
