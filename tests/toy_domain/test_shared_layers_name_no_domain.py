"""Issue 17: a domain is one folder. The shared layers read a domain through its DomainSpec's hooks,
so their modules name no built-in domain (RuleMaze, svot/rulemaze, is another matter)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import svot

ROOT = Path(svot.__file__).parent
SHARED = sorted(
    [p for layer in ("render", "metrics", "envs") for p in (ROOT / layer).glob("*.py")]
    + [p for p in (ROOT / "inspect").glob("*.py") if p.name != "rulemaze.py"]
    + [ROOT / "extend.py"]
)
LITERAL = re.compile(r"[\"'](maze|frozenlake|sokoban|pacman|gather)[\"']")


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_domain_name_literal(path):
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(path.read_text().splitlines(), 1) if LITERAL.search(line)]
    assert hits == []
