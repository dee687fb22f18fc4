"""Gymnasium environments for the SVoT domains, one class per file."""

from svot.envs.base import SVoTEnv
from svot.domains.frozenlake.env import FrozenLakeEnv
from svot.domains.gather.env import GatherEnv
from svot.domains.maze.env import MazeEnv
from svot.domains.pacman.env import PacmanEnv
from svot.envs.registration import env_id, register_all, registered_ids
from svot.domains.sokoban.env import SokobanEnv

__all__ = [
    "FrozenLakeEnv",
    "GatherEnv",
    "MazeEnv",
    "PacmanEnv",
    "SVoTEnv",
    "SokobanEnv",
    "env_id",
    "register_all",
    "registered_ids",
]
