"""Issue 13, class 5: a problem is checked against its domain before an env adopts it.

The check (:func:`svot.envs.problem_check.check_problem`) is derived from the
PDDL (types, predicates, arities), the spec's grid and its declared invariants
(exactly one ``at``), so the same faults are refused in every domain, by the
single env and the vector env alike, with a ProblemError naming the problem and
the fact; a refused problem leaves the env as it was.
"""

from __future__ import annotations

import dataclasses

import gymnasium as gym
import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.errors import ProblemError
from svot.pddl import Problem, load_domain

DOMAINS = {"maze": 5, "frozenlake": 4, "sokoban": 4, "pacman": 4, "gather": 4}
EIDS = {"maze": "Maze", "frozenlake": "FrozenLake", "sokoban": "Sokoban", "pacman": "Pacman", "gather": "Gather"}


def _problem(domain: str, size: int, seed: int = 1) -> Problem:
    return generate(domain, size, "id", np.random.default_rng(seed), allow_any_size=True).problem


def _player(p: Problem) -> tuple:
    return next(a for a in p.init if a[0] == "at")


def _free_cell(p: Problem, size: int) -> str:
    """A cell other than the player's (for a second player)."""
    return next(f"c_{r}_{c}" for r in range(size) for c in range(size) if f"c_{r}_{c}" != _player(p)[1])


def _faults(p: Problem, size: int) -> dict:
    """name -> (bad problem, words its error must hold)."""
    at = _player(p)
    init = p.init - {at}
    return {
        "player-outside-grid": (dataclasses.replace(p, objects=p.objects + (("c_9_9", "cell"),),
                                                    init=init | {("at", "c_9_9")}), ("c_9_9", "not part of the")),
        "two-players": (dataclasses.replace(p, init=p.init | {("at", _free_cell(p, size))}), ("exactly one (at", "holds 2")),
        "no-player": (dataclasses.replace(p, init=init), ("exactly one (at", "holds 0")),
        "player-on-a-direction": (dataclasses.replace(p, init=init | {("at", "up")}), ("(at up)", "is a direction")),
        "undeclared-object": (dataclasses.replace(p, init=p.init | {("at", "c_x")}), ("(at c_x)", "not a declared object")),
        "unknown-predicate": (dataclasses.replace(p, init=p.init | {("teleport", "c_0_0")}), ("teleport",)),
        "wrong-arity": (dataclasses.replace(p, goal=p.goal + (("at",),)), ("(at)", "takes 1")),
        # action atoms belong in :init in standard PDDL (issue 20), but never in the goal
        "action-literal-in-goal": (dataclasses.replace(p, goal=p.goal + (("move", "up"),)), ("(move up)",)),
        "grid-cell-missing": (dataclasses.replace(p, objects=tuple(o for o in p.objects if o[0] != f"c_{size - 1}_{size - 1}")),
                              (f"c_{size - 1}_{size - 1}",)),
        "duplicate-object": (dataclasses.replace(p, objects=p.objects + (p.objects[0],)), ("declared twice",)),
    }


FAULTS = list(_faults(_problem("maze", 5), 5))


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_generated_problems_pass(domain):
    """The check refuses nothing the generators make (both distributions)."""
    from svot.envs.problem_check import check_problem

    spec, pddl = get_spec(domain), load_domain(get_spec(domain).pddl)
    for split in ("id", "ood"):
        for seed in range(3):
            n = DOMAINS[domain] + (1 if split == "ood" else 0)
            check_problem(generate(domain, n, split, np.random.default_rng(seed), allow_any_size=True).problem,
                          spec, pddl, n)


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("domain", list(DOMAINS))
@pytest.mark.parametrize("form", ["object", "text"])
def test_a_bad_problem_is_refused_and_the_env_keeps_its_own(domain, fault, form):
    size = DOMAINS[domain]
    env = gym.make(f"SVoT/{EIDS[domain]}-{size}x{size}-v0").unwrapped
    env.reset(seed=0)
    before_problem, before_state = env.problem, env.state
    bad, words = _faults(_problem(domain, size), size)[fault]
    if form == "text":  # through the PDDL parser: its PDDLError or the check's ProblemError, both ValueErrors
        with pytest.raises(ValueError) as err:
            env.reset(options={"problem": bad.to_pddl()})
        assert type(err.value).__name__ in ("PDDLError", "ProblemError")
        msg = str(err.value)
    else:
        with pytest.raises(ProblemError) as err:
            env.reset(options={"problem": bad})
        msg = str(err.value)
        assert bad.name in msg, msg
        for w in words:
            assert w in msg, msg
    assert "Traceback" not in msg and "IndexError" not in msg
    assert env.problem is before_problem and env.state == before_state
    env.step(0)  # the env still works on its own problem


@pytest.mark.parametrize("fault", FAULTS)
def test_single_and_vector_envs_refuse_alike(fault):
    bad, _words = _faults(_problem("maze", 5), 5)[fault]
    env = gym.make("SVoT/Maze-5x5-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(ProblemError) as single:
        env.reset(options={"problem": bad})
    with pytest.raises(ProblemError) as vector:
        gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, problems=[_problem("maze", 5), bad])
    assert str(single.value) == str(vector.value)


def test_a_good_problem_after_a_refused_one_is_adopted():
    p = _problem("maze", 5, seed=7)
    env = gym.make("SVoT/Maze-5x5-v0").unwrapped
    env.reset(seed=0)
    with pytest.raises(ProblemError):
        env.reset(options={"problem": _faults(p, 5)["two-players"][0]})
    env.reset(options={"problem": p})
    assert env.problem is p
