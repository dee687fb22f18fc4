"""Issue 17: a domain is one folder. The shared layers read a domain through its DomainSpec's hooks,
so outside ``svot/domains/<name>/`` no module's code names a built-in domain: no string that is a
domain's name or title, no identifier that starts with one (``MazeVectorEnv``, ``GATHER_...``).
Docstrings and comments may use the domains as examples; code may not.

RuleMaze's mazes are domains of the registry (``svot/domains/regularmaze/``,
``svot/domains/questmaze/``, and the open grid's ``svot/domains/questmaze5/``). The layer on top
(``svot/rulemaze``: rules, tools, EM / PR, its pools) is RuleMaze's own and is left out here; its
word "maze" means its own maze object, not the Maze domain. The registry,
``svot/domains/__init__.py``, is the one place that lists the built-in domains (their order is the
export order).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import svot
from svot.domains import DOMAINS, SPECS

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


def domain_names_in_code(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    skip = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
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
