"""Atheris fuzz targets for the readers of outside input (run by ``test_reliability_fuzz.test_atheris_bounded_runs``).

``SVOT_FUZZ_TARGET`` picks one of ``problem``, ``state_text``, ``rule``, ``predictions``;
libFuzzer flags (``-runs=N -seed=S``) come on the command line. Heavy libraries and the
rest of svot are imported uninstrumented first; only the modules that read the input
are instrumented, so coverage guidance stays on them. Any exception other than the
target's documented error type is a crash (libFuzzer exits non-zero and writes the input).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import atheris
import numpy as np

import svot
from svot.domains import SPECS
from svot.errors import PDDLError
from svot.pddl import load_domain
from svot.render.samples import random_state

with atheris.instrument_imports(include=["svot.pddl", "svot.render.text", "svot.rulemaze.rules", "svot.metrics.evaluation", "svot.metrics.predictions"]):
    import svot.pddl.problem as pddl_problem
    import svot.pddl.sexpr
    import svot.render.text as state_text
    import svot.rulemaze.rules.lexer  # noqa: F401
    import svot.rulemaze.rules.parser as rule_parser
    from svot.metrics import evaluation
    from svot.rulemaze.errors import RuleError

TARGET = os.environ["SVOT_FUZZ_TARGET"]
WORK = Path(os.environ.get("SVOT_FUZZ_DIR", "."))
NAMES = sorted(SPECS)
DOMAINS = {n: load_domain(SPECS[n].pddl) for n in NAMES}
SEEDS = {n: SPECS[n].problem_from_state(random_state(SPECS[n], SPECS[n].sizes[0], np.random.default_rng(0), 0.3), "s").to_pddl()
         for n in NAMES}


def problem(fdp: atheris.FuzzedDataProvider) -> None:
    name = NAMES[fdp.ConsumeIntInRange(0, len(NAMES) - 1)]
    text = fdp.ConsumeUnicodeNoSurrogates(400)
    if fdp.ConsumeBool():  # splice the input into a real problem
        seed = SEEDS[name]
        at = len(text) % (len(seed) + 1)
        text = seed[:at] + text + seed[at + len(text) // 2:]
    try:
        pddl_problem.parse_problem(text, DOMAINS[name], source="fuzz")
    except PDDLError:
        pass


def state(fdp: atheris.FuzzedDataProvider) -> None:
    spec = SPECS[NAMES[fdp.ConsumeIntInRange(0, len(NAMES) - 1)]]
    text = fdp.ConsumeUnicodeNoSurrogates(400)
    if fdp.ConsumeBool():
        text = f"{spec.title}, 5x5 grid.\n" + text
    try:
        state_text.parse(spec, text)
    except state_text.StateTextError:
        pass
    assert isinstance(state_text._parse_fields(spec, text), dict)


def rule(fdp: atheris.FuzzedDataProvider) -> None:
    text = fdp.ConsumeUnicodeNoSurrogates(300)
    try:
        rule_parser.parse_formula(text)
    except RuleError:
        pass


def predictions(fdp: atheris.FuzzedDataProvider) -> None:
    path = WORK / "preds.jsonl"
    path.write_bytes(fdp.ConsumeBytes(400))
    records, issues, _base = evaluation.read_predictions(path)
    scorer = evaluation._Scorer(evaluation.TruthSet({}, []), WORK)
    for line, obj in records:
        scorer.record(line, obj)
    json.dumps([str(i) for i in issues + scorer.issues])


TARGETS = {"problem": problem, "state_text": state, "rule": rule, "predictions": predictions}


def one_input(data: bytes) -> None:
    TARGETS[TARGET](atheris.FuzzedDataProvider(data))


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
