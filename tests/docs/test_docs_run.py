"""Every fenced Python and shell block of README.md and docs/*.md runs as written, top to bottom.

Per document, its blocks run in order in a fresh temporary directory (Python
blocks in one shared namespace, shell blocks through bash with the venv's bin
first on PATH; see ``docs_runner.py``). ``examples/``, ``benchmarks/``, ``svot/``
and ``tests/`` are linked into that directory, as a user runs blocks from a checkout. Blocks marked
``<!-- docs-test: skip (reason) -->``, or ``requires`` a missing package, are
reported as skipped tests with their reason. ``SDL_VIDEODRIVER=dummy`` keeps
``render_mode="human"`` off screen.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.docs_blocks import REPO, doc_files, missing_requirements, read_blocks

RUNNER = Path(__file__).with_name("docs_runner.py")
# what a block may read from a checkout by relative path (blocks write only new files of their own)
LINKED = ("examples", "benchmarks", "svot", "tests")
DOCS = doc_files()


def _skipped(block) -> str | None:
    if block.skip:
        return block.skip
    missing = missing_requirements(block)
    return f"needs {', '.join(missing)} (not installed)" if missing else None


SKIPPED = [(b, _skipped(b)) for p in DOCS for b in read_blocks(p) if b.lang and _skipped(b)]


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS, ids=[p.relative_to(REPO).as_posix() for p in DOCS])
def test_doc_blocks_run_in_order(doc: Path, tmp_path: Path):
    blocks = [b for b in read_blocks(doc) if b.lang and not _skipped(b)]
    if not blocks:
        pytest.skip(f"{doc.name} has no runnable code block")
    for name in LINKED:
        if (REPO / name).exists():
            (tmp_path / name).symlink_to(REPO / name)
    spec = tmp_path / ".docs-blocks.json"
    spec.write_text(json.dumps([{"where": b.where, "lang": b.lang, "code": b.code} for b in blocks]))
    # one torch/OpenMP thread: the suite runs a worker per core, more threads only contend
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", MPLBACKEND="Agg", PYTHONPATH=str(REPO), OMP_NUM_THREADS="1")
    r = subprocess.run([sys.executable, str(RUNNER), str(spec)], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, f"a block of {doc.name} failed:\n{r.stdout[-6000:]}\n{r.stderr[-6000:]}"
    ran = r.stdout.count("=== ")
    assert ran == len(blocks), r.stdout


@pytest.mark.parametrize("block,reason", SKIPPED, ids=[b.where for b, _ in SKIPPED])
def test_skipped_block(block, reason):
    """One skipped test per block that is not run, so ``-ra`` lists each with its reason."""
    assert block.lang  # a code block (text blocks are never listed)
    pytest.skip(f"{block.where}: {reason}")


def test_directives_are_read(tmp_path, monkeypatch):
    """The conventions themselves: skip, requires, console prompts, text fences."""
    import tests.docs.docs_blocks as D

    doc = tmp_path / "x.md"
    doc.write_text(
        "```\nnot code\n```\n"
        "<!-- docs-test: skip (too slow) -->\n```bash\nsleep 999\n```\n"
        "<!-- docs-test: requires no_such_module_xyz -->\n\n```python\nimport no_such_module_xyz\n```\n"
        "```console\n$ echo hi\nhi\n```\n"
        "```python\nx = 1\n```\n"
    )
    monkeypatch.setattr(D, "REPO", tmp_path)
    blocks = D.read_blocks(doc)
    assert [b.lang for b in blocks] == ["", "shell", "python", "shell", "python"]
    assert blocks[1].skip == "too slow"
    assert blocks[2].requires == ("no_such_module_xyz",) and D.missing_requirements(blocks[2]) == ["no_such_module_xyz"]
    assert blocks[3].code == "echo hi\n"
    assert blocks[4].skip is None and blocks[4].requires == () and blocks[4].line == 17
