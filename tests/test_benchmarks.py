"""The speed benchmark runs end to end (tiny budgets; its numbers are not checked here, only its table)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # ~25 s: it runs the whole --quick table (the generation script's check stays in the fast lane)
@pytest.mark.pddlgym
def test_bench_envs_prints_its_table_and_the_targets_line():
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_envs.py", "--quick", "--seconds", "0.05", "--pddlgym-seconds", "0.1",
         "--num-envs", "16", "--domains", "maze,gather"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    header = next(line for line in lines if line.startswith("env"))
    for column in ("single", "pddlgym", "FrozenLake", "rl", "vector", "rgb fps", "rl/FL", "engine x"):
        assert column in header
    rows = [line.split() for line in lines if line.startswith(("Maze-7x7-v0", "Gather-6x6-v0"))]
    assert [r[0] for r in rows] == ["Maze-7x7-v0", "Gather-6x6-v0"]
    # 17 columns: four headers are two words ("reset ms", "pool s", "rgb fps", "engine x")
    assert len(header.split()) == 21 and all(len(r) == 17 for r in rows)
    summary = next(line for line in lines if line.startswith("targets, lowest of this run:"))
    for target in ("single/FL", "rl/FL", "vector", "engine x"):
        assert target in summary


def test_bench_envs_every_size_lists_each_registered_id_of_a_domain():
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_envs.py", "--every-size", "--seconds", "0.02", "--domains", "frozenlake"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if line.startswith("FrozenLake-")]
    ids = [f"FrozenLake-{n}x{n}{s}-v0" for n in (4, 5, 6) for s in ("-OOD", "")]
    assert [r[0] for r in rows] == ids and all(len(r) == 6 for r in rows)
    assert any(line.startswith("targets, every size: single/FL lowest") for line in out.stdout.splitlines())


def test_bench_generation_prints_every_size_and_the_targets_line():
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_generation.py", "--seconds", "0.02"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    rows = [line.split() for line in lines if line.split() and line.split()[0] in ("maze", "frozenlake", "sokoban", "pacman", "gather")]
    assert len(rows) == 30  # 5 domains x 3 sizes x 2 splits
    summary = next(line for line in lines if line.startswith("targets, lowest of this run:"))
    assert "problems/s" in summary and "reset/s" in summary


@pytest.mark.parametrize("jit", ["1", "0"])
def test_bench_sokoban_reset_splits_a_reset_into_its_parts(jit):
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_sokoban_reset.py", "--sizes", "4", "--splits", "id,ood", "--resets", "30",
         "--warm", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "SVOT_JIT": jit},
    )
    assert out.returncode == 0, out.stderr
    mode = "verdict search: compiled (Numba " if jit == "1" else "verdict search: interpreted (SVOT_JIT=0)"
    assert any(line.startswith(mode) for line in out.stdout.splitlines())
    rows = [line.split() for line in out.stdout.splitlines() if line.split()[:1] == ["4x4"]]
    assert [r[1] for r in rows] == ["id", "ood"] and all(len(r) == 14 for r in rows)
    for r in rows:
        draws, examined, *parts_ms, timed_ms, reset_ms, rate = (float(x.replace(",", "")) for x in r[2:])
        draws_ms, screen_ms, _unsolvable, _states, _solvable_states, search_ms, loop_ms = parts_ms
        assert 1 <= examined <= draws  # the draws the screen lets through, of those drawn
        assert min(draws_ms, screen_ms, search_ms) >= 0 and search_ms > 0
        # the parts are timed inside the sample, apart from one another: they leave a non-negative rest
        assert loop_ms >= 0 and timed_ms > 0
        assert rate > 0 and reset_ms > 0
    assert float(rows[1][2]) > float(rows[0][2])  # OOD draws more
    assert any(line.startswith("targets, this run: resets/s lowest") for line in out.stdout.splitlines())


def test_bench_sokoban_reset_counts_samples_own_draws_and_puts_the_generator_back():
    """Its draws per kept problem are ``sample``'s own attempts on the same children (counted here without
    the benchmark), and the functions it wrapped are the generator's own again afterwards."""
    import importlib.util

    import numpy as np

    from svot.domains.sokoban import generator
    from svot.domains import get_domain
    from svot.problem_gen import draw_rng, sample

    spec = importlib.util.spec_from_file_location("bench_sokoban_reset", ROOT / "benchmarks" / "bench_sokoban_reset.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    names = [name for name, _part in bench.PARTS] + ["kept_draw"]
    before = [getattr(generator, n) for n in names]
    row = bench.measure(4, "ood", resets=40, warm=5, seed=3)
    assert [getattr(generator, n) for n in names] == before

    parent = np.random.default_rng([3, 4, True])
    for _ in range(5):
        sample(get_domain("sokoban"), 4, "ood", draw_rng(parent))
    attempts = [sample(get_domain("sokoban"), 4, "ood", draw_rng(parent)).params["attempts"] for _ in range(40)]
    assert row["draws"] == pytest.approx(sum(attempts) / 40)
    assert 1 <= row["after 1-3"] <= row["draws"] and row["unsolv."] >= 0


@pytest.mark.slow
def test_bench_peers_prints_both_domains_and_the_ratios_line():
    pytest.importorskip("jumanji", reason="bench_peers needs the bench extra (jumanji, jax)")
    pytest.importorskip("gym_sokoban", reason="bench_peers needs the bench extra (gym-sokoban)")
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_peers.py", "--seconds", "0.05", "--pool", "4", "--num-envs", "8"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    rows = [line.split() for line in lines if line.startswith(("Sokoban-6x6-v0", "Maze-7x7-v0"))]
    assert [r[0] for r in rows] == ["Sokoban-6x6-v0", "Maze-7x7-v0"] and all(len(r) == 9 for r in rows)
    assert next(line for line in lines if line.startswith("ratios, lowest of this run:"))


@pytest.mark.slow  # ~30 s: a 1 % export of every Table 5 pair, the ceiling, then the phases again
def test_bench_export_prints_the_targets_line_and_the_phases():
    out = subprocess.run(
        [sys.executable, "benchmarks/bench_export.py", "--fraction", "0.01", "--breakdown"],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},  # this tree's svot
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    summary = next(line for line in lines if line.startswith("targets, this run: export/PNG ceiling"))
    assert "wall clock" in summary and "per CPU second" in summary
    phases = [line.split()[0] for line in lines[lines.index(next(x for x in lines if x.startswith("where the CPU"))) + 1:]]
    assert phases == ["maps", "instances", "rows", "images", "Arrow", "sum"]


def test_bench_agents_prints_its_table():
    out = subprocess.run([sys.executable, "benchmarks/bench_agents.py", "--quick", "--seconds", "0.05"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split()[:3] == ["env", "step", "us"]
    rows = [line.split() for line in lines[1:] if line.startswith(("SVoT/", "RuleMaze/"))]
    assert [r[0] for r in rows] == ["SVoT/Maze-7x7-v0", "RuleMaze/RegularMaze-3x3-v0"] and all(len(r) == 6 for r in rows)
    assert lines[-1].startswith("goal: under 1000 us per turn")
