"""Differential test on hypothesis-drawn problems: the compiled engine against PDDLGym.

The generated problems of ``test_differential.py`` all come from the Table 5
samplers, so they share their habits (solvable, walls where mazes put them).
Here hypothesis draws any layout a domain's state dict can describe: walls
anywhere, blocks in corners or on goal squares, more goals than blocks, boxed-in
players, coins and balls of every colour anywhere, unsolvable or not, on every
size from 2×2 up to 6×6. Both engines step the same drawn action sequence, and
the atoms, the applicability, the goal and the failure must agree at every step.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svot.domains import get_spec
from svot.domains.gather import colours_for

pytestmark = pytest.mark.pddlgym  # the reference engine is the other side of every comparison

DOMAINS = ("maze", "frozenlake", "sokoban", "pacman", "gather")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def layouts(draw, domain: str):
    """A state dict of ``domain`` on a drawn size: each cell gets a role, the player one free cell."""
    size = draw(st.integers(2, 6))
    n = size * size
    player = draw(st.integers(0, n - 1))
    cell = lambda i: [i // size, i % size]  # noqa: E731
    others = [i for i in range(n) if i != player]
    state = {"domain": domain, "size": size, "player": cell(player)}
    if domain in ("maze", "frozenlake"):
        goal = draw(st.sampled_from(others))
        rest = [i for i in others if i != goal]
        blocked = draw(st.lists(st.sampled_from(rest), unique=True, max_size=len(rest))) if rest else []
        key = "walls" if domain == "maze" else "holes"
        state.update({key: sorted(cell(i) for i in blocked), "goal": cell(goal)})
        if domain == "frozenlake":
            state["start"] = cell(player)
    elif domain == "sokoban":
        roles = draw(st.lists(st.sampled_from("_wbB"), min_size=len(others), max_size=len(others)))
        goals = draw(st.lists(st.sampled_from(range(n)), unique=True, max_size=3).filter(bool))
        state.update({
            "walls": sorted(cell(i) for i, r in zip(others, roles) if r == "w" and i not in goals),
            "blocks": sorted(cell(i) for i, r in zip(others, roles) if r in "bB"),
            "goals": sorted(cell(i) for i in goals),
        })
    elif domain == "pacman":
        coins = draw(st.lists(st.sampled_from(others), unique=True, min_size=1, max_size=len(others))) if others else []
        state["coins"] = sorted(cell(i) for i in coins)
    else:
        colours = colours_for(size)
        roles = draw(st.lists(st.integers(-1, len(colours) - 1), min_size=len(others), max_size=len(others)))
        state["balls"] = {c: sorted(cell(i) for i, r in zip(others, roles) if r == k) for k, c in enumerate(colours)}
    return state


@pytest.mark.parametrize("domain", DOMAINS)
def test_compiled_engine_matches_pddlgym_on_drawn_problems(domain):
    spec = get_spec(domain)
    seen = {"steps": 0, "inapplicable": 0}

    @SETTINGS
    @given(layout=layouts(domain), data=st.data())
    def check(layout, data):
        size = layout["size"]
        problem = spec.problem_from_state(layout, f"drawn-{domain}")
        fast = spec.make_engine(problem, "grounded")
        ref = spec.make_engine(problem, "pddlgym")
        sf, sr = fast.initial(), ref.initial()
        assert fast.true_atoms(sf) == ref.true_atoms(sr)
        actions = data.draw(st.lists(st.integers(0, spec.n_actions(size) - 1), min_size=5, max_size=25))
        for a in actions:
            key = spec.action_key(a, size)
            sf, applied = fast.step(sf, key)
            sr, ref_applied = ref.step(sr, key)
            assert applied == ref_applied, (layout, a)
            atoms = fast.true_atoms(sf)
            assert atoms == ref.true_atoms(sr), (layout, a)
            assert fast.is_goal(sf) == ref.is_goal(sr)
            assert spec.is_failure(spec.state_dict(atoms, size)) == spec.is_failure(
                spec.state_dict(ref.true_atoms(sr), size)
            )
            seen["steps"] += 1
            seen["inapplicable"] += not applied

    check()
    print(f"{domain}: {seen['steps']} steps on drawn problems, {seen['inapplicable']} inapplicable")
    assert seen["steps"] >= 200 and seen["inapplicable"] > 0
