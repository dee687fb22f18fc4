"""Fuzzing the readers of outside input: only the documented error types may escape.

* PDDL problem loader (:func:`svot.pddl.parse_problem`) and domain loader: :class:`PDDLError` only,
  naming the source and a line inside the text; what parses survives ``to_pddl`` and back.
* State text: strict :func:`svot.render.text.parse` raises only :class:`StateTextError` (a
  ``ParseError``) and what it reads re-describes to itself; the lenient core ``_parse_fields``
  (unguarded; ``parse_fields`` adds a catch-all) never raises.
* Rule parser (:func:`parse_formula`): :class:`RuleError` only, with a column inside the rule;
  what parses prints and re-parses to the same tree.
* Predictions reader: :func:`read_predictions` and :func:`evaluate` never raise on any file
  content; every issue names a line of the file.

Inputs come from real texts mutated token by token, from fragments of the formats, and from
arbitrary unicode. ``ITERATIONS`` (the examples each test runs) is summed in the closing note.
The bounded atheris runs of the same targets are in :func:`test_atheris_bounded_runs` (slow).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from svot.domains import SPECS
from svot.errors import ParseError, PDDLError
from svot.pddl import load_domain, parse_problem
from svot.pddl.domain import domain_path, load_domain_file
from svot.render.samples import random_state
from svot.render.text import (
    StateTextError,
    _parse_fields,
    describe,
    parse,
    parse_fields,
)
from svot.rulemaze.errors import RuleError
from svot.rulemaze.rules import format_formula, parse_formula

HERE = Path(__file__).resolve().parent
ITERATIONS = {
    "parse_problem (mutated problems)": 1200,
    "parse_problem (fragments)": 600,
    "load_domain_file (mutated domains)": 150,
    "parse (mutated descriptions)": 800,
    "parse / _parse_fields (arbitrary text)": 800,
    "parse_formula (fragments + unicode)": 2000,
    "read_predictions (raw bytes)": 400,
    "evaluate (JSON records)": 300,
}


def fuzz(name: str):
    return settings(max_examples=ITERATIONS[name], deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


# --------------------------------------------------------------------------- mutation machinery

_TOKEN = re.compile(r"\(|\)|[^\s()]+|\s+")


@st.composite
def mutated(draw, texts: list[str], fragments: list[str], max_edits: int = 4) -> str:
    """One of ``texts`` with a few token edits: delete, duplicate, swap, replace or insert a fragment."""
    tokens = _TOKEN.findall(draw(st.sampled_from(texts)))
    for _ in range(draw(st.integers(1, max_edits))):
        if not tokens:
            break
        i = draw(st.integers(0, len(tokens) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert", "text"]))
        if op == "delete":
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "replace":
            tokens[i] = draw(st.sampled_from(fragments))
        elif op == "insert":
            tokens.insert(i, draw(st.sampled_from(fragments)))
        else:
            tokens[i] = draw(st.text(max_size=6))
    return "".join(tokens)


# --------------------------------------------------------------------------- PDDL

def _problem_texts() -> dict[str, list[str]]:
    out = {}
    for name, spec in SPECS.items():
        texts = []
        for seed, size in ((0, spec.sizes[0]), (1, spec.sizes[0]), (2, spec.sizes[-1])):
            state = random_state(spec, size, np.random.default_rng(seed), density=0.3)
            texts.append(spec.problem_from_state(state, f"fuzz-{seed}").to_pddl())
        out[name] = texts
    return out


PROBLEMS = _problem_texts()
PDDL_FRAGMENTS = ["(", ")", "(", ")", "define", "problem", "(:domain", ":objects", "(:init", "(:goal", "and", "(and",
                  "not", "(not", "-", "cell", "direction", "colour", "distance", "c_0_0", "c_1_2", "c_9_9", "up", "down",
                  "red", "k1", "at", "(at", "wall", "(wall", "adj", "goal", "block", "coin", "ball", "(ball", "clear",
                  "move", "(move", ";", ";;comment", "\n", " ", "maze", "sokoban", "gather", "?x", "(forall", "\x00", "é"]


def _check_pddl_error(err: PDDLError, text: str, source: str) -> None:
    assert str(err).startswith(source), str(err)
    if err.line is not None:
        assert 1 <= err.line <= max(1, len(text.splitlines())), (err.line, str(err))


def _roundtrip(problem, domain) -> None:
    again = parse_problem(problem.to_pddl(), domain, source="again")
    assert sorted(again.objects) == sorted(problem.objects)
    assert (again.init, again.goal, again.negative_goal, again.name) == (problem.init, problem.goal,
                                                                         problem.negative_goal, problem.name)


@fuzz("parse_problem (mutated problems)")
@given(st.sampled_from(sorted(PROBLEMS)).flatmap(lambda d: st.tuples(st.just(d), mutated(PROBLEMS[d], PDDL_FRAGMENTS))))
@example(("maze", "(define (problem (x)) (:domain maze))"))
@example(("maze", "(define (problem x) (:domain (maze)))"))
def test_parse_problem_on_mutated_problems(case):
    domain_name, text = case
    domain = load_domain(domain_name)
    try:
        problem = parse_problem(text, domain, source="fuzz.pddl")
    except PDDLError as err:
        _check_pddl_error(err, text, "fuzz.pddl")
    else:
        _roundtrip(problem, domain)


@fuzz("parse_problem (fragments)")
@given(st.sampled_from(sorted(PROBLEMS)),
       st.lists(st.one_of(st.sampled_from(PDDL_FRAGMENTS), st.text(max_size=4)), max_size=60).map(" ".join))
def test_parse_problem_on_fragments(domain_name, text):
    domain = load_domain(domain_name)
    try:
        problem = parse_problem("(define (problem p) " + text, domain, source="frag.pddl")
    except PDDLError as err:
        _check_pddl_error(err, "(define (problem p) " + text, "frag.pddl")
    else:
        _roundtrip(problem, domain)


DOMAIN_TEXTS = [domain_path(n).read_text() for n in ("maze", "sokoban", "gather")]


@fuzz("load_domain_file (mutated domains)")
@given(mutated(DOMAIN_TEXTS, PDDL_FRAGMENTS + [":action", ":parameters", ":precondition", ":effect", "?from", "?to",
                                                "?dir", "(:predicates", "(:types"], max_edits=3))
def test_load_domain_file_on_mutated_domains(tmp_path_factory, text):
    path = tmp_path_factory.getbasetemp() / "fuzz-domain.pddl"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        load_domain_file(path)
    except PDDLError as err:
        _check_pddl_error(err, text, str(path))


# --------------------------------------------------------------------------- state text

def _descriptions() -> list[tuple[str, str]]:
    out = []
    for name, spec in SPECS.items():
        for seed in range(3):
            size = spec.sizes[seed % len(spec.sizes)]
            state = random_state(spec, size, np.random.default_rng(seed), density=0.3 * seed)
            out.append((name, describe(spec, state)))
    return out


DESCRIPTIONS = _descriptions()
TEXT_FRAGMENTS = ["(", ")", ",", ";", ":", "none", "None", "(0, 0)", "(1,2)", "(99, 99)", "(-1, 2)", "[1, 2]", "red", "green",
                  "blue", "yellow", "purple", "1", "12", "9" * 12, "x", "grid.", "5x5", "4x5", "Player", "Walls", "Blocks",
                  "Goals", "Balls", "Coins", "Collected coins", "Collected balls", "Total coins", "Tile", "Status", "Start",
                  "Goal", "Holes", "running", "fell", "\n", "\n\n", " ", "\t", "²", "٣", "🙂", "\x00", "\u2028", "Ａ"]


def _check_strict(spec, text: str) -> None:
    try:
        state = parse(spec, text)
    except StateTextError as err:
        assert isinstance(err, ParseError)
        if err.line is not None:
            assert 1 <= err.line <= len(text.splitlines()) + 1
    else:
        assert parse(spec, describe(spec, state)) == state


@fuzz("parse (mutated descriptions)")
@given(st.sampled_from(range(len(DESCRIPTIONS))).flatmap(
    lambda i: st.tuples(st.just(DESCRIPTIONS[i][0]), mutated([DESCRIPTIONS[i][1]], TEXT_FRAGMENTS))))
def test_strict_parse_on_mutated_descriptions(case):
    name, text = case
    spec = SPECS[name]
    _check_strict(spec, text)
    got = _parse_fields(spec, text)  # the lenient core, without parse_fields' catch-all
    assert isinstance(got, dict) and parse_fields(spec, text) == got


@fuzz("parse / _parse_fields (arbitrary text)")
@given(st.sampled_from(sorted(SPECS)),
       st.one_of(st.text(max_size=200), st.lists(st.sampled_from(TEXT_FRAGMENTS), max_size=40).map("".join)))
def test_state_text_readers_on_arbitrary_text(name, text):
    spec = SPECS[name]
    _check_strict(spec, text)
    assert isinstance(_parse_fields(spec, text), dict)


# --------------------------------------------------------------------------- rules

RULE_FRAGMENTS = ["Zone", "Move", "Seen", "Moved", "Count", "TargetIs", "zone", "COUNT", "(", ")", "(", ")", ",", '"', "'",
                  "“", "”", "t", "t-1", "t+1", "t+2", "-", "+", "blue", "Blue-Green", "red", "green", "teal", "up", "down",
                  "left", "right", "north", "Key", "heart", "Food", "Total_Items", "sword", "Princess", "Treasure",
                  "dragon", "<", "<=", "==", ">=", ">", "!=", "=<", "≥", "≤", "0", "3", "10", "AND", "OR", "NOT", "->", "∧",
                  "∨", "¬", "→", "XOR", " ", "  "]


def _check_rule(text: str) -> None:
    try:
        tree = parse_formula(text)
    except RuleError as err:
        assert 1 <= err.column <= len(text) + 1
    else:
        assert parse_formula(format_formula(tree)) == tree


@fuzz("parse_formula (fragments + unicode)")
@given(st.one_of(st.lists(st.sampled_from(RULE_FRAGMENTS), max_size=30).map("".join),
                 st.lists(st.sampled_from(RULE_FRAGMENTS), max_size=20).map(" ".join),
                 st.text(max_size=60)))
def test_rule_parser_raises_only_rule_error(text):
    _check_rule(text)


@pytest.mark.parametrize("text", ["Count(key, <, ²)", "Count(key, <, " + "9" * 5000 + ")", "Zone(t+" + "1" * 4400 + ", blue)"],
                         ids=["superscript-two", "5000-digit-count", "4400-digit-offset"])
def test_rule_lexer_refuses_odd_numbers(text):
    """Non-ASCII digits and absurdly long numbers once escaped as bare ValueErrors."""
    with pytest.raises(RuleError):
        parse_formula(text)


# --------------------------------------------------------------------------- predictions

@pytest.fixture(scope="module")
def truth(tmp_path_factory):
    """Ground truth of a tiny export (2 maze instances) and a folder with images of every kind."""
    from svot.dataset import export, make_config
    from svot.metrics import load_truth
    from svot.render.image import save_png

    base = tmp_path_factory.mktemp("fuzz-truth")
    export(make_config(base / "data", domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1), quiet=True)
    ts = load_truth(base / "data")
    img = base / "preds"
    img.mkdir()
    (img / "garbage.png").write_bytes(b"\x89PNG\r\n\x1a\n not a png at all")
    save_png(img / "tiny.png", np.zeros((4, 4, 3), np.uint8))
    good = next(iter(ts)).steps[0].image
    (img / "good.png").write_bytes(good if isinstance(good, bytes) else Path(good).read_bytes())
    (img / "truncated.png").write_bytes((img / "good.png").read_bytes()[:200])
    return ts, img


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False), st.text(max_size=30)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=10,
)


@st.composite
def prediction_lines(draw, ids: list[str]) -> list[str]:
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["record", "record", "record", "json", "broken", "blank"]))
        if kind == "json":
            lines.append(json.dumps(draw(json_values)))
        elif kind == "broken":
            lines.append(draw(st.text(max_size=40)).replace("\n", " ").replace("\r", " ") or "{")
        elif kind == "blank":
            lines.append("")
        else:
            rec = {draw(st.sampled_from(["id", "instance_id"])): draw(st.one_of(st.sampled_from(ids), json_values))}
            for key in draw(st.lists(st.sampled_from(["choice", "answer", "states", "reasoning", "images", "letter",
                                                        "image_paths", "extra", "z_texts", "cz_texts", "cv_texts"]),
                                     max_size=4, unique=True)):
                if key in ("images", "image_paths"):
                    rec[key] = draw(st.lists(st.one_of(st.none(), st.sampled_from(
                        ["good.png", "garbage.png", "tiny.png", "truncated.png", "missing.png", "", "/", "a\x00b"]),
                        json_values), max_size=9))
                elif key in ("states", "reasoning", "z_texts", "cz_texts", "cv_texts"):
                    rec[key] = draw(st.one_of(json_values, st.lists(st.one_of(st.none(), st.text(max_size=40),
                                                                              st.sampled_from(["Player: (0, 0)", "move up"])),
                                                                    max_size=9)))
                else:
                    rec[key] = draw(st.one_of(st.text(max_size=20), st.sampled_from(["A", "(B)", "Player: (1, 1)"]),
                                              json_values))
            lines.append(json.dumps(rec, ensure_ascii=draw(st.booleans())))
    return lines


@fuzz("evaluate (JSON records)")
@given(data=st.data())
def test_evaluate_never_raises_on_any_records(truth, data):
    from svot.metrics import evaluate

    ts, folder = truth
    lines = data.draw(prediction_lines(sorted(ts.instances)))
    path = folder / "preds.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    report = evaluate(ts, path)
    nonblank = [i for i, ln in enumerate(lines, 1) if ln.strip()]
    assert report.lines == len(nonblank) and report.scored <= report.lines
    assert all(i.line in nonblank for i in report.issues)
    report.tables()
    json.dumps(report.to_dict())


@fuzz("read_predictions (raw bytes)")
@given(st.lists(st.one_of(st.binary(max_size=60), st.sampled_from([b"{", b"[" * 5000, b'{"id": "x"}', b"\xff\xfe",
                                                                    b'{"id": ["a"]}', b"null", b"1e999", b'"\\ud800"'])),
                max_size=8))
def test_read_predictions_never_raises_on_bytes(truth, chunks):
    from svot.metrics import evaluate
    from svot.metrics.evaluation import read_predictions

    ts, folder = truth
    path = folder / "raw.jsonl"
    path.write_bytes(b"\n".join(chunks) + b"\n")
    records, issues, base = read_predictions(path)
    n_lines = path.read_bytes().count(b"\n")
    assert base == folder and all(1 <= i.line <= n_lines for i in issues)
    assert all(1 <= ln <= n_lines for ln, _ in records)
    report = evaluate(ts, path)
    assert all(1 <= i.line <= n_lines for i in report.issues)


# --------------------------------------------------------------------------- atheris (bounded)

ATHERIS_RUNS = {"problem": 30_000, "state_text": 30_000, "rule": 30_000, "predictions": 8_000}


@pytest.mark.slow
def test_atheris_bounded_runs(tmp_path):
    """Coverage-guided fuzzing of the same four targets, ``ATHERIS_RUNS`` inputs each, seeded (skipped without
    atheris, which is not a dev dependency: ``pip install atheris`` to run it)."""
    pytest.importorskip("atheris")
    script = HERE / "reliability_atheris_target.py"
    procs = {}
    for target, runs in ATHERIS_RUNS.items():
        work = tmp_path / target
        work.mkdir()
        env = dict(os.environ, SVOT_FUZZ_TARGET=target, SVOT_FUZZ_DIR=str(work))
        procs[target] = subprocess.Popen([sys.executable, str(script), f"-runs={runs}", "-seed=1", "-max_len=400",
                                          "-timeout=20", "-rss_limit_mb=3000"], cwd=work, env=env,
                                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for target, proc in procs.items():
        out, _ = proc.communicate(timeout=900)
        assert proc.returncode == 0, f"atheris found a crash in {target}:\n{out[-4000:]}"
        done = re.findall(r"Done (\d+) runs", out)
        assert done and int(done[-1]) >= ATHERIS_RUNS[target], out[-2000:]
