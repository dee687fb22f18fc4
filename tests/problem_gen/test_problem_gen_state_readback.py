"""generate()'s state dict is the one read from the problem's whole init (the faster read skips only grid statics)."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import get_spec
from svot.problem_gen import generate

DOMAINS = ("maze", "frozenlake", "sokoban", "pacman", "gather")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("split", ["id", "ood"])
def test_state_is_read_from_the_whole_init(domain, split):
    spec = get_spec(domain)
    for size in spec.sizes:
        rng = np.random.default_rng([size, split == "ood"])
        for _ in range(40 if domain == "sokoban" else 150):
            g = generate(domain, size, split, rng, plan=False)
            assert g.state == spec.state_dict(g.problem.init, size)
            assert g.state == spec.state_dict(sorted(g.problem.init), size)
