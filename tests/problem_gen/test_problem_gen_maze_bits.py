"""Maze layouts are searched on bits read off the shared grounding: they are the bound problem's bits."""

from __future__ import annotations

import numpy as np
import pytest

from svot.domains import get_spec
from svot.domains.maze import generator as maze
from svot.problem_gen.common import problem_name
from svot.problem_gen.grounding import shared_grounding


@pytest.mark.parametrize("size", [3, 5, 6, 7])
@pytest.mark.parametrize("split", ["id", "ood"])
def test_draw_bits_are_the_bound_problems(size, split):
    spec = get_spec("maze")
    grounding = shared_grounding(get_spec("maze"), size)
    bits = maze.atom_bits(size)
    w = maze.count_for(maze.TABLE5["wall_density"][split], size * size)
    rng = np.random.default_rng([size, split == "ood"])
    for _ in range(200):
        perm = rng.permutation(size * size).tolist()
        layout = maze.layout_from_perm(size, w, perm)
        bound = grounding.bind(spec.problem_from_state(layout, problem_name("maze", size, split, layout)))
        assert bits.bound(w, perm) == (bound.init, bound.goal_pos)
        assert bound.goal_neg == 0


def test_generated_layouts_are_sample_layout_draws():
    # sample() draws its permutations as sample_layout does: the kept layout is the last one drawn
    for seed in range(30):
        g = maze.sample(6, "ood", np.random.default_rng(seed)).generated
        rng = np.random.default_rng(seed)
        layouts = [maze.sample_layout(6, "ood", rng) for _ in range(g.params["attempts"])]
        assert layouts[-1] == {k: g.state[k] for k in layouts[-1]}
