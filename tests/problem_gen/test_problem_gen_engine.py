"""The generator's shared grounding steps exactly like a per-problem grounded engine."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import generate, get_spec
from svot.engine import make_engine
from svot.pddl import load_domain
from svot.problem_gen.grounding import shared_grounding

CASES = [("maze", 7), ("frozenlake", 6), ("sokoban", 6), ("sokoban", 4), ("pacman", 6), ("gather", 6), ("gather", 4)]


@pytest.mark.parametrize("domain,size", CASES)
def test_shared_grounding_matches_fresh_engine(domain, size):
    spec = get_spec(domain)
    pddl_domain = load_domain(spec.pddl)
    rng = np.random.default_rng(7)
    grounding = shared_grounding(get_spec(domain), size)
    n = spec.n_actions(size)
    for k, split in enumerate(("id", "ood", "id", "ood")):
        g = generate(domain, size, split, rng)
        bound = grounding.bind(g.problem)
        engine = make_engine("grounded", pddl_domain, g.problem, spec.internal)
        s, e = bound.init, engine.initial()
        assert bound.atoms(s) == engine.true_atoms(e)
        # a random walk with the plan spliced in, so goal states are visited too
        actions = [int(a) for a in rng.integers(n, size=600)]
        actions = actions[:300] + list(g.plan) + actions[300:] if k % 2 else list(g.plan) + actions
        for i, a in enumerate(actions):
            s, applied = grounding.stepper.step(s, a)
            e, applied_e = engine.step(e, spec.action_key(a, size))
            assert applied == applied_e, (g.problem.name, i, a)
            assert bound.atoms(s) == engine.true_atoms(e), (g.problem.name, i, a)
            assert bound.is_goal(s) == engine.is_goal(e)


def test_bind_rejects_a_problem_of_another_size():
    from svot.errors import ProblemError

    g = generate("maze", 5, "id", np.random.default_rng(0))
    with pytest.raises(ProblemError, match="5x5|6x6"):
        shared_grounding(get_spec("maze"), 6).bind(g.problem)
