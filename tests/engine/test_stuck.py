"""``Engine.stuck`` (verdicts kept by the bits the pivot's ground actions read) agrees with stepping every action."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import generate, get_spec

DOMAINS = ["frozenlake", "sokoban", "maze", "pacman", "gather", "regularmaze", "questmaze", "questmaze5"]


@pytest.mark.parametrize("domain", DOMAINS)
def test_stuck_agrees_with_step(domain):
    spec = get_spec(domain)
    size = spec.sizes[0]
    keys = tuple(dict.fromkeys(spec.action_key(a, size) for a in range(spec.n_actions(size))))
    rng = np.random.default_rng(3)
    checked = stuck_seen = 0
    for _ in range(12):
        engine = spec.make_engine(generate(domain, size, "id", rng).problem)
        state = engine.initial()
        for _ in range(60):
            expected = not any(engine.step(state, k)[1] for k in keys)
            assert engine.stuck(state, keys) == expected
            assert engine.stuck(state, keys) == expected  # the kept verdict
            checked += 1
            stuck_seen += expected
            if expected:
                break
            state = engine.step(state, keys[int(rng.integers(len(keys)))])[0]
    assert checked > 100
    if domain == "frozenlake":
        assert stuck_seen  # holes are dead ends: both verdicts were exercised
