"""The PDDL layer: shipped domains load through PDDLGym; bad text is refused with its line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from svot.domains import DOMAINS, get_spec
from svot.errors import PDDLError
from svot.pddl import load_domain, load_domain_file, parse_problem
from svot.pddl.domain import domain_path


@pytest.mark.pddlgym
@pytest.mark.parametrize("name", DOMAINS)
def test_shipped_domain_loads_with_pddlgym_pddlenv(name, tmp_path):
    """Each shipped .pddl loads in pddlgym.core.PDDLEnv itself, with a problem we write."""
    from svot.engine.reference import NoDerivedPDDLEnv

    spec = get_spec(name)
    from tests.conftest import SAMPLE_STATES

    problem = spec.problem_from_state(SAMPLE_STATES[name], "t")
    (tmp_path / "p.pddl").write_text(problem.to_pddl())
    env = NoDerivedPDDLEnv(str(domain_path(name)), str(tmp_path))
    env.fix_problem_index(0)
    state, _ = env.reset()
    atoms = {(lit.predicate.name,) + tuple(v.name for v in lit.variables) for lit in state.literals}
    assert atoms == set(problem.init)


def test_operators_have_action_literals():
    for name in DOMAINS:
        d = load_domain(name)
        assert d.operators
        for op in d.operators:
            assert op.action[0] in d.action_predicates
        # moves follow a static relation between cells: the grid's adjacency (the open grid's
        # (adjacent ...)), or a walled grid's passages
        assert {"adj", "adjacent", "open"} & d.static_predicates
        assert "at" in d.fluent_predicates


def test_problem_text_round_trip(sample):
    name, state = sample
    spec = get_spec(name)
    problem = spec.problem_from_state(state, "round-trip")
    again = parse_problem(problem.to_pddl(), load_domain(name))
    assert again == problem


def _domain_with(tmp_path, old, new):
    text = domain_path("maze").read_text().replace(old, new, 1)
    assert new in text
    path = tmp_path / "bad.pddl"
    path.write_text(text)
    return path


def _line_of(path, needle):
    for i, line in enumerate(path.read_text().splitlines(), start=1):
        if needle in line:
            return i
    raise AssertionError(needle)


@pytest.mark.parametrize(
    "old,new,needle,message",
    [
        ("(at ?from) (adj", "(at ?from (adj", "(:action step", "unbalanced '('"),
        ("(not (wall ?to))", "(not (brick ?to))", "brick", "unknown predicate 'brick'"),
        ("(not (wall ?to))", "(not (wall ?to ?from))", "(wall ?to ?from)", "takes 1 argument(s), given 2"),
        ("(at ?to))", "(at ?there))", "?there", "variable ?there"),
        ("(and (not (at ?from)) (at ?to))", "(when (at ?from) (at ?to))", "(when", "conditional effects ('when')"),
    ],
)
def test_malformed_domain_names_file_and_line(tmp_path, old, new, needle, message):
    path = _domain_with(tmp_path, old, new)
    with pytest.raises(PDDLError) as err:
        load_domain_file(path)
    text = str(err.value)
    assert message in text
    assert str(path) in text
    if message != "unbalanced '('":
        assert f":{_line_of(path, needle)}:" in text


def test_unbalanced_close_paren_names_line(tmp_path):
    path = tmp_path / "bad.pddl"
    path.write_text(domain_path("maze").read_text() + "\n)\n")
    with pytest.raises(PDDLError, match=r"bad.pddl:\d+: unbalanced '\)'"):
        load_domain_file(path)


@pytest.mark.parametrize(
    "old,new,message",
    [
        ("(:domain maze)", "(:domain sokoban)", "problem is for domain 'sokoban', not 'maze'"),
        ("(wall c_1_1)", "(brick c_1_1)", "unknown predicate 'brick'"),
        ("(wall c_1_1)", "(wall c_1_1 c_1_2)", "takes 1 argument(s), given 2"),
        ("(wall c_1_1)", "(wall up)", "object 'up' is a direction, but 'wall' wants a cell"),
        ("(wall c_1_1)", "(wall c_9_9)", "undeclared object 'c_9_9'"),
        ("(wall c_1_1)", "(wall c_1_1", "unbalanced '('"),
    ],
)
def test_malformed_problem_names_line(old, new, message):
    from tests.conftest import SAMPLE_STATES

    spec = get_spec("maze")
    text = spec.problem_from_state(SAMPLE_STATES["maze"], "p").to_pddl()
    assert old in text
    bad = text.replace(old, new, 1)
    with pytest.raises(PDDLError) as err:
        parse_problem(bad, load_domain("maze"), source="p.pddl")
    assert message in str(err.value)
    assert str(err.value).startswith("p.pddl:")
    if "unbalanced" not in message:
        line = next(i for i, ln in enumerate(bad.splitlines(), 1) if new.split("(")[-1].split(")")[0] in ln)
        assert f"p.pddl:{line}:" in str(err.value)


@pytest.mark.pddlgym
@pytest.mark.parametrize("name", DOMAINS + tuple(d for d in ("regularmaze", "questmaze", "questmaze5") if d not in DOMAINS))
def test_svot_reader_and_pddlgym_parse_every_shipped_domain_alike(name):
    """svot parses without PDDLGym; the outside parser must read each shipped file the same way."""
    from svot.pddl.pddlgym_compat import load_domain_via_pddlgym

    ours, theirs = load_domain(name), load_domain_via_pddlgym(domain_path(name))
    for field in ("name", "types", "predicates", "action_predicates", "operators"):
        assert getattr(ours, field) == getattr(theirs, field), field


def test_domains_parse_without_pddlgym_imported():
    """Core svot needs no PDDLGym: parsing and stepping a shipped domain never import it (or old gym)."""
    code = (
        "import sys, svot, gymnasium as gym\n"
        "env = gym.make('SVoT/Sokoban-5x5-v0'); env.reset(seed=0); env.step(0)\n"
        "from svot.pddl import load_domain\n"
        "[load_domain(n) for n in ('maze','frozenlake','sokoban','pacman','gather','regularmaze','questmaze','questmaze5')]\n"
        "assert 'pddlgym' not in sys.modules and 'gym' not in sys.modules, sorted(sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "unmaintained" not in done.stderr


def test_pddlgym_engine_without_pddlgym_says_how_to_get_it(monkeypatch):
    from svot.errors import ConfigError
    from svot.pddl import pddlgym_compat

    monkeypatch.setattr(pddlgym_compat, "pddlgym_available", lambda: False)
    pddlgym_compat.import_pddlgym_core.cache_clear()
    try:
        with pytest.raises(ConfigError, match=r"svot\[pddlgym\]"):
            pddlgym_compat.import_pddlgym_core()
    finally:
        pddlgym_compat.import_pddlgym_core.cache_clear()
