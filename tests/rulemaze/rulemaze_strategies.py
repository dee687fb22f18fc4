"""Hypothesis strategies for rule ASTs and trajectories (shared by several test files)."""

from __future__ import annotations

from hypothesis import strategies as st

from svot.rulemaze import symbols as S
from svot.rulemaze.rules import ast as A
from svot.rulemaze.trajectory import Trajectory

offsets = st.sampled_from([-1, 0, 1])

regular_atoms = st.one_of(
    st.builds(A.Zone, offsets, st.sampled_from(S.ZONE_COLOURS)),
    st.builds(A.Move, offsets, st.sampled_from(S.DIRECTIONS)),
)
quest_atoms = st.one_of(
    st.builds(A.Seen, st.sampled_from(S.ITEMS)),
    st.builds(A.Moved, st.sampled_from(S.DIRECTIONS)),
    st.builds(A.Count, st.sampled_from(S.ITEMS + (S.TOTAL_ITEMS,)),
              st.sampled_from(S.COMPARISON_OPS), st.integers(0, 4)),
    st.builds(A.TargetIs, st.sampled_from(S.TARGETS)),
)


def formulas(atoms, max_leaves: int = 6):
    return st.recursive(
        atoms,
        lambda sub: st.one_of(
            st.builds(A.Not, sub),
            st.builds(A.And, sub, sub),
            st.builds(A.Or, sub, sub),
            st.builds(A.Implies, sub, sub),
        ),
        max_leaves=max_leaves,
    )


any_formula = formulas(st.one_of(regular_atoms, quest_atoms))
regular_formula = formulas(regular_atoms)
quest_formula = formulas(quest_atoms)

_regular_inner = st.sampled_from((S.NORMAL,) + S.ZONE_COLOURS)
_quest_inner = st.sampled_from((S.NORMAL,) + S.ITEMS + S.TARGETS)


@st.composite
def trajectories(draw, scenario: str, min_len: int = 0, max_len: int = 7):
    n = draw(st.integers(min_len, max_len))
    actions = tuple(draw(st.lists(st.sampled_from(S.DIRECTIONS), min_size=n, max_size=n)))
    inner = _regular_inner if scenario == S.REGULAR else _quest_inner
    start = S.START_COLOUR if scenario == S.REGULAR else S.START_QUEST
    rest = tuple(draw(st.lists(inner, min_size=n, max_size=n)))
    return Trajectory((start,) + rest, actions)
