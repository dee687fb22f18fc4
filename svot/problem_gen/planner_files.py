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

Every file is written through :func:`svot.atomic.atomic_write_bytes` (a fresh ``O_EXCL |
O_NOFOLLOW`` temporary file, then a rename). ``--out`` must be a new or empty folder, or a
previous export, replaced with ``--overwrite`` after the files its manifest lists are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path

import numpy as np

from svot.atomic import TMP_SUFFIX, atomic_write_bytes
from svot.errors import ConfigError, DatasetError, ProblemError
from svot.kernel import DomainSpec, GridDomain
from svot.jsonl import read_json_file
from svot.numbers import is_ascii_digits, parse_int
from svot.pddl import Problem, load_domain
from svot.pddl.files import read_pddl_file
from svot.pddl.standard import check_form, negated_predicates, plan_text, positive_domain_text, positive_problem_text
from svot.problem_gen import generate
from svot.problem_gen.common import Generated
from svot.safe_paths import OutsideRootError, contained, remove_within


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
    if not is_ascii_digits(lo.strip()) or (sep and not is_ascii_digits(hi.strip())):
        raise ConfigError(f"--seeds: expected A:B (integers in ASCII digits, B > A), got {text!r}")
    start = parse_int(lo, what="--seeds")
    stop = parse_int(hi, what="--seeds") if sep else start + 1
    if start < 0 or stop <= start:
        raise ConfigError(f"--seeds: expected A:B with 0 <= A < B, got {text!r}")
    return range(start, stop)


def _write(path: Path, text: str) -> str:
    data = text.encode("utf-8")
    atomic_write_bytes(path, data)  # a fresh O_EXCL|O_NOFOLLOW temp file, then rename (svot.atomic)
    return hashlib.sha256(data).hexdigest()


def prepare_out(out, *, overwrite: bool = False) -> Path:
    """``out`` made ready for an export: a new or empty folder, or (with ``overwrite``) a previous
    ``svot pddl export`` whose files, as its manifest lists them, are removed first, so that no
    problem of another domain or seed range stays beside the new ones outside the manifest."""
    out = Path(out)
    if os.path.lexists(out) and not out.is_dir():
        raise DatasetError(f"--out {str(out)!r} exists and is not a directory; pass a folder for the PDDL files")
    for stray in out.glob("*" + TMP_SUFFIX) if out.is_dir() else ():  # an interrupted write's, or a planted link
        if stray.is_symlink() or stray.is_file():
            stray.unlink()
    if not out.exists() or not any(out.iterdir()):
        out.mkdir(parents=True, exist_ok=True)
        return out
    try:
        manifest = read_json_file(out / "manifest.json", what="the manifest")
    except DatasetError:
        manifest = None
    listed = manifest.get("sha256") if isinstance(manifest, dict) else None
    if not isinstance(listed, dict):
        raise DatasetError(f"--out {str(out)!r} is not empty and holds no svot pddl export (no readable "
                           "manifest.json); choose a new or empty folder")
    if not overwrite:
        raise DatasetError(f"--out {str(out)!r} holds a previous svot pddl export; pass --overwrite to replace it")
    for rel in [*listed, "manifest.json"]:
        with contextlib.suppress(OutsideRootError, OSError):  # a name that leads out is not ours to delete
            remove_within(out, contained(out, rel, what="manifest entry"))
    if any(out.iterdir()):
        left = sorted(p.name for p in out.iterdir())[:5]
        raise DatasetError(f"--out {str(out)!r} holds files its manifest does not list ({', '.join(left)}); "
                           "choose a new or empty folder")
    return out


def export_planner_files(spec: DomainSpec, generated: list[tuple[int, Generated]], form: str, out, *,
                         overwrite: bool = False) -> dict:
    """Write ``generated`` ((seed, Generated) pairs of ``spec``'s domain) in ``form`` to ``out``; return the manifest.

    ``out`` must be new or empty, or a previous export (replaced only with ``overwrite``): see
    :func:`prepare_out`."""
    check_form(form)
    if not generated:
        raise ConfigError("no problems to export")
    name = spec.name
    domain = load_domain(spec.pddl)
    problems = tuple(g.problem for _s, g in generated)
    out = prepare_out(out, overwrite=overwrite)
    if form == "shipped":
        domain_text = read_pddl_file(domain.source, what="domain file")
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
