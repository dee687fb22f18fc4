"""SharedGroundedEngine (one grounding per domain and size) against the per-problem GroundedEngine."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.engine import GroundedEngine
from svot.engine.grounded import SharedGroundedEngine, set_bits, shared_grounding
from svot.errors import ProblemError
from svot.pddl import load_domain


def _shared(domain: str, size: int):
    spec = get_spec(domain)
    dom = load_domain(spec.pddl)
    return shared_grounding(
        dom, spec.base_objects(size), [a for a in spec.base_atoms(size) if a[0] in dom.static_predicates], spec.internal
    )


@pytest.mark.parametrize("domain,size", [("maze", 5), ("frozenlake", 6), ("sokoban", 6), ("pacman", 4), ("gather", 6)])
@pytest.mark.parametrize("split", ["id", "ood"])
def test_shared_engine_agrees_with_grounded_engine(domain, size, split):
    spec = get_spec(domain)
    dom = load_domain(spec.pddl)
    shared = _shared(domain, size)
    rng = np.random.default_rng(11)
    n_actions = spec.n_actions(size)
    keys = [spec.action_key(a, size) for a in range(n_actions)]
    for _ in range(4):
        problem = generate(domain, size, split, rng).problem
        g, s = GroundedEngine(dom, problem, spec.internal), SharedGroundedEngine(shared, problem)
        a, b = g.initial(), s.initial()
        assert g.true_atoms(a) == s.true_atoms(b)
        for _ in range(300):
            k = keys[rng.integers(n_actions)]
            a, ok_a = g.step(a, k)
            b, ok_b = s.step(b, k)
            assert ok_a == ok_b
            assert g.true_atoms(a) == s.true_atoms(b)
            assert g.is_goal(a) == s.is_goal(b)
        assert g.atom_strings(a) == s.atom_strings(b)
        assert [x.name for x in g.trace(a, keys[0])[1]] == [x.name for x in s.trace(b, keys[0])[1]]


def test_shared_grounding_is_cached_and_refuses_other_grids():
    assert _shared("sokoban", 5) is _shared("sokoban", 5)
    other = generate("sokoban", 4, "id", np.random.default_rng(0)).problem
    with pytest.raises(ProblemError, match="does not share"):
        SharedGroundedEngine(_shared("sokoban", 5), other)


def test_set_bits():
    assert set_bits(0) == []
    for x in (1, 2, 5, 1 << 70 | 3, (1 << 400) - 1):
        assert set_bits(x) == [i for i in range(x.bit_length()) if x >> i & 1]
