"""A spec's ``failure_atoms`` pattern, tested on state bits, says what its ``is_failure`` says.

The env asks the bits (svot.envs.failure) instead of building a state dict in dead ends; these
tests hold that shortcut to the spec's own verdict on every state random play reaches, and to the
env's episodes with the shortcut turned off.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import svot  # noqa: F401  (registers the ids)
from svot.domains import DOMAINS, SPECS, env_id, generate
from svot.envs.base import SVoTEnv
from svot.envs.failure import any_full, failure_masks

DECLARED = [d for d in DOMAINS if SPECS[d].failure_atoms]


def test_some_domain_declares_a_failure_pattern():
    assert "frozenlake" in DECLARED


@pytest.mark.parametrize("domain", DECLARED)
@pytest.mark.parametrize("split", ["id", "ood"])
def test_masks_agree_with_is_failure_on_random_play(domain, split):
    spec = SPECS[domain]
    rng = np.random.default_rng(5)
    failures = states = 0
    for size in spec.sizes:
        for _ in range(15):
            problem = generate(domain, size, split, rng, plan=False).problem
            engine = spec.make_engine(problem, "grounded")
            masks = failure_masks(spec.failure_atoms, engine.task.bit)
            assert masks is not None
            keys = [spec.action_key(a, size) for a in range(spec.n_actions(size))]
            for _episode in range(4):
                state = engine.initial()
                for _ in range(40):
                    atoms = engine.state_atoms(state) if hasattr(engine, "state_atoms") else engine.true_atoms(state)
                    want = spec.is_failure(spec.state_dict(atoms, size))
                    assert any_full(state, masks) == want, (problem.name, sorted(atoms))
                    states += 1
                    failures += want
                    state, _ = engine.step(state, keys[int(rng.integers(len(keys)))])
    assert failures > 20 and states - failures > 100  # both verdicts were met


@pytest.mark.parametrize("domain", DECLARED)
def test_env_episodes_are_the_same_without_the_shortcut(domain, monkeypatch):
    size = max(SPECS[domain].sizes)
    actions = np.random.default_rng(1).integers(SPECS[domain].n_actions(size), size=3000).tolist()

    def play():
        env = gym.make(env_id(domain, size))
        env.reset(seed=3)
        out = []
        for a in actions:
            _, reward, terminated, truncated, info = env.step(a)
            out.append((reward, terminated, truncated, info["applicable"], info["is_success"]))
            if terminated or truncated:
                env.reset()
        return out

    with_masks = play()
    monkeypatch.setattr(SVoTEnv, "_failure_masks", lambda self: None)
    without = play()
    assert with_masks == without
    assert sum(1 for r, t, *_ in with_masks if t and r == 0.0) > 10  # failures did end episodes


def test_masks_need_a_full_table():
    bit = {("at", "a"): 1, ("at", "b"): 2, ("hole", "a"): 4, ("hole", "b"): 8}
    assert failure_masks((("at", "?x"), ("hole", "?x")), bit) == (5, 10)
    # (hole b) missing: a folded static might be true there, so the bits cannot answer
    assert failure_masks((("at", "?x"), ("hole", "?x")), {k: v for k, v in bit.items() if k != ("hole", "b")}) is None
    assert failure_masks((("at", "?x"), ("lava", "?x")), bit) is None
    assert failure_masks((), bit) is None
    assert any_full(5, (5, 10)) and any_full(15, (5, 10)) and not any_full(6, (5, 10))
