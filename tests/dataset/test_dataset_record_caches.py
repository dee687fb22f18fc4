"""The export's caches give what a fresh computation gives: PNG bytes per state, PDDL text per problem,
a state's text and label grid per map."""

from __future__ import annotations

import copy
import dataclasses

import numpy as np
import pytest

from svot.dataset.instance import MapContext
from svot.dataset.records import PngCache, _j, encode_png, problem_pddl
from svot.domains import PARAMS as TABLE5_DOMAINS, generate, get_spec
from svot.pddl import load_domain
from svot.render.image import render_state
from svot.render.labels import label_grid
from svot.render.text import describe


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


def test_map_context_reads_a_state_once_and_hands_out_fresh_grids():
    g = _draws("gather", 5, n=1)[0]
    ctx = MapContext("gather", 5, g.problem)
    spec = get_spec("gather")
    s = ctx.engine.initial()
    for t in [s] + [ctx.step(s, a)[0] for a in range(ctx.n_actions)]:
        text, labels = ctx.reading(t)
        assert (text, labels) == (describe(spec, ctx.state_dict(t)), label_grid(spec, ctx.state_dict(t)))
        labels[0][0] = "changed"  # a step's grid is its own: the next reading is untouched
        assert ctx.reading(t)[1] == label_grid(spec, ctx.state_dict(t))


@pytest.mark.parametrize("domain", sorted(TABLE5_DOMAINS))
def test_map_context_goal_keys_are_the_goal_configurations_json(domain):
    """The reachability search's cached goal keys equal goal_key(goal_of(state)) for every state it met
    (most of them keyed through DomainSpec.goal_state, without a state dict)."""
    from svot.dataset.instance import goal_key
    from svot.dataset.wording import goal_of

    spec = get_spec(domain)
    for size in spec.sizes:
        ctx = MapContext(domain, size, _draws(domain, size, n=1)[0].problem)
        reached = ctx.reachable_goals()
        assert len(ctx._goal_keys) > 1
        for s, k in ctx._goal_keys.items():
            assert k == goal_key(goal_of(domain, ctx.spec.state_dict(ctx._atoms_of(s), size)))
        assert reached <= set(ctx._goal_keys.values())


@pytest.fixture
def lamps_registered(domain):
    """The toy domain of tests/toy_domain, registered for the test that names it."""
    if domain != "lamps":
        yield
        return
    from svot.extend import register_domain, unregister_domain
    from tests.toy_domain.lamps import LampsGenerator, LampsSpec

    register_domain(LampsSpec(), LampsGenerator(LampsSpec()))
    yield
    unregister_domain("lamps")


def _walk_states(ctx: MapContext, rng, steps: int) -> list:
    s = ctx.engine.initial()
    out = [s]
    for _ in range(steps):
        s = ctx.step(s, int(rng.integers(ctx.n_actions)))[0]
        out.append(s)
    return out


@pytest.mark.parametrize("domain", sorted(TABLE5_DOMAINS) + ["lamps"])
def test_goal_state_is_the_state_dicts_goal_fields(domain, lamps_registered):
    """DomainSpec.goal_state gives the goal fields of state_dict, in goal_fields' order, whether the spec
    overrides it (Gather, Pacman) or not (the others, and the toy domain through the default)."""
    spec = get_spec(domain)
    rng = np.random.default_rng(11)
    for size in spec.sizes:
        for split in ("id", "ood"):
            g = generate(domain, size, split, rng)
            ctx = MapContext(domain, size, g.problem)
            for s in _walk_states(ctx, rng, 40):
                atoms = ctx._atoms_of(s)
                d = spec.state_dict(atoms, size)
                got = spec.goal_state(atoms, size)
                assert list(got) == list(spec.goal_fields())
                assert got == {k: d[k] for k in spec.goal_fields()}
                for k, v in got.items():  # the same types and key orders, so the same JSON
                    assert repr(v) == repr(d[k])


@pytest.mark.parametrize(
    "domain,atoms",
    [
        # a ball of a colour the size does not list, a (got) atom of another, in no colour order
        ("gather", [("ball", "c_0_1", "yellow"), ("got", "b1", "blue"), ("at", "c_2_3"), ("got", "b2", "blue")]),
        ("gather", [("at", "c_0_0")]),
        ("pacman", [("eaten", "c_1_1"), ("coin", "c_0_2"), ("eaten", "c_3_0"), ("at", "c_2_2")]),
    ],
)
def test_goal_state_reads_odd_atoms_as_state_dict_does(domain, atoms):
    spec = get_spec(domain)
    d = spec.state_dict(atoms, 4)
    got = spec.goal_state(atoms, 4)
    assert repr(got) == repr({k: d[k] for k in spec.goal_fields()})
    with pytest.raises(ValueError, match="no \\(at"):
        spec.goal_state([a for a in atoms if a[0] != "at"], 4)


def test_warm_for_workers_builds_each_pending_targets_grounding_and_atlas(tmp_path, monkeypatch):
    """What forked export workers inherit instead of building each: the shared grounding and the tile
    atlas (at the export's image size) of every (domain, size) still to export, once, and nothing for
    the others. Both are kept by their own caches (shared_grounding, get_atlas), which the workers read."""
    import importlib

    from svot.dataset import make_config

    export_module = importlib.import_module("svot.dataset.export")
    built = []
    monkeypatch.setattr(export_module, "shared_grounding", lambda spec, n: built.append(("grounding", spec.name, n)))
    monkeypatch.setattr(export_module, "get_atlas", lambda spec, n, px: built.append(("atlas", spec.name, n, px)))
    cfg = make_config(tmp_path, domains=["maze", "pacman"], sizes=[5], image_size=48, maps_per_split=1)
    job = export_module.SplitJob
    pending = [job("pacman", 5, "train", 1, 1), job("pacman", 5, "val", 1, 1), job("maze", 5, "val", 1, 1)]
    export_module._warm_for_workers(cfg, pending)
    assert built == [
        ("grounding", "pacman", 5), ("atlas", "pacman", 5, 48), ("grounding", "maze", 5), ("atlas", "maze", 5, 48)
    ]
