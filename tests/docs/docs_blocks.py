"""Reading the fenced code blocks of README.md and docs/*.md, with the docs-test conventions.

A block is a fence whose info string names a language: ``python`` blocks run
as Python, ``bash`` / ``sh`` / ``shell`` / ``console`` blocks through bash
(``console``: only the ``$ `` lines). A fence without a language is text
(sample output, a layout) and never runs. An HTML comment on the line just
before the fence (blank lines between are allowed) changes what happens:

* ``<!-- docs-test: skip (reason) -->``: not run; the test reports the reason;
* ``<!-- docs-test: requires pkg1 pkg2 -->``: run only when every name is an
  importable module or a command on PATH, else reported as skipped.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYTHON_LANGS = {"python", "py", "python3"}
SHELL_LANGS = {"bash", "sh", "shell", "console"}
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")
_DIRECTIVE = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<verb>skip|requires)\b(?P<rest>.*?)-->\s*$")

# README's first code block (after the title and one paragraph) holds the install commands; .ci/run
# runs them itself, so the block carries no directive and is reported as skipped with this reason.
INSTALL_BLOCK_REASON = "README's install commands: .ci/run runs them before the tests"


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    lang: str  # "python", "shell" or "" (text)
    code: str
    skip: str | None = None  # reason it is not run
    requires: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def doc_files() -> list[Path]:
    """README.md, then every docs/*.md in name order (docs added later are picked up)."""
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _directive(lines: list[str], fence_index: int) -> tuple[str | None, tuple[str, ...]]:
    j = fence_index - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    m = _DIRECTIVE.match(lines[j]) if j >= 0 else None
    if not m:
        return None, ()
    rest = m["rest"].strip()
    if m["verb"] == "skip":
        return (rest.strip("()").strip() or "no reason given"), ()
    return None, tuple(rest.split())


def _console_commands(code: str) -> str:
    return "\n".join(ln[2:] for ln in code.splitlines() if ln.startswith("$ "))


def read_blocks(path: Path) -> list[Block]:
    """Every fenced block of ``path`` in order (text blocks included, with lang "")."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m["fence"], m["info"].lower(), i
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][len(m["indent"]):] if lines[i].startswith(m["indent"]) else lines[i])
            i += 1
        i += 1  # the closing fence
        code = "\n".join(body) + "\n"
        lang = "python" if info in PYTHON_LANGS else "shell" if info in SHELL_LANGS else ""
        if info == "console":
            code = _console_commands(code) + "\n"
        skip, requires = _directive(lines, start)
        blocks.append(Block(path, start + 1, lang, code, skip, requires))
    if path == REPO / "README.md" and blocks and blocks[0].skip is None:
        first = blocks[0]
        blocks[0] = Block(path, first.line, first.lang or "shell", first.code, INSTALL_BLOCK_REASON)
    return blocks


def missing_requirements(block: Block) -> list[str]:
    return [r for r in block.requires if importlib.util.find_spec(r) is None and shutil.which(r) is None]
