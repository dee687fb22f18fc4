"""The rows' caches give what a fresh computation gives: PNG bytes per state, PDDL text per problem."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np

from svot.dataset.records import PngCache, _j, encode_png, problem_pddl
from svot.domains import get_spec
from svot.pddl import load_domain
from svot.problem_gen import generate
from svot.render.image import render_state


def _draws(domain: str, size: int, n: int = 2):
    rng = np.random.default_rng(3)
    return [generate(domain, size, "id", rng) for _ in range(n)]


def test_png_cache_bytes_are_a_fresh_encode_whether_or_not_the_key_is_given():
    a, b = (g.state for g in _draws("sokoban", 4))
    spec = get_spec("sokoban")
    pngs = PngCache(64)
    first = pngs.get("sokoban", a, _j(a))
    assert first == encode_png(render_state(spec, a, 64))
    assert pngs.get("sokoban", copy.deepcopy(a)) == first  # an equal state, no key: the cached bytes
    assert pngs.encoded == 1
    assert pngs.get("sokoban", b) == encode_png(render_state(spec, b, 64)) != first
    assert pngs.encoded == 2


def test_problem_pddl_is_the_problems_own_text_per_problem():
    p, q = (g.problem for g in _draws("maze", 5))
    pddl = get_spec("maze").pddl
    for problem in (p, q, p):
        assert problem_pddl(problem, pddl) == problem.to_pddl(domain=load_domain(pddl))
    assert problem_pddl(p, pddl) != problem_pddl(q, pddl)
    renamed = dataclasses.replace(p, name=p.name + "-b")  # keyed by value: a changed field is a new text
    assert problem_pddl(renamed, pddl) == renamed.to_pddl(domain=load_domain(pddl)) != problem_pddl(p, pddl)
