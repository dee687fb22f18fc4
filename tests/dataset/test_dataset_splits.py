"""Splits: sizes, lengths, disjointness, balanced letters, and replay of every instance in the env."""

from __future__ import annotations

import json
from collections import Counter

import gymnasium as gym
import pytest

import svot  # noqa: F401 - registers the envs
from svot.dataset import SPLIT_NAMES, SPLITS, TABLE5_PREDICTIONS, iter_split, plan_maps, predictions
from svot.dataset.instance import layout_key
from svot.dataset.spec import LENGTHS, correct_letters, lengths_for, split_entropy
from svot.domains import env_id, get_spec

SMALL = {"train": 6, "val": 3, "test_id": 3, "test_ood": 3}


def test_table5_as_data():
    assert len(TABLE5_PREDICTIONS) == 15
    assert TABLE5_PREDICTIONS[("sokoban", 5)] == {"train": 7146, "val": 936, "test_id": 1864, "test_ood": 2704}
    assert LENGTHS[7] == {"id": (6, 11), "ood": (12, 14)}
    assert [SPLITS[s].instances for s in SPLIT_NAMES] == [500, 60, 120, 120]
    assert predictions(500, 3000) == 6500
    # Table 5's figures are instances + 2 x steps: odd minus instances is even
    for figures in TABLE5_PREDICTIONS.values():
        for split, p in figures.items():
            assert (p - SPLITS[split].instances) % 2 == 0


def test_entropy_is_fixed_and_splits_differ():
    # sha256-derived, never hash(): a fixed value across processes and versions of Python
    assert split_entropy(0, "sokoban", 5, "train") == 0xBF0CDDC0E4BBD754A2352BCD10A8CEB5
    values = {split_entropy(s, d, n, sp) for s in (0, 1) for d in ("maze", "sokoban") for n in (5, 6) for sp in SPLIT_NAMES}
    assert len(values) == 2 * 2 * 2 * 4


@pytest.mark.parametrize("n", [1, 7, 120, 500])
def test_correct_letters_balanced(n):
    letters = correct_letters(0, "maze", 5, "test_id", n)
    counts = Counter(letters)
    assert max(counts.values()) - min(counts.get(i, 0) for i in range(4)) <= 1
    assert letters == correct_letters(0, "maze", 5, "test_id", n)


def test_real_split_sizes_and_disjoint_maps():
    """Paper-size splits of one domain/size: 100/30/60/60 maps, 500/60/120/120 instances, no map twice."""
    plans = plan_maps("frozenlake", 4, seed=0)
    assert {s: len(v) for s, v in plans.items()} == {"train": 100, "val": 30, "test_id": 60, "test_ood": 60}
    keys = [layout_key(p.generated.state) for v in plans.values() for p in v]
    assert len(keys) == len(set(keys)) == 250
    counts = {}
    for split in SPLIT_NAMES:
        insts = list(iter_split("frozenlake", 4, split, seed=0))
        counts[split] = len(insts)
        assert len({i.id for i in insts}) == len(insts)
        assert len({(i.map_index, tuple(i.actions)) for i in insts}) == len(insts)
        lo, hi = lengths_for(4, SPLITS[split].distribution)
        assert all(lo <= i.n_steps <= hi for i in insts)
        letters = Counter(i.correct for i in insts)
        assert max(letters.values()) - min(letters.values()) <= 1
        for i in insts:  # a sequence that ended early stopped on the step that ended the episode
            if i.ended_early:
                assert i.final_state["status"] in ("fell", "reached") and i.n_steps < i.drawn_length
            assert all(s.state["status"] == "running" for s in i.steps[:-1])
        if split == "train":
            assert any(i.ended_early and i.final_state["status"] == "fell" for i in insts)
            assert sum(i.sequence_kind == "plan" for i in insts) > 0
    assert counts == {"train": 500, "val": 60, "test_id": 120, "test_ood": 120}


@pytest.mark.parametrize("domain", ["maze", "frozenlake", "sokoban", "pacman", "gather"])
def test_instances_replay_in_env(domain):
    size = get_spec(domain).sizes[0]
    seen_layouts: dict[str, str] = {}
    for split in SPLIT_NAMES:
        insts = list(iter_split(domain, size, split, seed=5, maps_per_split=SMALL))
        assert len(insts) == SMALL[split] * SPLITS[split].sequences
        lo, hi = lengths_for(size, SPLITS[split].distribution)
        env = gym.make(env_id(domain, size, SPLITS[split].distribution)).unwrapped
        for inst in insts:
            key = layout_key(inst.initial_state)
            assert seen_layouts.setdefault(key, split) == split, f"map in {seen_layouts[key]} and {split}"
            assert lo <= inst.n_steps <= hi
            _obs, info = env.reset(options={"problem": inst.problem.to_pddl()})
            assert info["state"] == inst.initial_state
            for k, step in enumerate(inst.steps):
                _obs, _r, terminated, _t, info = env.step(step.action)
                assert info["state"] == step.state
                assert info["applicable"] == step.applicable
                assert info["state_text"] == step.state_text
                if terminated and domain == "frozenlake":
                    assert k == len(inst.steps) - 1, "a FrozenLake sequence stops at its terminal step"
            assert inst.goal == {f: info["state"][f] for f in inst.goal}
            if inst.sequence_kind == "plan":
                assert split == "train" and env.engine.is_goal(env._state)


def test_iter_split_is_deterministic_and_lazy():
    gen = iter_split("pacman", 4, "val", seed=2, maps_per_split=SMALL)
    first = next(gen)
    again = next(iter_split("pacman", 4, "val", seed=2, maps_per_split=SMALL))
    assert (first.id, first.actions, first.choices) == (again.id, again.actions, again.choices)
    other = next(iter_split("pacman", 4, "val", seed=3, maps_per_split=SMALL))
    assert json.dumps(other.initial_state) != json.dumps(first.initial_state)
