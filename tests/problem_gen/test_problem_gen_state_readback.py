"""generate()'s state dict is the one read from the problem's whole init (the faster read skips only grid statics)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from svot.domains import DOMAINS as ALL_DOMAINS, generate, get_spec
from svot.problem_gen.common import layout_json

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


@pytest.mark.parametrize("domain", ALL_DOMAINS)
def test_problem_names_hash_the_layouts_json_dumps_text(domain):
    """A problem's name ends in the digest of ``json.dumps(layout, sort_keys=True, separators=(",", ":"))``;
    the kept encoder (svot.problem_gen.common.layout_json) must write that very text."""
    spec = get_spec(domain)
    rng = np.random.default_rng(11)
    for size in spec.sizes:
        for split in ("id", "ood"):
            state = generate(domain, size, split, rng, plan=False).state
            assert layout_json(state) == json.dumps(state, sort_keys=True, separators=(",", ":"))
    odd = {"b": [1, 2.5, None, True], "a": {"é": "ü", "z": [[0, -1]]}}
    assert layout_json(odd) == json.dumps(odd, sort_keys=True, separators=(",", ":"))
