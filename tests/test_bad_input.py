"""Bad input, clear errors: a catalogue of every public entry point's typical mistakes.

Each row of ``CASES`` feeds one entry point one mistake and names the exception type
expected and the words its message must contain (the culprit: a file and line, a
column, a field, a value). ``PREDICTION_CASES`` are predictions-file mistakes, which are
never fatal: they must be counted, with their line numbers, and the rest still scored.
``CLI_CASES`` run ``svot`` itself: a non-zero exit, one line on stderr, no traceback
(``SUBPROCESS_CASES`` do it in a fresh process, and show that ``--debug`` brings the
traceback back).

Other suites test some of these paths in depth (tests/test_pddl.py, tests/envs,
tests/metrics/test_metrics_evaluate.py, tests/rulemaze/test_rulemaze_parser.py);
this file is the one place that lists them all, so the count below is the catalogue.
"""

from __future__ import annotations

import errno
import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

from svot.domains.maze.env import MazeEnv
import svot
from svot.domains import get_spec
from svot.errors import (
    ActionError,
    ConfigError,
    DatasetError,
    ParseError,
    PDDLError,
    PredictionError,
    ProblemError,
    RuleError,
    SvotError,
)
from svot.pddl import load_domain, load_domain_file, parse_problem
from svot.pddl.domain import domain_path
from svot.pddl.problem import read_problem_file
from tests.conftest import SAMPLE_STATES


@dataclass(frozen=True)
class Case:
    id: str
    call: Callable[[Path], object]  # gets a fresh tmp_path
    error: type
    words: tuple = ()  # substrings of the message
    pattern: str | None = None  # a regex the message must match (search)


def _text_with(base: str, old: str, new: str) -> tuple[str, int]:
    """``base`` with ``old`` replaced by ``new`` once, and the 1-based line where ``new`` starts."""
    assert base.count(old) >= 1, old
    at = base.index(old)
    return base[:at] + new + base[at + len(old):], base[:at].count("\n") + 1


def _write(tmp: Path, text: str, name: str = "bad.pddl") -> Path:
    path = tmp / name
    path.write_text(text)
    return path


# --------------------------------------------------------------------------- PDDL domains

MAZE_DOMAIN = domain_path("maze").read_text()
SOKOBAN_DOMAIN = domain_path("sokoban").read_text()


def _domain_case(id: str, base: str, old: str, new: str, words: tuple, hint: bool = False) -> Case:
    """``hint``: an unbalanced parenthesis, reported where the reader noticed it and naming the culprit's line."""
    text, line = _text_with(base, old, new)
    pattern = rf"bad\.pddl:\d+: .*on line {line}, " if hint else rf"bad\.pddl:{line}: "
    return Case(f"domain-{id}", lambda tmp: load_domain_file(_write(tmp, text)), PDDLError, words, pattern)


DOMAIN_CASES = [
    _domain_case("unbalanced-open", MAZE_DOMAIN, "(at ?from) (adj", "(at ?from (adj", ("unbalanced '('", "probably"),
                 hint=True),
    _domain_case("unbalanced-close", MAZE_DOMAIN, "(wall ?c - cell)", "(wall ?c - cell))", ("closes more than it opens",),
                 hint=True),
    Case("domain-unbalanced-close-at-end", lambda tmp: load_domain_file(_write(tmp, MAZE_DOMAIN + "\n)\n")), PDDLError,
         ("unbalanced ')'",), rf"bad\.pddl:{MAZE_DOMAIN.count(chr(10)) + 2}: "),
    _domain_case("unknown-predicate", MAZE_DOMAIN, "(not (wall ?to))", "(not (brick ?to))", ("unknown predicate 'brick'",)),
    _domain_case("wrong-arity", MAZE_DOMAIN, "(not (wall ?to))", "(not (wall ?to ?from))",
                 ("'wall' takes 1 argument(s), given 2",)),
    _domain_case("variable-of-wrong-type", MAZE_DOMAIN, "(at ?from) (adj ?from ?dir ?to)", "(at ?from) (adj ?from ?to ?dir)",
                 ("?to is a cell, but 'adj' wants a direction",)),
    _domain_case("undeclared-parameter-type", MAZE_DOMAIN, ":parameters (?from - cell", ":parameters (?from - square",
                 ("undeclared type 'square'", "declared types: cell, direction")),
    _domain_case("undeclared-predicate-type", MAZE_DOMAIN, "(wall ?c - cell)", "(wall ?c - brick)", ("undeclared type 'brick'",)),
    _domain_case("undeclared-variable", SOKOBAN_DOMAIN, "(block ?beyond))\n", "(block ?there))\n",
                 ("variable ?there that is not among its :parameters",)),
    _domain_case("predicate-declared-twice", MAZE_DOMAIN, "(goal ?c - cell)", "(wall ?c - cell)", ("'wall' declared twice",)),
    _domain_case("no-domain-name", MAZE_DOMAIN, "(define (domain maze)", "(define (domian maze)",
                 ("expected '(domain <name>)'",)),
    _domain_case("conditional-effect", MAZE_DOMAIN, "(and (not (at ?from)) (at ?to))", "(when (at ?from) (at ?to))",
                 ("uses conditional effects ('when')", "nor PDDLGym")),
    Case("domain-empty-file", lambda tmp: load_domain_file(_write(tmp, "; nothing here\n")), PDDLError,
         ("no '(define ...)' found",), r"bad\.pddl:1: "),
    Case("domain-missing-file", lambda tmp: load_domain_file(tmp / "nowhere.pddl"), PDDLError,
         ("cannot read domain file", "nowhere.pddl")),
    Case("domain-unknown-shipped", lambda tmp: load_domain("chess"), PDDLError, ("no shipped domain 'chess'", "sokoban")),
]

# --------------------------------------------------------------------------- PDDL problems

MAZE_PROBLEM = get_spec("maze").problem_from_state(SAMPLE_STATES["maze"], "p").to_pddl()
SOKOBAN_PROBLEM = get_spec("sokoban").problem_from_state(SAMPLE_STATES["sokoban"], "s").to_pddl()


def _problem_case(id: str, old: str, new: str, words: tuple, base: str = MAZE_PROBLEM, line_of: str | None = None,
                  hint: bool = False) -> Case:
    text, line = _text_with(base, old, new)
    if line_of is not None:  # the error is reported where another token is
        line = next(i for i, ln in enumerate(text.splitlines(), 1) if line_of in ln)
    pattern = rf"^bad\.pddl:\d+: .*on line {line}, " if hint else rf"^bad\.pddl:{line}: "
    return Case(f"problem-{id}", lambda tmp: parse_problem(text, load_domain("maze"), source="bad.pddl"), PDDLError, words,
                pattern)


PROBLEM_CASES = [
    _problem_case("unbalanced-open", "(wall c_1_1)", "(wall c_1_1", ("unbalanced '('", "probably"), hint=True),
    _problem_case("unbalanced-close", "(wall c_1_1)", "(wall c_1_1))", ("closes more than it opens",), hint=True),
    _problem_case("unknown-predicate", "(wall c_1_1)", "(brick c_1_1)", ("unknown predicate 'brick' in :init",)),
    _problem_case("wrong-arity", "(wall c_1_1)", "(wall c_1_1 c_1_2)", ("'wall' takes 1 argument(s), given 2",)),
    _problem_case("object-of-wrong-type", "(wall c_1_1)", "(wall up)", ("object 'up' is a direction, but 'wall' wants a cell",)),
    _problem_case("undeclared-object", "(wall c_1_1)", "(wall c_9_9)", ("undeclared object 'c_9_9'",)),
    _problem_case("unknown-object-type", "up down left right - direction", "up down left right - heading",
                  ("object 'up' has unknown type 'heading'",)),
    _problem_case("object-declared-twice", "up down left right - direction", "up down left up - direction",
                  ("object 'up' declared twice",)),
    # action atoms are legal in :init since issue 20 (the standard flavour lists them), but checked like any atom
    _problem_case("action-atom-of-the-wrong-type", "(wall c_1_1)", "(move c_1_1)",
                  ("object 'c_1_1' is a cell, but 'move' wants a direction there",)),
    _problem_case("action-predicate-in-goal", "(:goal (at c_4_4))", "(:goal (move up))", ("unknown predicate 'move' in :goal",)),
    _problem_case("wrong-goal-atom", "(:goal (at c_4_4))", "(:goal (at up))", ("object 'up' is a direction",)),
    _problem_case("list-as-domain-name", "(:domain maze)", "(:domain (maze))", ("missing '(:domain <name>)'",), line_of="define"),
    _problem_case("list-as-problem-name", "(problem p)", "(problem (p))", ("expected '(problem <name>)'",), line_of="define"),
    Case("problem-for-the-wrong-domain",
         lambda tmp: parse_problem(SOKOBAN_PROBLEM, load_domain("maze"), source="bad.pddl"), PDDLError,
         ("problem is for domain 'sokoban', not 'maze'",), r"^bad\.pddl:2: "),
    Case("problem-missing-file", lambda tmp: read_problem_file(tmp / "none.pddl", load_domain("maze")), PDDLError,
         ("cannot read problem file", "none.pddl")),
]

# --------------------------------------------------------------------------- environments


def _env(eid: str = "SVoT/Maze-5x5-v0", **kw):
    env = gym.make(eid, **kw).unwrapped
    env.reset(seed=0)
    return env


def _venv(n: int = 3, **kw):
    venv = gym.make_vec("SVoT/Maze-5x5-v0", num_envs=n, pool_size=8, **kw)
    venv.reset(seed=0)
    return venv


def _sokoban_problem():
    return get_spec("sokoban").problem_from_state(SAMPLE_STATES["sokoban"], "s")


def _maze6_text():
    state = dict(SAMPLE_STATES["maze"], size=6, goal=[5, 5])
    return get_spec("maze").problem_from_state(state, "six").to_pddl()


ENV_CASES = [
    Case("env-unknown-id", lambda tmp: gym.make("SVoT/Chess-5x5-v0"), gym.error.NameNotFound, ("Chess-5x5",)),
    Case("env-unknown-size-id", lambda tmp: gym.make("SVoT/Maze-9x9-v0"), gym.error.NameNotFound, ("Maze-9x9", "Maze-7x7")),
    Case("env-unknown-size-kwarg", lambda tmp: gym.make("SVoT/Maze-5x5-v0", size=9), ConfigError,
         ("maze has no size 9", "5, 6, 7")),
    Case("env-size-of-wrong-type", lambda tmp: MazeEnv(size="5"), ConfigError, ("maze has no size '5'",)),
    Case("env-unknown-split", lambda tmp: MazeEnv(size=5, split="test"), ConfigError, ("unknown split 'test'",)),
    Case("env-id-unknown-domain", lambda tmp: svot.domains.env_id("chess", 5), ConfigError, ("unknown domain 'chess'", "maze")),
    Case("env-id-unknown-split", lambda tmp: svot.domains.env_id("maze", 5, "test_id"), ConfigError, ("unknown split 'test_id'",)),
    Case("step-out-of-range", lambda tmp: _env().step(4), ActionError, ("maze action 4 is out of range 0..3",)),
    Case("step-negative", lambda tmp: _env().step(-1), ActionError, ("action -1 is out of range",)),
    Case("step-gather-out-of-range", lambda tmp: _env("SVoT/Gather-4x4-v0").step(12), ActionError,
         ("gather action 12 is out of range 0..11",)),
    Case("step-string", lambda tmp: _env().step("up"), ActionError, ("integers in 0..3", "'up' (str)")),
    Case("step-float", lambda tmp: _env().step(1.5), ActionError, ("1.5 (float)",)),
    Case("step-none", lambda tmp: _env().step(None), ActionError, ("None (NoneType)",)),
    Case("step-bool", lambda tmp: _env().step(True), ActionError, ("True (bool)",)),
    Case("step-array", lambda tmp: _env().step(np.array([1, 2])), ActionError, ("(ndarray)",)),
    Case("step-before-reset", lambda tmp: gym.make("SVoT/Maze-5x5-v0").step(0), gym.error.ResetNeeded, ("reset",)),
    Case("parse-action-unknown", lambda tmp: _env().parse_action("fly"), ActionError, ("cannot read action 'fly'",)),
    Case("parse-action-gather-distance", lambda tmp: _env("SVoT/Gather-4x4-v0").parse_action("move up 9"), ActionError,
         ("'move up 9'", "1 <= k <= 3")),
    Case("reset-unknown-option", lambda tmp: _env().reset(options={"level": 3}), ConfigError,
         ("unknown reset option(s) 'level'", "known: problem")),
    Case("reset-options-not-a-dict", lambda tmp: _env().reset(options="problem"), ConfigError,
         ("reset options must be a dict", "got str")),
    Case("reset-problem-of-wrong-type", lambda tmp: _env().reset(options={"problem": 5}), ProblemError,
         ("options['problem'] must be PDDL text, a path or a svot.pddl.Problem, got int",)),
    Case("reset-problem-missing-file", lambda tmp: _env().reset(options={"problem": str(tmp / "gone.pddl")}), ProblemError,
         ("gone.pddl", "does not exist")),
    Case("reset-problem-text-for-wrong-domain", lambda tmp: _env().reset(options={"problem": SOKOBAN_PROBLEM}), PDDLError,
         ("problem is for domain 'sokoban', not 'maze'",), r"<options\['problem'\]>:2: "),
    Case("reset-problem-value-for-wrong-domain", lambda tmp: _env().reset(options={"problem": _sokoban_problem()}),
         ProblemError, ("is for domain 'sokoban', not 'maze'",)),
    Case("reset-problem-file-for-wrong-domain",
         lambda tmp: _env().reset(options={"problem": _write(tmp, SOKOBAN_PROBLEM, "soko.pddl")}), PDDLError,
         ("problem is for domain 'sokoban'",), r"soko\.pddl:2: "),
    Case("reset-problem-of-wrong-size", lambda tmp: _env().reset(options={"problem": _maze6_text()}), ProblemError,
         ("is 6x6, but this env is 5x5",)),
    # vector envs
    Case("vec-unknown-size-id", lambda tmp: gym.make_vec("SVoT/Maze-9x9-v0", num_envs=2), gym.error.NameNotFound, ("Maze-9x9",)),
    Case("vec-unknown-size-kwarg", lambda tmp: gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, size=9), ConfigError,
         ("maze has no size 9",)),
    Case("vec-num-envs-zero", lambda tmp: gym.make_vec("SVoT/Maze-5x5-v0", num_envs=0), ConfigError, ("num_envs", "got 0")),
    Case("vec-step-out-of-range", lambda tmp: _venv().step([0, 1, 9]), ActionError, ("action 9 of env 2 is out of range 0..3",)),
    Case("vec-step-negative", lambda tmp: _venv().step(np.array([0, -2, 1])), ActionError, ("action -2 of env 1",)),
    Case("vec-step-wrong-shape", lambda tmp: _venv().step([0, 1]), ActionError, ("shape (3,)", "(2,)")),
    Case("vec-step-floats", lambda tmp: _venv().step(np.array([0.0, 1.0, 2.0])), ActionError, ("integer array", "float64")),
    Case("vec-step-strings", lambda tmp: _venv().step(["up", "up", "up"]), ActionError, ("integer array", "<U2")),
    Case("vec-step-scalar", lambda tmp: _venv().step(1), ActionError, ("shape (3,)",)),
    Case("vec-step-before-reset", lambda tmp: gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2).step([0, 0]),
         gym.error.ResetNeeded, ("reset",)),
    Case("vec-reset-unknown-option", lambda tmp: _venv().reset(options={"problem": "x"}), ConfigError,
         ("unknown reset option(s) 'problem'", "reset_mask")),
    Case("vec-reset-options-not-a-dict", lambda tmp: _venv().reset(options="reset_mask"), ConfigError,
         ("reset options must be a dict",)),
    Case("vec-reset-float-seed", lambda tmp: _venv().reset(seed=1.5), ConfigError, ("one int seed", "1.5")),
    Case("vec-reset-mask-wrong", lambda tmp: _venv().reset(options={"reset_mask": [1, 0, 1]}), ConfigError,
         ("reset_mask", "bool array of shape (3,)")),
    Case("vec-problems-for-wrong-domain",
         lambda tmp: gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, problems=[SOKOBAN_PROBLEM]), PDDLError,
         ("problem is for domain 'sokoban', not 'maze'",), r"<problems>:2: "),
    Case("vec-problems-of-wrong-type", lambda tmp: gym.make_vec("SVoT/Maze-5x5-v0", num_envs=2, problems=[7]), ProblemError,
         ("got int",)),
]

# --------------------------------------------------------------------------- generators, states, datasets


def _generate(*args):
    from svot.domains import generate

    return generate(*args)


def _solve(*args):
    from svot.domains import solve

    return solve(*args)


def _build(actions):
    from svot.dataset import build_instance

    return build_instance("maze", _generate("maze", 5, "id", np.random.default_rng(0)).problem, actions)


def _render(state):
    from svot.render.image import render_state

    return render_state(get_spec("maze"), state)


def _describe(state):
    from svot.render.text import describe

    return describe(get_spec("maze"), state)


def _parse(text):
    from svot.render.text import parse

    return parse(get_spec("sokoban"), text)


SOKO_TEXT = "Sokoban, 5x5 grid.\nPlayer: (0, 0)\nBlocks: (1, 1)\nGoals: (2, 4)\nWalls: none"

STATE_CASES = [
    Case("generate-unknown-domain", lambda tmp: _generate("chess", 5, "id", np.random.default_rng(0)), ConfigError,
         ("unknown domain 'chess'",)),
    Case("generate-unknown-size", lambda tmp: _generate("maze", 4, "id", np.random.default_rng(0)), ConfigError,
         ("maze has no size 4",)),
    Case("generate-unknown-split", lambda tmp: _generate("maze", 5, "hard", np.random.default_rng(0)), ConfigError,
         ("unknown split 'hard'",)),
    Case("generate-not-a-generator", lambda tmp: _generate("maze", 5, "id", 0), ConfigError, ("numpy.random.Generator",)),
    Case("solve-problem-for-wrong-domain", lambda tmp: _solve("maze", _sokoban_problem()), ProblemError,
         ("is for domain 'sokoban', not 'maze'",)),
    Case("solve-state-missing-field", lambda tmp: _solve("maze", {"domain": "maze", "size": 5}), ProblemError,
         ("maze state has no 'player' field",)),
    Case("build-instance-action-out-of-range", lambda tmp: _build([9]), ActionError, ("action 9 is out of range",)),
    Case("build-instance-action-string", lambda tmp: _build(["up"]), ActionError, ("'up' (str)",)),
    Case("build-instance-action-float", lambda tmp: _build([1.7]), ActionError, ("1.7 (float)",)),
    Case("render-state-missing-field", lambda tmp: _render({"domain": "maze", "size": 5, "walls": [], "goal": [0, 0]}),
         ProblemError, ("maze state has no 'player' field",)),
    Case("render-state-cell-outside", lambda tmp: _render({"domain": "maze", "size": 5, "player": [7, 7], "walls": [],
                                                           "goal": [0, 0]}), ProblemError, ("(7, 7) outside the 5x5 grid",)),
    Case("describe-not-a-dict", lambda tmp: _describe(None), ProblemError, ("must be a dict with a 'size' key",)),
    Case("parse-wrong-title", lambda tmp: _parse(SOKO_TEXT.replace("Sokoban", "Maze")), ParseError,
         ("line 1", "this is a Sokoban description")),
    Case("parse-cell-outside", lambda tmp: _parse(SOKO_TEXT.replace("Blocks: (1, 1)", "Blocks: (1, 7)")), ParseError,
         ("line 3", "field 'Blocks'", "(1, 7) is outside the 5x5 grid")),
    Case("parse-unknown-field", lambda tmp: _parse(SOKO_TEXT + "\nCoins: none"), ParseError, ("line 6", "field 'Coins'")),
    Case("parse-missing-field", lambda tmp: _parse(SOKO_TEXT.replace("Goals: (2, 4)\n", "")), ParseError,
         ("missing field(s): Goals",)),
    Case("parse-field-twice", lambda tmp: _parse(SOKO_TEXT + "\nPlayer: (1, 0)"), ParseError,
         ("line 6", "field 'Player'", "appears twice")),
]

# --------------------------------------------------------------------------- exports


def _make_config(out, **kw):
    from svot.dataset import make_config

    return make_config(out, **kw)


def _export(out, workers: int = 1, **kw):
    from svot.dataset import export, make_config

    cfg = make_config(out, domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1, **kw)
    return export(cfg, workers=workers, quiet=True)


def _export_into_a_full_disk(tmp: Path):
    """The Arrow writer fails as a full disk makes it fail (ENOSPC), after writing half a file."""
    from unittest import mock

    from svot import atomic
    from svot.dataset import writers

    real = writers.write_arrow

    def full(table, path):
        real(table, path)
        tmp_file = writers.tmp_path(Path(path))
        os.replace(path, tmp_file)
        with open(tmp_file, "r+b") as f:
            f.truncate(f.seek(0, 2) // 2)
        try:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_file))
        finally:
            atomic._drop(tmp_file)

    # every exporter writes its Arrow parts through the orchestrator (svot.dataset.orchestrator)
    orchestrator = importlib.import_module("svot.dataset.orchestrator")
    with mock.patch.object(orchestrator, "write_arrow", full):
        return _export(tmp / "out")


def _export_twice(tmp: Path, **second):
    _export(tmp / "out")
    return _export(tmp / "out", **second)


def _resume_with_other_seed(tmp: Path):
    from svot.dataset import export, make_config

    _export(tmp / "out")
    cfg = make_config(tmp / "out", domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1, seed=3)
    return export(cfg, resume=True, quiet=True)


def _a_file(tmp: Path) -> Path:
    path = tmp / "a-file"
    path.write_text("not a directory\n")
    return path


EXPORT_CASES = [
    Case("export-under-a-regular-file", lambda tmp: _export(_a_file(tmp) / "out"), DatasetError,
         ("cannot write the export", "Not a directory", "a-file/out")),
    Case("export-into-proc", lambda tmp: _export("/proc/svot-export-test"), DatasetError,
         ("cannot write the export in '/proc/svot-export-test'",)),
    Case("export-onto-a-regular-file", lambda tmp: _export(_a_file(tmp)), DatasetError, ("exists and is not a directory",)),
    Case("export-into-a-full-disk", _export_into_a_full_disk, DatasetError,
         ("No space left on device", "rerun with --resume")),
    Case("export-over-an-export", lambda tmp: _export_twice(tmp), DatasetError, ("already holds an export", "--resume")),
    Case("export-resume-with-other-arguments", _resume_with_other_seed, DatasetError, ("different arguments (seed)",)),
    Case("export-unknown-domain", lambda tmp: _make_config(tmp, domains=["chess"]), ConfigError, ("unknown domain 'chess'",)),
    Case("export-size-not-in-table5", lambda tmp: _make_config(tmp, domains=["maze"], sizes=[4]), ConfigError,
         ("maze has no size 4", "--allow-any-size")),
    Case("export-zero-workers", lambda tmp: _export(tmp / "out", workers=0), ConfigError,
         ("workers must be a positive integer",)),
]

# --------------------------------------------------------------------------- rules


def _rule(text, scenario=None):
    from svot.rulemaze.rules import parse_formula

    return parse_formula(text, scenario)


def _rule_case(id: str, text: str, words: tuple, column: int, scenario=None) -> Case:
    return Case(f"rule-{id}", lambda tmp: _rule(text, scenario), RuleError, words, rf"at column {column}\n")


RULE_CASES = [
    _rule_case("unknown-predicate", 'Colour(t, "blue")', ("unknown predicate 'Colour'", "Zone, Move"), 1),
    _rule_case("unknown-colour", 'Zone(t, "teal") -> Move(t, "up")', ("unknown colour 'teal'", "blue_green"), 9),
    _rule_case("unknown-direction", 'Zone(t, "blue") -> Move(t, "north")', ("unknown direction 'north'", "up, down"), 28),
    _rule_case("unknown-operator", "Count(key, !=, 2)", ("unknown operator '!='", "<, <=, ==, >=, >"), 12),
    _rule_case("operator-missing", "Count(key, 2)", ("expected a comparison operator",), 12),
    _rule_case("unknown-item", "Seen(sword)", ("unknown item 'sword'", "Key"), 6),
    _rule_case("unknown-target", "TargetIs(dragon)", ("unknown target 'dragon'", "Princess"), 10),
    _rule_case("unknown-connective", 'Zone(t, "blue") XOR Move(t, "up")', ("unexpected 'XOR'",), 17),
    _rule_case("dangling-connective", 'Zone(t, "blue") AND', ("expected a predicate", "the end of the rule"), 20),
    _rule_case("unbalanced-close", 'Zone(t, "blue"))', ("unbalanced ')'",), 16),
    _rule_case("unclosed-open", '(Zone(t, "blue")', ("expected ')' to close the '(' at column 1",), 17),
    _rule_case("time-offset", 'Zone(t+2, "blue")', ("time offset t+2 is not supported",), 6),
    _rule_case("unterminated-string", 'Zone(t, "blue)', ("unterminated string",), 9),
    _rule_case("other-scenario-predicate", "Seen(key)", ("not available in RegularMaze rules",), 1, scenario="RegularMaze"),
    _rule_case("empty", "   ", ("empty rule",), 4),
]


def _rules_file(tmp: Path):
    from svot.rulemaze.rules import load_rules

    path = tmp / "rules.json"
    path.write_text(json.dumps([{"id": "x1", "natural_language": "n", "logic": 'Zone(t, "teal")', "scenario": "RegularMaze"}]))
    return load_rules(path)


RULE_CASES.append(Case("rules-file-bad-logic", _rules_file, RuleError,
                       ("rules.json", "rule #0", "field 'logic'", "unknown colour 'teal'", "at column 9")))

# --------------------------------------------------------------------------- RuleMaze env and files


def _rule_env():
    env = gym.make("RuleMaze/RegularMaze-3x3-v0").unwrapped
    env.reset(seed=0)
    return env


def _read_pool(tmp: Path):
    from svot.rulemaze.pool import read_pool

    path = tmp / "pool.jsonl"
    path.write_text('{"scenario": "RegularMaze"}\n')
    return read_pool(path)


RULEMAZE_CASES = [
    Case("rulemaze-step-out-of-range", lambda tmp: _rule_env().step(7), ActionError, ("integers in 0..3", "got 7")),
    Case("rulemaze-step-string", lambda tmp: _rule_env().step("up"), ActionError, ("got 'up'",)),
    Case("rulemaze-reset-unknown-option", lambda tmp: _rule_env().reset(options={"level": 1}), ConfigError,
         ("unknown reset option(s) 'level'",)),
    Case("rulemaze-pool-file-bad-record", _read_pool, ProblemError, ("pool.jsonl:1:",)),
]
RULEMAZE_CASES += [
    Case("rulemaze-reset-options-not-a-dict", lambda tmp: _rule_env().reset(options="maze"), ConfigError,
          ("options",)),
    Case("rule-unknown-scenario", lambda tmp: _rule("Seen(key)", "Hex"), ConfigError, ("unknown scenario 'Hex'",)),
]

CASES = DOMAIN_CASES + PROBLEM_CASES + ENV_CASES + STATE_CASES + EXPORT_CASES + RULE_CASES + RULEMAZE_CASES
PARAMS = [pytest.param(c, id=c.id) for c in CASES]


@pytest.mark.parametrize("case", PARAMS)
def test_bad_input_is_refused_with_a_clear_error(case: Case, tmp_path):
    with pytest.raises(case.error) as info:
        case.call(tmp_path)
    err = info.value
    if case.error.__module__.startswith("svot"):
        assert isinstance(err, SvotError) and isinstance(err, ValueError)
    message = str(err)
    for w in case.words:
        assert w in message, f"{w!r} not in {message!r}"
    if case.pattern is not None:
        assert re.search(case.pattern, message), f"{case.pattern!r} does not match {message!r}"
    assert "Traceback" not in message and len(message) < 2000


def test_catalogue_has_no_duplicate_ids():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


# --------------------------------------------------------------------------- predictions files


@pytest.fixture(scope="module")
def tiny_export(tmp_path_factory):
    """Two maze instances (test_id, one map) and their rows."""
    import pyarrow.parquet as pq

    from svot.dataset import export, make_config

    out = tmp_path_factory.mktemp("bad-input-export") / "data"
    export(make_config(out, domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1), quiet=True)
    return out, pq.read_table(out / "maze-5x5" / "test_id.parquet").to_pylist()


@dataclass(frozen=True)
class PredictionCase:
    id: str
    lines: Callable[[list, Path], list]  # (rows, folder) -> file lines (str or JSON-able)
    issues: tuple  # expected (line, kind) or (line, kind, step), in order
    scored: int
    extra: tuple = field(default=())  # words that must appear in the printed issues


def _first(rows):
    return {"id": rows[0]["id"], "choice": rows[0]["correct_choice"]}


def _broken_images(rows, folder: Path):
    (folder / "garbage.png").write_bytes(b"\x89PNG\r\n\x1a\n not really")
    (folder / "text.png").write_text("hello")
    n = len(rows[0]["steps"])
    return [{"id": rows[0]["id"], "images": ["garbage.png", "text.png", "missing.png"] + [None] * (n - 3)}]


PREDICTION_CASES = [
    PredictionCase("broken-json", lambda rows, d: ["{not json", _first(rows), '{"id": "x"', "[1, 2", "[1, 2]", '"text"'],
                   ((1, "json"), (3, "json"), (4, "json"), (5, "not_object"), (6, "not_object")), 1,
                   ("line 1: json", "not valid JSON", "expected a JSON object, got list")),
    PredictionCase("unknown-ids", lambda rows, d: [{"id": "maze-5x5-test_id-999-0", "choice": "A"}, _first(rows),
                                                    {"id": "chess", "answer": "x"}],
                   ((1, "unknown_id"), (3, "unknown_id")), 1, ("no instance 'maze-5x5-test_id-999-0'",)),
    PredictionCase("wrong-field-types", lambda rows, d: [{"id": rows[0]["id"], "choice": 2, "answer": ["B"], "states": "x",
                                                          "reasoning": {"a": 1}}],
                   ((1, "type"), (1, "type"), (1, "type"), (1, "type")), 1,
                   ("'choice' must be a string", "'answer' must be a string", "'states' must be a list")),
    PredictionCase("ids-of-wrong-type", lambda rows, d: [{"id": ["a", "list"]}, {"id": {"a": 1}}, {"instance_id": 7}, {}],
                   ((1, "missing_id"), (2, "missing_id"), (3, "missing_id"), (4, "missing_id")), 0,
                   ("the id must be a string, got list", "got dict", "got int")),
    PredictionCase("images-that-do-not-decode", _broken_images, ((1, "image", 1), (1, "image", 2), (1, "image", 3)), 1,
                   ("cannot read image 'garbage.png'", "'text.png'", "'missing.png'")),
    PredictionCase("duplicates-and-unknown-keys", lambda rows, d: [_first(rows), dict(_first(rows), confidence=0.9),
                                                                   dict(_first(rows), id=rows[1]["id"], confidence=1)],
                   ((2, "unknown_field"), (2, "duplicate_id"), (3, "unknown_field")), 2, ("'confidence'",)),
    # a bare state (no "Action i:" line) where z_i is wanted is reported too (issue 14)
    PredictionCase("step-lists-of-wrong-length", lambda rows, d: [{"id": rows[0]["id"], "states": ["Player: (0, 0)"] * 40}],
                   ((1, "length"), (1, "wrong_kind")), 1, ("40 entries for", "state_text")),
]


@pytest.mark.parametrize("case", PREDICTION_CASES, ids=[c.id for c in PREDICTION_CASES])
def test_bad_predictions_are_counted_with_their_lines(case: PredictionCase, tiny_export, tmp_path):
    from svot.metrics import evaluate

    data, rows = tiny_export
    path = tmp_path / "preds.jsonl"
    lines = case.lines(rows, tmp_path)
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    report = evaluate(data, path)  # never raises on the file's contents
    got = [(i.line, i.kind) + ((i.step,) if len(want) == 3 else ()) for i, want in zip(report.issues, case.issues)]
    assert len(report.issues) == len(case.issues), [str(i) for i in report.issues]
    assert got == list(case.issues), [str(i) for i in report.issues]
    assert report.scored == case.scored
    assert report.issue_counts() == {k: sum(1 for i in case.issues if i[1] == k) for k in {i[1] for i in case.issues}}
    text = report.tables(max_issues=50)
    for w in case.extra:
        assert w in text, text


def test_missing_predictions_or_data_are_errors(tiny_export, tmp_path):
    from svot.metrics import evaluate

    data, _rows = tiny_export
    with pytest.raises(PredictionError, match="no predictions file at .*nothing.jsonl"):
        evaluate(data, tmp_path / "nothing.jsonl")
    with pytest.raises(DatasetError, match="no data at .*nowhere"):
        evaluate(tmp_path / "nowhere", [])


# --------------------------------------------------------------------------- the command line


@dataclass(frozen=True)
class CLICase:
    id: str
    argv: tuple  # "{tmp}" is replaced by the test's tmp_path, "{data}" by a tiny export
    code: int
    words: tuple


CLI_CASES = [
    CLICase("no-command", (), 2, ("choose a command",)),
    CLICase("unknown-command", ("frobnicate",), 2, ("invalid choice: 'frobnicate'",)),
    CLICase("export-unknown-domain", ("export", "--domains", "chess", "--out", "{tmp}/x"), 2, ("unknown domain 'chess'",)),
    CLICase("export-bad-maps", ("export", "--domains", "maze", "--maps-per-split", "train=x", "--out", "{tmp}/x"), 2,
            ("--maps-per-split",)),
    CLICase("export-under-a-file", ("export", "--domains", "maze", "--sizes", "5", "--splits", "val", "--maps-per-split", "1",
                                    "--out", "{tmp}/a-file/x", "--quiet"), 2, ("Not a directory",)),
    CLICase("export-into-proc", ("export", "--domains", "maze", "--sizes", "5", "--splits", "val", "--maps-per-split", "1",
                                 "--out", "/proc/svot-cli-test", "--quiet"), 2, ("cannot write the export",)),
    CLICase("evaluate-missing-predictions", ("evaluate", "--data", "{data}", "--predictions", "{tmp}/p.jsonl"), 2,
            ("no predictions file",)),
    CLICase("evaluate-missing-data", ("evaluate", "--data", "{tmp}/nowhere", "--predictions", "{tmp}/p.jsonl"), 2,
            ("no data at",)),
    CLICase("evaluate-not-an-export", ("evaluate", "--data", "{tmp}/a-file", "--predictions", "{tmp}/p.jsonl"), 2,
            ("neither a .parquet file nor a metadata.jsonl",)),
    CLICase("rulemaze-no-subcommand", ("rulemaze",), 2, ("choose a subcommand",)),
    CLICase("rulemaze-pool-unknown-scenario", ("rulemaze", "pool", "--scenario", "hex", "--out", "{tmp}/pool"), 2,
            ("unknown scenario 'hex'",)),
    CLICase("rulemaze-pool-zero-count", ("rulemaze", "pool", "--count", "0", "--out", "{tmp}/pool"), 2, ("--count",)),
    CLICase("rulemaze-pool-under-a-file", ("rulemaze", "pool", "--count", "3", "--out", "{tmp}/a-file/pool"), 2,
            ("a-file",)),
    CLICase("rulemaze-export-under-a-file", ("rulemaze", "export", "--out", "{tmp}/a-file/x", "--scenario",
                                             "regular", "--train", "2", "--test-per-group", "1",
                                             "--pool-size", "100", "--quiet"), 2, ("a-file",)),
    CLICase("rulemaze-export-unknown-format", ("rulemaze", "export", "--out", "{tmp}/rx", "--formats", "csv"), 2,
            ("unknown format 'csv'",)),
    CLICase("rulemaze-evaluate-missing-data", ("rulemaze", "evaluate", "--data", "{tmp}/nowhere", "--predictions",
                                               "{tmp}/p.jsonl"), 2, ("does not exist",)),
]


def _argv(argv, tmp: Path, data: Path) -> list[str]:
    return [a.replace("{tmp}", str(tmp)).replace("{data}", str(data)) for a in argv]


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.values[0].id if hasattr(c, "values") else c.id for c in CLI_CASES])
def test_cli_errors_are_one_line_without_traceback(case: CLICase, tiny_export, tmp_path, capsys):
    from svot.cli import main

    _a_file(tmp_path)
    if case.id != "evaluate-missing-predictions":
        (tmp_path / "p.jsonl").write_text("{}\n")
    try:
        code = main(_argv(case.argv, tmp_path, tiny_export[0]))
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    assert code == case.code, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert "internal error" not in err, err
    for w in case.words:
        assert w in err, err


def test_evaluate_cli_survives_ids_of_any_type(tiny_export, tmp_path, capsys):
    """A predictions file whose ids are lists or objects: counted, not an internal error; as nothing
    was scored, the exit status says so (issue 13: exit non-zero when nothing was scored)."""
    from svot.cli import EXIT_NOTHING_SCORED, main

    path = tmp_path / "p.jsonl"
    path.write_text('{"id": ["a"]}\n{"id": {"b": 1}}\n{"instance_id": [1, 2]}\n')
    assert main(["evaluate", "--data", str(tiny_export[0]), "--predictions", str(path)]) == EXIT_NOTHING_SCORED
    captured = capsys.readouterr()
    assert "missing_id 3" in captured.out and "line 1: missing_id" in captured.out
    assert captured.err.count("\n") == 1 and "nothing was scored" in captured.err and "internal error" not in captured.err


SUBPROCESS_CASES = [
    ("export", ["export", "--domains", "maze", "--sizes", "5", "--maps-per-split", "1", "--out", "{tmp}/a-file/x", "--quiet"],
     "Not a directory"),
    ("evaluate", ["evaluate", "--data", "{tmp}/nowhere", "--predictions", "{tmp}/p.jsonl"], "no data at"),
    ("rulemaze", ["rulemaze", "pool", "--scenario", "hex", "--out", "{tmp}/pool"], "unknown scenario 'hex'"),
]


def test_cli_in_a_fresh_process_one_line_and_debug_traceback(tmp_path):
    """``python -m svot.cli`` and the installed ``svot`` script: exit 2, one line; ``--debug``: the traceback."""
    _a_file(tmp_path)
    (tmp_path / "p.jsonl").write_text("{}\n")
    script = Path(sys.executable).with_name("svot")
    for i, (name, argv, words) in enumerate(SUBPROCESS_CASES):
        args = _argv(argv, tmp_path, tmp_path)
        launcher = [str(script)] if i == 0 and script.exists() else [sys.executable, "-m", "svot.cli"]
        r = subprocess.run([*launcher, *args], capture_output=True, text=True)
        assert r.returncode == 2, (name, r.stderr)
        assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr and words in r.stderr, (name, r.stderr)
        assert r.stderr.startswith(f"svot {name}: error: "), r.stderr
    debug = subprocess.run([sys.executable, "-m", "svot.cli", *_argv(SUBPROCESS_CASES[0][1], tmp_path, tmp_path), "--debug"],
                           capture_output=True, text=True)
    assert debug.returncode != 0 and "Traceback" in debug.stderr and "DatasetError" in debug.stderr
