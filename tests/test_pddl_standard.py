"""Problem flavours (standard / pddlgym), the positive form, and ``svot pddl export``."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from svot.cli import main
from svot.errors import PDDLError
from svot.pddl import load_domain, parse_problem
from svot.pddl.problem import action_atoms
from svot.pddl.standard import planner_files
from svot.domains import generate


def test_standard_flavour_lists_every_action_atom_pddlgym_none():
    g = generate("gather", 4, "id", np.random.default_rng(0))
    dom = load_domain("gather")
    standard, pddlgym = g.problem.to_pddl(), g.problem.to_pddl("pddlgym")
    atoms = action_atoms(dom, g.problem.objects)
    # 4 directions x 3 distances of (move ?dir ?k), and (advance)
    assert len(atoms) == 4 * 3 + 1 and ("advance",) in atoms and ("move", "up", "k3") in atoms
    for a in atoms:
        text = "(" + " ".join(a) + ")"
        assert text in standard and text not in pddlgym
    assert parse_problem(standard, dom) == parse_problem(pddlgym, dom) == g.problem


def test_unknown_flavour_and_form_are_refused():
    g = generate("maze", 5, "id", np.random.default_rng(0))
    with pytest.raises(PDDLError, match="flavour 'strips'"):
        g.problem.to_pddl("strips")
    with pytest.raises(PDDLError, match="form 'negative'"):
        planner_files(load_domain("maze"), g.problem, "negative")


def test_positive_form_has_complements_and_no_negation():
    g = generate("sokoban", 4, "id", np.random.default_rng(1))
    domain_text, problem_text = planner_files(load_domain("sokoban"), g.problem, "positive")
    assert "(not (wall" not in domain_text and "(not-wall ?to)" in domain_text
    assert ":negative-preconditions" not in domain_text
    walls = {a[1] for a in g.problem.init if a[0] == "wall"}
    cells = [n for n, t in g.problem.objects if t == "cell"]
    for c in cells:
        assert (f"(not-wall {c})" in problem_text) == (c not in walls)


def test_cli_pddl_export_writes_pairs_plans_and_manifest(tmp_path, capsys):
    args = ["pddl", "export", "--domain", "pacman", "--size", "4", "--ood", "--seeds", "3:5", "--form", "positive"]
    assert main(args + ["--out", str(tmp_path / "a")]) == 0
    assert main(args + ["--out", str(tmp_path / "b")]) == 0
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert [e["seed"] for e in manifest["problems"]] == [3, 4]
    assert all(e["split"] == "ood" and e["plan_optimal"] for e in manifest["problems"])
    for name, digest in manifest["sha256"].items():
        data = (tmp_path / "a" / name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest
        assert (tmp_path / "b" / name).read_bytes() == data  # same seeds, same bytes
    plan = (tmp_path / "a" / "p3.plan").read_text().splitlines()
    assert len(plan) == manifest["problems"][0]["plan_operators"] == manifest["problems"][0]["plan_actions"]
    assert not list((tmp_path / "a").glob("*.tmp"))


def test_cli_pddl_export_bad_seeds_is_one_line(tmp_path, capsys):
    code = main(["pddl", "export", "--domain", "maze", "--size", "5", "--seeds", "5:2", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and "--seeds" in err and len(err.strip().splitlines()) == 1
