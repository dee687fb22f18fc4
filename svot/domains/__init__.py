"""The domain registry: the one place that answers a domain's name.

Each entry is a domain's :class:`~svot.kernel.GridDomain` (its spec, sampler and solver: what the
layers below are handed, :mod:`svot.problem_gen` and :mod:`svot.envs` take no names) and the
Gymnasium entry points of its env and vector env. Adding a grid domain = its PDDL file, its folder
``svot/domains/<name>/`` (which binds its ``GridDomain`` in ``__init__.py``) and one line below;
:func:`svot.extend.register_domain` adds one from outside through :func:`register`. Gymnasium's
registry is filled from this one (:mod:`svot.domains.gym_ids`) once Gymnasium is imported.

Lookups: :func:`get_domain`, :func:`get_spec`, :data:`SPECS`, :func:`names`, :func:`entry` (the
env entry points), :func:`env_id`, :func:`registered_ids`. For callers that hold a name,
:func:`generate`, :func:`solve`, :func:`sampling_params`, :func:`plan_length_floor` and
:data:`PARAMS` hand the domain object to :mod:`svot.problem_gen`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Iterator

import numpy as np

from svot import problem_gen
from svot.domains import frozenlake, gather, maze, pacman, questmaze, questmaze5, regularmaze, sokoban
from svot.errors import ConfigError
from svot.kernel import DomainSpec, GridDomain, check_spec
from svot.pddl import Problem
from svot.problem_gen import Generated

SPLITS = ("id", "ood")


@dataclass(frozen=True)
class Entry:
    """One registered domain: the object the layers below take, and its Gymnasium entry points
    (``"module:Class"`` strings, imported when an env is made, or classes)."""

    domain: GridDomain
    env: str | type
    vector_env: str | type | None = None


_ENTRIES: dict[str, Entry] = {}


def register(domain: GridDomain, *, env: str | type, vector_env: str | type | None = None) -> GridDomain:
    """Add a domain. Its spec is checked first (:func:`svot.kernel.check_spec`): a ConfigError names
    every required attribute or hook it leaves out, and nothing is registered."""
    if not isinstance(domain, GridDomain):
        raise ConfigError(f"register() takes a svot.kernel.GridDomain (spec, sampler, solver), got {type(domain).__name__}")
    check_spec(domain.spec)
    _ENTRIES[domain.name] = Entry(domain, env, vector_env)
    return domain


def unregister(name: str) -> None:
    """Undo :func:`register` (Gymnasium's ids: :func:`svot.domains.gym_ids.unregister_ids`)."""
    _ENTRIES.pop(str(name).lower(), None)


# SVoT's five (in the export order), then RuleMaze's two walled mazes and its open grid: one line each
register(maze.MAZE, env="svot.domains.maze.env:MazeEnv", vector_env="svot.domains.maze.env:MazeVectorEnv")
register(frozenlake.FROZENLAKE, env="svot.domains.frozenlake.env:FrozenLakeEnv",
         vector_env="svot.domains.frozenlake.env:FrozenLakeVectorEnv")
register(sokoban.SOKOBAN, env="svot.domains.sokoban.env:SokobanEnv", vector_env="svot.domains.sokoban.env:SokobanVectorEnv")
register(pacman.PACMAN, env="svot.domains.pacman.env:PacmanEnv", vector_env="svot.domains.pacman.env:PacmanVectorEnv")
register(gather.GATHER, env="svot.domains.gather.env:GatherEnv", vector_env="svot.domains.gather.env:GatherVectorEnv")
register(regularmaze.REGULARMAZE, env="svot.domains.regularmaze.env:RegularMazeEnv",
         vector_env="svot.domains.regularmaze.env:RegularMazeVectorEnv")
register(questmaze.QUESTMAZE, env="svot.domains.questmaze.env:QuestMazeEnv",
         vector_env="svot.domains.questmaze.env:QuestMazeVectorEnv")
register(questmaze5.QUESTMAZE5, env="svot.domains.questmaze5.env:OpenQuestMazeEnv",
         vector_env="svot.domains.questmaze5.env:OpenQuestMazeVectorEnv")

DOMAINS = tuple(_ENTRIES)  # the built-in domains; names() also lists the ones registered since


# --- lookups ----------------------------------------------------------------------------------------
def names() -> tuple[str, ...]:
    """The registered domains, built-ins first."""
    return tuple(_ENTRIES)


def entry(name: str) -> Entry:
    """The registry's entry for ``name`` (case-insensitive); ConfigError naming the known domains."""
    got = _ENTRIES.get(str(name).lower())
    if got is None:
        raise ConfigError(f"unknown domain {name!r}; known domains: {', '.join(_ENTRIES)}")
    return got


def get_domain(name: str) -> GridDomain:
    """The domain object (spec, sampler, solver) that svot.problem_gen and svot.envs take."""
    return entry(name).domain


def get_spec(name: str) -> DomainSpec:
    return entry(name).domain.spec


class _RegistryView(Mapping):
    """A read-only view keyed by the registered names, in registration order (subclasses say what a name maps to)."""

    def __iter__(self) -> Iterator[str]:
        return iter(_ENTRIES)

    def __len__(self) -> int:
        return len(_ENTRIES)

    def __repr__(self) -> str:
        return repr(dict(self))


class _Specs(_RegistryView):
    """``SPECS``: name -> spec, a read-only view of the registry."""

    def __getitem__(self, name: str) -> DomainSpec:
        return _ENTRIES[name].domain.spec


SPECS: Mapping[str, DomainSpec] = _Specs()


def env_id(name: str, size: int, split: str = "id") -> str:
    """The Gymnasium id of a domain's env, e.g. ``SVoT/Maze-5x5-v0`` (``-OOD`` before ``-v0`` for "ood")."""
    title = get_spec(name).title
    if split not in SPLITS:
        raise ConfigError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return f"SVoT/{title}-{size}x{size}{'-OOD' if split == 'ood' else ''}-v0"


def max_episode_steps(size: int) -> int:
    return 4 * size * size


def registered_ids() -> list[str]:
    """Every domain's Gymnasium ids: each Table 5 size, ID and OOD."""
    return [env_id(n, size, s) for n, e in _ENTRIES.items() for size in e.domain.spec.sizes for s in SPLITS]


# --- by name, for callers that hold one: svot.problem_gen takes the domain object ---------------------------
def generate(name: str, size: int, split: str, rng: np.random.Generator, **kwargs: Any) -> Generated:
    """:func:`svot.problem_gen.generate` for the domain called ``name``."""
    return problem_gen.generate(get_domain(name), size, split, rng, **kwargs)


def solve(name: str, problem_or_state: Problem | dict, **kwargs: Any) -> list[int] | None:
    """:func:`svot.problem_gen.solve` for the domain called ``name``."""
    return problem_gen.solve(get_domain(name), problem_or_state, **kwargs)


def sampling_params(name: str, size: int, split: str, **kwargs: Any) -> dict:
    """:func:`svot.problem_gen.sampling_params` for the domain called ``name``."""
    return problem_gen.sampling_params(get_domain(name), size, split, **kwargs)


def plan_length_floor(name: str, state: dict) -> int:
    """:func:`svot.problem_gen.plan_length_floor` for the domain called ``name``."""
    return problem_gen.plan_length_floor(get_domain(name), state)


class _Table5(_RegistryView):
    """``PARAMS``: name -> ``{"sizes": ..., **spec.table5}``, read off the registry on each access."""

    def __getitem__(self, name: str) -> dict[str, Any]:
        spec = _ENTRIES[name].domain.spec
        return {"sizes": tuple(spec.sizes), **spec.table5}


PARAMS: Mapping[str, dict[str, Any]] = _Table5()

__all__ = [
    "DOMAINS", "PARAMS", "SPECS", "Entry", "entry", "env_id", "generate",
    "get_domain", "get_spec", "max_episode_steps", "names", "plan_length_floor", "register", "registered_ids",
    "sampling_params", "solve", "unregister",
]
