"""benchmarks/bench_jax.py runs end to end (a tiny budget; its numbers are not checked, only its table)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax", reason="the JAX backend needs the 'jax' extra (pip install svot[jax])")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # ~20 s: two compiles and the numpy env, one domain at 2^10 envs
def test_bench_jax_prints_its_table_and_ratios():
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_jax.py", "--seconds", "0.05", "--domains", "gather,maze",
         "--log2-envs", "10,14", "--pool", "64", "--no-jumanji"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])),  # this checkout's svot
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("# bench_jax: JAX") and " on cpu" in lines[0]  # the device is named
    rows = [line.split() for line in lines if line.startswith(("Gather-6x6-v0", "Maze-7x7-v0"))]
    assert [(r[0], r[1]) for r in rows] == [("Gather-6x6-v0", "1024"), ("Gather-6x6-v0", "16384"),
                                            ("Maze-7x7-v0", "1024"), ("Maze-7x7-v0", "16384")]
    assert lines[-1].startswith("ratios, jax/numpy at 2^14 envs: lowest")
