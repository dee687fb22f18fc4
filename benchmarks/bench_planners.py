"""Outside planners on svot's PDDL: counts, not speed (issue 20's measurements, re-run).

For every SVoT domain × Table 5 size × regime (ID/OOD) and seeds 0..n-1, the problem is
exported in both planner forms (``svot pddl export``) and counted:

* ``fd>0``     — problems whose shipped form Fast Downward's translator grounds to > 0 operators
                 (``pddlgym``: the same for PDDLGym's flavour without action atoms, expected 0);
* ``up ok``    — plans unified-planning's sequential PlanValidator accepts (shipped / positive form);
* ``pyperplan``— problems whose positive form pyperplan parses and grounds to > 0 operators.

Needs svot[dev] (unified-planning, pyperplan, fast-downward.translate).
Usage: ``python benchmarks/bench_planners.py [--seeds N] [--domains maze,...]``
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from pyperplan.grounding import ground
from pyperplan.pddl.parser import Parser
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import PlanValidator, get_environment

from svot.pddl import load_domain
from svot.domains import PARAMS, generate, get_spec
from svot.problem_gen.planner_files import export_planner_files

get_environment().credits_stream = None


def fd_operators(domain: Path, problem: Path, tmp: Path) -> int:
    sas = tmp / "out.sas"
    subprocess.run([sys.executable, "-m", "fast_downward.translate", str(domain), str(problem), "--sas-file", str(sas)],
                   check=True, capture_output=True, cwd=tmp)
    lines = sas.read_text().splitlines()
    return int(lines[lines.index("end_goal") + 1])


def up_valid(folder: Path, stem: str) -> bool:
    reader = PDDLReader()
    problem = reader.parse_problem(str(folder / "domain.pddl"), str(folder / f"{stem}.pddl"))
    plan = reader.parse_plan(problem, str(folder / f"{stem}.plan"))
    with PlanValidator(name="sequential_plan_validator") as v:
        return v.validate(problem, plan).status.name == "VALID"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--domains", default=",".join(PARAMS))
    args = ap.parse_args(argv)
    totals = dict(n=0, fd=0, pddlgym=0, up_s=0, up_p=0, pyper=0)
    print(f"{'domain':<11}{'size':>5}{'split':>6}{'n':>4}{'fd>0':>6}{'pddlgym>0':>10}{'up shipped':>11}{'up positive':>12}{'pyperplan':>10}")
    for domain in args.domains.split(","):
        dom = load_domain(domain)
        for size in PARAMS[domain]["sizes"]:
            for split in ("id", "ood"):
                row = dict(n=0, fd=0, pddlgym=0, up_s=0, up_p=0, pyper=0)
                with tempfile.TemporaryDirectory() as t:
                    tmp = Path(t)
                    gen = [(s, generate(domain, size, split, np.random.default_rng(s))) for s in range(args.seeds)]
                    export_planner_files(get_spec(domain), gen, "shipped", tmp / "shipped")
                    export_planner_files(get_spec(domain), gen, "positive", tmp / "positive")
                    for s, g in gen:
                        stem = f"p{s}"
                        (tmp / "pddlgym.pddl").write_text(g.problem.to_pddl("pddlgym"))
                        row["n"] += 1
                        row["fd"] += fd_operators(tmp / "shipped/domain.pddl", tmp / f"shipped/{stem}.pddl", tmp) > 0
                        row["pddlgym"] += fd_operators(Path(dom.source), tmp / "pddlgym.pddl", tmp) > 0
                        row["up_s"] += up_valid(tmp / "shipped", stem)
                        row["up_p"] += up_valid(tmp / "positive", stem)
                        parser = Parser(str(tmp / "positive/domain.pddl"), str(tmp / f"positive/{stem}.pddl"))
                        row["pyper"] += len(ground(parser.parse_problem(parser.parse_domain())).operators) > 0
                print(f"{domain:<11}{size:>5}{split:>6}{row['n']:>4}{row['fd']:>6}{row['pddlgym']:>10}{row['up_s']:>11}"
                      f"{row['up_p']:>12}{row['pyper']:>10}", flush=True)
                for k in totals:
                    totals[k] += row[k]
    print(f"total: {totals['n']} problems; FD grounds >0 operators: {totals['fd']} (pddlgym flavour: {totals['pddlgym']}); "
          f"unified-planning accepts {totals['up_s']} shipped / {totals['up_p']} positive plans; "
          f"pyperplan grounds {totals['pyper']} positive problems")
    return 0


if __name__ == "__main__":
    sys.exit(main())
