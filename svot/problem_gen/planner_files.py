"""Planner-ready files: a domain file, problem files and svot's plans, for outside planners.

``svot pddl export --domain D --size N [--ood] --seeds A:B --form shipped|positive --out DIR``
writes, for each seed ``s`` in ``A..B-1`` (the problem ``generate(D, N, split,
numpy.random.default_rng(s))`` draws):

- ``domain.pddl``: the domain in ``form`` (:mod:`svot.pddl.standard`);
- ``p<s>.pddl``: the problem, planner-ready (action atoms in ``:init``; in the
  positive form also the complement atoms);
- ``p<s>.plan``: svot's plan as ground operators, one ``(op args)`` a line (the
  IPC plan format VAL and unified-planning read), the engine's internal steps
  (e.g. a multi-cell move's ``advance`` chain) included;
- ``manifest.json``: per problem its name, plan length in agent actions and in
  operators, ``plan_optimal``, and sha256 of every file.

Every file is written to a temporary name and renamed into place.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from svot.errors import ConfigError, ProblemError
from svot.kernel import DomainSpec, GridDomain
from svot.pddl import Problem, load_domain
from svot.pddl.standard import check_form, negated_predicates, plan_text, positive_domain_text, positive_problem_text
from svot.problem_gen import generate
from svot.problem_gen.common import Generated


def ground_plan(spec: DomainSpec, problem: Problem, plan) -> list[tuple[str, tuple[str, ...]]]:
    """svot's plan (agent action ints) as the ground operators the engine applies, in order."""
    engine = spec.make_engine(problem)
    size = spec.size_of(problem)
    state = engine.initial()
    steps: list[tuple[str, tuple[str, ...]]] = []
    for i, a in enumerate(plan):
        state, applied = engine.trace(state, spec.action_key(int(a), size))
        if not applied:
            raise ProblemError(f"{problem.name}: plan step {i} (action {a}) does not apply")
        steps.extend((ga.name, tuple(ga.args)) for ga in applied)
    if not engine.is_goal(state):
        raise ProblemError(f"{problem.name}: the plan does not reach the goal")
    return steps


def parse_seeds(text: str) -> range:
    """``"A:B"`` → ``range(A, B)``; a single ``"A"`` → ``range(A, A + 1)``."""
    lo, sep, hi = str(text).partition(":")
    try:
        start = int(lo)
        stop = int(hi) if sep else start + 1
    except ValueError:
        raise ConfigError(f"--seeds: expected A:B (integers, B > A), got {text!r}") from None
    if start < 0 or stop <= start:
        raise ConfigError(f"--seeds: expected A:B with 0 <= A < B, got {text!r}")
    return range(start, stop)


def _write(path: Path, text: str) -> str:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
    return hashlib.sha256(text.encode()).hexdigest()


def export_planner_files(spec: DomainSpec, generated: list[tuple[int, Generated]], form: str, out) -> dict:
    """Write ``generated`` ((seed, Generated) pairs of ``spec``'s domain) in ``form`` to ``out``; return the manifest."""
    check_form(form)
    if not generated:
        raise ConfigError("no problems to export")
    name = spec.name
    domain = load_domain(spec.pddl)
    problems = tuple(g.problem for _s, g in generated)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if form == "shipped":
        domain_text = Path(domain.source).read_text()
    else:
        negated = negated_predicates(domain, problems)
        domain_text = positive_domain_text(domain, problems)
    files = {"domain.pddl": _write(out / "domain.pddl", domain_text)}
    entries = []
    for seed, g in generated:
        if form == "shipped":
            problem_text = g.problem.to_pddl("standard", domain)
        else:
            problem_text = positive_problem_text(g.problem, domain, negated)
        steps = ground_plan(spec, g.problem, g.plan)
        files[f"p{seed}.pddl"] = _write(out / f"p{seed}.pddl", problem_text)
        files[f"p{seed}.plan"] = _write(out / f"p{seed}.plan", plan_text(steps))
        entries.append({
            "seed": seed,
            "problem": g.problem.name,
            "split": g.split,
            "plan_actions": len(g.plan),
            "plan_operators": len(steps),
            "plan_optimal": g.plan_optimal,
        })
    manifest = {
        "domain": name,
        "size": generated[0][1].size,
        "form": form,
        "problems": entries,
        "sha256": files,
    }
    _write(out / "manifest.json", json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def generate_for_seeds(
    domain: GridDomain, size: int, split: str, seeds, *, allow_any_size: bool = False
) -> list[tuple[int, Generated]]:
    """One problem per seed: ``generate(domain, size, split, numpy.random.default_rng(seed))``."""
    return [
        (s, generate(domain, size, split, np.random.default_rng(s), allow_any_size=allow_any_size)) for s in seeds
    ]


__all__ = ["export_planner_files", "generate_for_seeds", "ground_plan", "parse_seeds"]
