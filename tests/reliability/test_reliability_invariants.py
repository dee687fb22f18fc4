"""Invariants of every domain under stateful property tests (hypothesis ``RuleBasedStateMachine``).

One machine per domain drives the single env (any Table 5 size, either split, any seed)
with arbitrary actions, resets, and reloads of the current state through PDDL text, and
checks after every step:

* the player stands inside the grid, never on a wall (nor, in Sokoban, on a block);
* blocks, coins and balls are conserved: on the grid + collected is constant, per colour in
  Gather; collected counts never decrease; walls, holes, goals and the start never move;
* a move goes in its direction by its distance, or (inapplicable) leaves the state,
  the observation and the description exactly unchanged; FrozenLake's holes are absorbing;
* ``parse(describe(state)) == state`` and ``info["state_text"]`` is that description;
* the observation's bits are the spec's ``cell_kinds``; rendering the state and perceiving
  the image gives back its label grid.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

import svot  # noqa: F401
from svot.domains import SPECS, env_id
from svot.kernel.grid import DELTAS, DIRECTIONS
from svot.render.image import render_state
from svot.render.labels import label_grid
from svot.render.perceive import read_labels
from svot.render.text import describe, parse

# The fast lane plays 8 random runs per domain; the slow lane 30 more (the full suite plays both).
FAST_EXAMPLES, SLOW_EXAMPLES = 8, 30


def _settings(examples: int):
    return settings(max_examples=examples, stateful_step_count=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


STATS = {"steps": 0, "inapplicable": 0, "reloads": 0, "resets": 0, "pixel_checks": 0}
_ENVS: dict = {}


def _env(domain: str, size: int, split: str):
    key = (domain, size, split)
    if key not in _ENVS:
        _ENVS[key] = gym.make(env_id(domain, size, split)).unwrapped
    return _ENVS[key]


def _cells(state: dict, key: str) -> set:
    return {tuple(c) for c in state.get(key, [])}


def _balls(state: dict) -> dict:
    return {c: {tuple(x) for x in cs} for c, cs in state["balls"].items()}


def _move_of(domain: str, action: int) -> tuple[str, int]:
    if domain == "gather":
        k, d = divmod(action, 4)
        return DIRECTIONS[d], k + 1
    return DIRECTIONS[action], 1


def _machine(domain: str) -> type:
    spec = SPECS[domain]

    class Machine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.env = None
            self.state = None
            self.first = None

        def _adopt(self, obs, info) -> None:
            self.obs, self.info = obs, info
            self.state = info["state"]

        @initialize(size=st.sampled_from(spec.sizes), split=st.sampled_from(["id", "ood"]), seed=st.integers(0, 2**32 - 1))
        def start(self, size, split, seed):
            self.env = _env(domain, size, split)
            self._adopt(*self.env.reset(seed=seed))
            self.first = self.state
            STATS["resets"] += 1

        @rule(actions=st.lists(st.integers(0, 4 * 11 - 1), min_size=1, max_size=6))
        def steps(self, actions):
            for a in actions:
                self._step(a % self.env.action_space.n)
                self.player_inside_and_not_on_a_wall()
                self.totals_conserved_and_statics_fixed()
                self.text_round_trip()

        def _step(self, action):
            before, before_obs, before_text = self.state, self.obs, self.info["state_text"]
            obs, _r, _term, _trunc, info = self.env.step(action)
            self._adopt(obs, info)
            STATS["steps"] += 1
            after = self.state
            if not info["applicable"]:
                STATS["inapplicable"] += 1
                assert after == before and np.array_equal(obs, before_obs) and info["state_text"] == before_text
                return
            direction, dist = _move_of(domain, action)
            dr, dc = DELTAS[direction]
            (r0, c0), (r1, c1) = before["player"], after["player"]
            assert (r1, c1) in {(r0 + dr * dist, c0 + dc * dist), (r0, c0)}, (before, action, after)
            if domain == "frozenlake":
                assert before["status"] == "running", "a move applied after the episode ended in a hole or the goal"
            if domain == "sokoban":
                moved = _cells(before, "blocks") ^ _cells(after, "blocks")
                assert not moved or moved == {(r1, c1), (r1 + dr, c1 + dc)}, "a push moves one block one cell"
            if domain == "pacman":
                assert after["collected"] - before["collected"] == len(_cells(before, "coins") - _cells(after, "coins"))
                assert _cells(after, "coins") <= _cells(before, "coins")
            if domain == "gather":
                for c in after["balls"]:
                    gone = _balls(before)[c] - _balls(after)[c]
                    assert after["collected"][c] - before["collected"][c] == len(gone)
                    assert _balls(after)[c] <= _balls(before)[c]

        @rule(seed=st.integers(0, 2**32 - 1))
        def reset(self, seed):
            self._adopt(*self.env.reset(seed=seed))
            self.first = self.state
            STATS["resets"] += 1

        @precondition(lambda self: self.env is not None)
        @rule()
        def reload_through_pddl_text(self):
            """The current state, written as a PDDL problem and loaded by reset, is the same state."""
            problem = spec.problem_from_state(self.state, "reload")
            obs, info = self.env.reset(options={"problem": problem.to_pddl()})
            STATS["reloads"] += 1
            if domain in ("pacman", "gather"):  # a problem has no "collected so far": it starts at 0
                assert info["state"]["player"] == self.state["player"]
                key = "coins" if domain == "pacman" else "balls"
                assert info["state"][key] == self.state[key]
            else:
                assert info["state"] == self.state and np.array_equal(obs, self.obs)
            self._adopt(obs, info)
            self.first = self.state

        @invariant()
        def player_inside_and_not_on_a_wall(self):
            if self.state is None:
                return
            n, (r, c) = self.state["size"], self.state["player"]
            assert 0 <= r < n and 0 <= c < n
            assert (r, c) not in _cells(self.state, "walls")
            if domain == "sokoban":
                assert (r, c) not in _cells(self.state, "blocks")
                assert not _cells(self.state, "blocks") & _cells(self.state, "walls")
                assert all(0 <= x < n and 0 <= y < n for x, y in _cells(self.state, "blocks"))

        @invariant()
        def totals_conserved_and_statics_fixed(self):
            if self.state is None:
                return
            s, f = self.state, self.first
            for key in ("walls", "holes", "goal", "goals", "start"):
                assert s.get(key) == f.get(key), key
            if domain == "sokoban":
                assert len(s["blocks"]) == len(f["blocks"])
            if domain == "pacman":
                assert s["collected"] + len(s["coins"]) == s["total"] == f["total"] == f["collected"] + len(f["coins"])
                assert s["collected"] >= f["collected"]
            if domain == "gather":
                for c in f["balls"]:
                    assert len(s["balls"][c]) + s["collected"][c] == len(f["balls"][c]) + f["collected"][c]
                    assert s["collected"][c] >= f["collected"][c]
            if domain == "frozenlake" and f["status"] == "running":
                assert s["status"] in ("running", "fell", "reached")

        @invariant()
        def text_round_trip(self):
            if self.state is None:
                return
            text = describe(spec, self.state)
            assert self.info["state_text"] == text
            assert parse(spec, text) == self.state

        @invariant()
        def observation_and_pixels_show_the_state(self):
            if self.state is None:
                return
            want = np.zeros_like(self.obs)
            for cell, kinds in spec.cell_kinds(self.state).items():
                for k in kinds:
                    want[cell] |= 1 << spec.kinds.index(k)
            assert np.array_equal(self.obs, want)
            n = self.state["size"]
            image = render_state(spec, self.state, self.env.image_size)
            assert read_labels(spec, image, n) == label_grid(spec, self.state)
            STATS["pixel_checks"] += 1

    Machine.__name__ = f"{spec.title}Invariants"
    return Machine


@pytest.mark.parametrize("domain", sorted(SPECS))
def test_domain_invariants_under_random_play(domain):
    run_state_machine_as_test(_machine(domain), settings=_settings(FAST_EXAMPLES))


@pytest.mark.slow
@pytest.mark.parametrize("domain", sorted(SPECS))
def test_domain_invariants_under_longer_random_play(domain):
    run_state_machine_as_test(_machine(domain), settings=_settings(SLOW_EXAMPLES))


def test_frozenlake_holes_are_absorbing():
    """Once in a hole, every action is inapplicable and nothing changes (checked on real maps)."""
    env = _env("frozenlake", 4, "ood")
    seen = 0
    for seed in range(40):
        _obs, info = env.reset(seed=seed)
        holes = [tuple(h) for h in info["state"]["holes"]]
        r, c = info["state"]["player"]
        for a, (dr, dc) in ((a, DELTAS[d]) for a, d in enumerate(DIRECTIONS)):
            if (r + dr, c + dc) in holes:
                _o, _rw, term, _tr, info = env.step(a)
                assert term and info["state"]["status"] == "fell"
                fell = info["state"]
                for b in range(4):
                    _o, _rw, _t, _tr, info = env.step(b)
                    assert not info["applicable"] and info["state"] == fell
                seen += 1
                break
    assert seen >= 5
