"""Differential test: the compiled engine against PDDLGym's successor function.

For every domain, size and split, 10,000 random steps (inapplicable actions
included) run through both engines from the same generated problems, and the
atoms, the applicability, the reward (goal) and the termination (goal or
failure) must agree at every step. The walk goes on past a terminal state
(the PDDL still defines what happens there: nothing, for an absorbing one).

PDDLGym needs 3–10 ms per step on the larger grids, so its answer for a
(problem, state, action) triple already checked is reused: the domains are
deterministic, so that is the same answer, and every distinct transition the
walk meets is still computed by PDDLGym once. The test reports how many
distinct transitions PDDLGym computed.

Where nearly every step is a new transition (many actions, many reachable
states: the multi-cell-move domain at sizes 5 and 6), a walk on one problem
also ends once PDDLGym has computed ``DISTINCT_PER_PROBLEM`` new transitions, so
that the cell still covers all its problems in well under a minute (those cells
took 40–90 s of one core each at 10,000 steps, the largest share of CI's time).
Every cell still checks at least ``MIN_STEPS`` steps on all ``PROBLEMS`` problems.
"""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import DOMAINS, SPECS, generate, get_spec

pytestmark = pytest.mark.pddlgym  # the reference engine is the other side of every comparison

STEPS = 10_000
PROBLEMS = 20  # 500 steps on each: long walks revisit states, which the memo below serves
DISTINCT_PER_PROBLEM = 150  # new PDDLGym transitions per problem before its walk ends
MIN_STEPS = 2_400
CASES = [(d, n, s) for d in DOMAINS for n in SPECS[d].sizes for s in ("id", "ood")]  # every built-in domain


@pytest.mark.slow
@pytest.mark.parametrize("domain,size,split", CASES)
def test_grounded_matches_pddlgym(domain, size, split):
    spec = get_spec(domain)
    rng = np.random.default_rng([size, ord(split[0]), sum(map(ord, domain))])
    keys = [spec.action_key(a, size) for a in range(spec.n_actions(size))]
    steps = distinct = problems = inapplicable = 0
    for _ in range(PROBLEMS):
        problem = generate(domain, size, split, rng).problem
        problems += 1
        fast = spec.make_engine(problem, "grounded")
        ref = spec.make_engine(problem, "pddlgym")
        memo: dict = {}
        sf, sr = fast.initial(), ref.initial()
        assert fast.true_atoms(sf) == ref.true_atoms(sr)
        new_here = 0
        for _ in range(STEPS // PROBLEMS):
            if new_here >= DISTINCT_PER_PROBLEM:
                break
            a = int(rng.integers(len(keys)))
            sf, applied = fast.step(sf, keys[a])
            hit = memo.get((sr.literals, a))
            if hit is None:
                nxt, ref_applied = ref.step(sr, keys[a])
                hit = memo[(sr.literals, a)] = (nxt, ref_applied, ref.true_atoms(nxt), ref.is_goal(nxt))
                distinct += 1
                new_here += 1
            sr, ref_applied, ref_atoms, ref_goal = hit
            steps += 1
            inapplicable += not applied
            assert applied == ref_applied, (problem.name, steps, keys[a])
            assert fast.true_atoms(sf) == ref_atoms, (problem.name, steps, keys[a])
            assert fast.is_goal(sf) == ref_goal
            failed_fast = spec.is_failure(spec.state_dict(fast.true_atoms(sf), size))
            assert failed_fast == spec.is_failure(spec.state_dict(ref_atoms, size))
    assert MIN_STEPS <= steps <= STEPS and inapplicable > 0
    print(f"{domain} {size}x{size} {split}: {steps} steps on {problems} problems, "
          f"{distinct} distinct transitions computed by PDDLGym, {inapplicable} inapplicable")
