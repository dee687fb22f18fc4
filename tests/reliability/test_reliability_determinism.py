"""Determinism: every generator, export and env reset gives the same bytes in fresh processes, whatever
``PYTHONHASHSEED`` and the number of workers.

Extends ``tests/test_determinism.py`` (single-env resets of every id at seeds 0 and 1) and
``tests/problem_gen`` (one size per domain) to: problem_gen at every Table 5 size and both
splits, RuleMaze pools (1 and 2 workers), single-env reset *sequences* (resets without a seed
continue the env's generator), vector envs (reset and steps), and a multi-domain ImageFolder
export with 1 worker under one hash seed against 2 workers under another.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from reliability_helpers import HERE, manifest_without_command, tree_digest

DIGESTS = HERE / "reliability_digests.py"
EXPORT = ["export", "--domains", "gather,sokoban", "--sizes", "4", "--splits", "val,test_ood", "--maps-per-split", "2",
          "--chunk-maps", "1", "--format", "jsonl", "--quiet"]


def _start(argv: list[str], hashseed: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    return subprocess.Popen([sys.executable, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _finish(proc: subprocess.Popen) -> str:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return out


def test_generators_envs_and_exports_identical_across_processes_hash_seeds_and_workers(tmp_path):
    parts = "problems,pool,env,vector"
    procs = {
        "digests-0": _start([str(DIGESTS), parts], "0"),
        "digests-4242": _start([str(DIGESTS), parts], "4242"),
        "export-1": _start(["-m", "svot.cli", *EXPORT, "--workers", "1", "--out", str(tmp_path / "w1")], "0"),
        "export-2": _start(["-m", "svot.cli", *EXPORT, "--workers", "2", "--out", str(tmp_path / "w2")], "987"),
    }
    outs = {k: _finish(p) for k, p in procs.items()}
    a, b = json.loads(outs["digests-0"]), json.loads(outs["digests-4242"])
    assert sorted(a) == sorted(b)
    differ = sorted(k for k in a if a[k] != b[k])
    assert not differ, f"different output under another PYTHONHASHSEED: {differ}"
    # every domain x size x split: SVoT's five at their 3 Table 5 sizes, RuleMaze's three mazes at 2
    assert sum(k.startswith("problems/") for k in a) == 5 * 3 * 2 + 3 * 2 * 2
    assert {k.split("/")[0] for k in a} == {"problems", "pool", "env", "vector"}
    w1, w2 = tree_digest(tmp_path / "w1"), tree_digest(tmp_path / "w2")
    assert len(w1) > 10 and w1 == w2  # metadata.jsonl and every PNG
    assert manifest_without_command(tmp_path / "w1") == manifest_without_command(tmp_path / "w2")
