"""Issue 17: a domain is one folder. The shared layers read a domain through its DomainSpec's hooks,
so outside ``svot/domains/<name>/`` no module's code names a built-in domain: no string that is a
domain's name or title, no identifier that starts with one (``MazeVectorEnv``, ``GATHER_...``).
Docstrings and comments may use the domains as examples; code may not.

RuleMaze's mazes are domains of the registry (``svot/domains/regularmaze/``,
``svot/domains/questmaze/``, and the open grid's ``svot/domains/questmaze5/``), and its *scenarios*
(RegularMaze, QuestMaze) are declared in those folders (``scenario.py``, found through
``svot/rulemaze/scenario.py``). The RuleMaze layer on top (``svot/rulemaze/**`` and
``svot/inspect/rulemaze.py``: rules, tools, EM / PR, pools, export, render, env) asks a scenario
object and names none: in its code no string is a scenario's name or alias or a domain's name or
title (``"QuestMaze"``, ``"regular"``, ``"questmaze5"``, ``"sokoban"``), and no identifier (name,
argument, keyword, attribute, definition, import) or module has one among its words (``REGULAR``,
``START_QUEST``, ``_quest_state``, ``OpenQuestMazeEnv``, ``quest_open.py``). Three things stay
allowed there:

* RuleMaze's own word "maze" (its maze object), which is also the Maze domain's name;
* ``quest_layout``, the export's and the CLI's public option (``--quest-layout``, a manifest key);
* cell symbols (``"green"``, ``"prince"``, ``"key"``): they are the rule language's values
  (``Zone(t,"pink")``, ``Seen("Key")``) and what the renderer draws, shared by design.

The registry, ``svot/domains/__init__.py``, is the one place that lists the built-in domains (their
order is the export order).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import svot
from svot.domains import DOMAINS, SPECS
from svot.rulemaze.scenario import scenarios

ROOT = Path(svot.__file__).parent
BUILT_IN = DOMAINS  # the registry's domains at import: SVoT's five and RuleMaze's three mazes
SHARED = sorted(
    p for p in ROOT.rglob("*.py")
    if not p.relative_to(ROOT).parts[0] == "rulemaze"
    and p.name != "rulemaze.py"  # svot/inspect/rulemaze.py: RuleMaze's Inspect tasks
    and p != ROOT / "domains" / "__init__.py"  # the registry: the one list of the built-ins, in export order
    and not (p.relative_to(ROOT).parts[0] == "domains" and p.parent.name in BUILT_IN)
)
NAMES = re.compile(r"^(%s)" % "|".join(BUILT_IN + tuple(SPECS[d].title for d in BUILT_IN)), re.IGNORECASE)


def _docstrings(tree) -> set[int]:
    """ids of the string constants that are docstrings."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


#: The agent adapters (svot/agents) take RuleMaze rows, whose ``maze`` field is a RuleMaze maze dict: RuleMaze's
#: own word (as RULEMAZE_WORDS below lets it be), not the Maze domain. Only that field name is let through there.
AGENT_ROW_FIELDS = {"maze"}


def domain_names_in_code(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    skip = _docstrings(tree)
    if path.relative_to(ROOT).parts[0] == "agents":
        skip |= {id(node) for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in AGENT_ROW_FIELDS}
    allowed_names = AGENT_ROW_FIELDS if path.relative_to(ROOT).parts[0] == "agents" else set()
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in allowed_names:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if node.value.lower() in BUILT_IN or node.value in {SPECS[d].title for d in BUILT_IN}:
                hits.append(f"{node.lineno}: string {node.value!r}")
        elif isinstance(node, ast.Name) and NAMES.match(node.id) and node.id.lower() not in ("mazes",):
            hits.append(f"{node.lineno}: name {node.id}")
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and NAMES.match(node.name):
            hits.append(f"{node.lineno}: definition {node.name}")
    return hits


def test_the_check_sees_the_domain_folders():
    """The measure itself: the domain folders are full of their own names."""
    assert domain_names_in_code(ROOT / "domains" / "sokoban" / "spec.py")
    assert len(SHARED) > 60


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_domain_named_in_shared_code(path):
    assert domain_names_in_code(path) == []


# --- the RuleMaze layer: it names no scenario and no domain ------------------------------------------
RULEMAZE = sorted((ROOT / "rulemaze").rglob("*.py")) + [ROOT / "inspect" / "rulemaze.py"]
#: Public names that keep a scenario's word: the export's and CLI's option (in manifests, in scripts).
RULEMAZE_ALLOWED = {"quest_layout"}
#: What RuleMaze code may not name: every domain but Maze (whose name is RuleMaze's own word "maze"),
#: and every scenario's name and aliases.
RULEMAZE_WORDS = sorted(
    {d for d in BUILT_IN if d != "maze"} | {SPECS[d].title.lower() for d in BUILT_IN if d != "maze"}
    | {w for s in scenarios() for w in (s.name.lower(), *s.aliases, *s.domains.values())},
    key=len, reverse=True)
_WORD_BREAKS = re.compile(r"_+|(?<=[a-z0-9])(?=[A-Z])")


def _names_one(identifier: str | None) -> bool:
    """Whether an identifier has a scenario's or a domain's name among its words: ``START_QUEST``,
    ``OpenQuestMazeEnv``, ``frozen_lake`` (words split at ``_`` and lower-to-upper case steps; runs
    of neighbouring words are joined too)."""
    if not identifier or identifier in RULEMAZE_ALLOWED:
        return False
    words = [w.lower() for w in _WORD_BREAKS.split(identifier) if w]
    return any("".join(words[i:j]) in RULEMAZE_WORDS for i in range(len(words)) for j in range(i + 1, len(words) + 1))


def scenario_names_in_code(path: Path) -> list[str]:
    """Where a RuleMaze module's code (not its docstrings and comments) names a scenario or a domain."""
    tree = ast.parse(path.read_text(), str(path))
    skip = _docstrings(tree)
    hits = [f"module name {path.stem}"] if _names_one(path.stem) else []
    named = _names_one

    for node in ast.walk(tree):
        line = getattr(node, "lineno", "?")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if node.value.lower() in RULEMAZE_WORDS:
                hits.append(f"{line}: string {node.value!r}")
        elif isinstance(node, ast.Name) and named(node.id):
            hits.append(f"{line}: name {node.id}")
        elif isinstance(node, ast.arg) and named(node.arg):
            hits.append(f"{line}: argument {node.arg}")
        elif isinstance(node, ast.keyword) and named(node.arg):
            hits.append(f"{line}: keyword {node.arg}")
        elif isinstance(node, ast.Attribute) and named(node.attr):
            hits.append(f"{line}: attribute {node.attr}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and named(node.name):
            hits.append(f"{line}: definition {node.name}")
        elif isinstance(node, ast.alias) and named((node.asname or node.name).rsplit(".", 1)[-1]):
            hits.append(f"{line}: import {node.name}")
    return hits


def test_the_rulemaze_check_sees_the_scenario_folders():
    """The measure itself: a scenario's folder is full of its own names, and the words cover both
    scenarios and the open grid's domain."""
    assert scenario_names_in_code(ROOT / "domains" / "questmaze" / "scenario.py")
    assert {"regularmaze", "questmaze", "questmaze5", "regular", "quest"} <= set(RULEMAZE_WORDS)
    assert "maze" not in RULEMAZE_WORDS
    assert len(RULEMAZE) > 30


def test_the_rulemaze_check_catches_a_branch(tmp_path):
    branch = tmp_path / "branch.py"
    branch.write_text('from svot.rulemaze import symbols as S\n\n\n'
                      'def start(scenario):\n'
                      '    """RegularMaze starts on green."""  # docstrings may name it\n'
                      '    return "green" if scenario == S.REGULAR else S.START_QUEST\n\n\n'
                      'def domain(maze):\n    return "questmaze5" if maze.open_grid else "QuestMaze"\n')
    assert sorted(scenario_names_in_code(branch)) == [
        "10: string 'QuestMaze'", "10: string 'questmaze5'", "6: attribute REGULAR", "6: attribute START_QUEST"]
    module = tmp_path / "quest_open.py"  # a module named after a scenario
    module.write_text("")
    assert scenario_names_in_code(module) == ["module name quest_open"]


def test_identifiers_are_read_word_by_word():
    for hit in ("REGULAR", "START_QUEST", "_quest_state", "OpenQuestMazeEnv", "regularmaze_x", "FrozenLakeSpec",
                "questmaze5", "SokobanThing"):
        assert _names_one(hit), hit
    for fine in ("maze", "Maze", "maze_side", "quest_layout", "request", "irregular", "open_grid_maze"):
        assert not _names_one(fine), fine


@pytest.mark.parametrize("path", RULEMAZE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_scenario_named_in_rulemaze_code(path):
    assert scenario_names_in_code(path) == []
