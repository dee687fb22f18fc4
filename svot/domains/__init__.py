"""The domain registry: one :class:`DomainSpec` per grid domain."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, check_spec
from svot.domains.frozenlake import FrozenLakeSpec
from svot.domains.gather import GatherSpec
from svot.domains.maze import MazeSpec
from svot.domains.pacman import PacmanSpec
from svot.domains.questmaze import QuestMazeSpec
from svot.domains.questmaze5 import OpenQuestMazeSpec
from svot.domains.regularmaze import RegularMazeSpec
from svot.domains.sokoban import SokobanSpec
from svot.errors import ConfigError

SPECS: dict[str, DomainSpec] = {}


def register_spec(spec: DomainSpec) -> DomainSpec:
    """Add a domain (its PDDL must be loadable by name or be an absolute path).

    The spec is checked first (:func:`svot.kernel.spec.check_spec`): a ConfigError names every
    required attribute or hook it leaves out.
    """
    check_spec(spec)
    SPECS[spec.name] = spec
    return spec


# SVoT's five (in the export order), then RuleMaze's two walled mazes and its open grid
for _cls in (MazeSpec, FrozenLakeSpec, SokobanSpec, PacmanSpec, GatherSpec, RegularMazeSpec, QuestMazeSpec,
             OpenQuestMazeSpec):
    register_spec(_cls())

DOMAINS = tuple(SPECS)


def get_spec(name: str) -> DomainSpec:
    key = str(name).lower()
    if key not in SPECS:
        raise ConfigError(f"unknown domain {name!r}; known domains: {', '.join(SPECS)}")
    return SPECS[key]


__all__ = ["DOMAINS", "DomainSpec", "Field", "SPECS", "get_spec", "register_spec"]
