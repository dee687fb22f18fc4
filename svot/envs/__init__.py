"""Gymnasium environments for the SVoT domains, one class per file."""

from svot.envs.base import SVoTEnv
from svot.envs.frozenlake import FrozenLakeEnv
from svot.envs.gather import GatherEnv
from svot.envs.maze import MazeEnv
from svot.envs.pacman import PacmanEnv
from svot.envs.registration import env_id, register_all, registered_ids
from svot.envs.sokoban import SokobanEnv

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
