"""svot.problem_gen for a domain registered from outside (the toy lamps domain, issue 17).

``solve`` once fell through to Gather's solver for any domain it did not name
(``KeyError: 'balls'``); a domain without a solver of its own is now solved by
breadth-first search on the grounded engine. ``generate``, ``sampling_params``
and ``PARAMS`` read the registered generator and sizes.
"""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import PARAMS, generate, get_spec, sampling_params, solve
from svot.kernel.grid import cell_name
from svot.errors import ConfigError
from svot.extend import register_domain, unregister_domain
from svot.problem_gen import Generated
from tests.toy_domain.lamps import LampsGenerator, LampsSpec


@pytest.fixture
def lamps():
    register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield get_spec("lamps")
    unregister_domain("lamps")


def replays_to_goal(spec, problem, plan) -> bool:
    engine = spec.make_engine(problem)
    size = spec.size_of(problem)
    s = engine.initial()
    for a in plan:
        s, applied = engine.step(s, spec.action_key(a, size))
        if not applied:
            return False
    return engine.is_goal(s)


def test_generate_and_params(lamps):
    g = generate("lamps", 4, "ood", np.random.default_rng(3))
    assert isinstance(g, Generated) and g.domain == "lamps" and len(g.state["lamps"]) == 3
    assert replays_to_goal(lamps, g.problem, g.plan)
    assert PARAMS["lamps"] == {"sizes": (4, 5)} and "lamps" in PARAMS
    assert sampling_params("lamps", 5, "id") == {}  # the toy generator declares none


@pytest.mark.parametrize("split", ["id", "ood"])
def test_solve_is_breadth_first_on_the_engine(lamps, split):
    for seed in range(5):
        g = generate("lamps", 5, split, np.random.default_rng(seed))
        plan = solve("lamps", g.problem)
        assert replays_to_goal(lamps, g.problem, plan)
        assert len(plan) == len(g.plan)  # both shortest: the generator's plan is a BFS too
        assert solve("lamps", g.state) == plan


def test_solve_says_when_there_is_no_plan(lamps):
    # the goal asks to light a cell that is no lamp: no action lights it
    state = {"domain": "lamps", "size": 4, "player": [0, 0], "lamps": [[2, 2]], "lit": []}
    init = [("at", cell_name((0, 0))), ("lamp", cell_name((2, 2)))]
    problem = lamps.problem(4, "lamps-unsolvable", init, [("lit", cell_name((3, 3)))])
    assert solve("lamps", problem) is None
    assert solve("lamps", state) is not None  # the same layout with its own goal is solvable


def test_unregister_removes_the_generator():
    register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    unregister_domain("lamps")
    assert "lamps" not in PARAMS
    with pytest.raises(ConfigError, match="unknown domain 'lamps'"):
        generate("lamps", 4, "id", np.random.default_rng(0))
