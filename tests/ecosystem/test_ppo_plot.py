"""examples/train_ppo.py's curve: the "first at target" annotation covers no data point or line."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

matplotlib = pytest.importorskip("matplotlib", reason="the PPO plot needs matplotlib")
matplotlib.use("Agg")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"

# The shape of docs/images/ppo_maze5.png (success every 10k steps, read off the figure, rounded):
# a steep rise between 10k and 30k steps, where the old fixed annotation spot sat.
SUCCESS = [0.086, 0.104, 0.682, 0.824, 0.874, 0.92, 0.918, 0.946, 0.938, 0.948, 0.964, 0.958, 0.964,
           0.968, 0.964, 0.978, 0.978, 0.97, 0.964, 0.966, 0.968]


def _script():
    spec = importlib.util.spec_from_file_location("train_ppo", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _rows():
    steps = [i * 10_000 for i in range(len(SUCCESS) - 1)] + [200_704]
    return [{"timesteps": s, "train_seconds": 1.5 * s / 1000, "success": v, "success_tight": v, "steps_over_optimal": 1.0}
            for s, v in zip(steps, SUCCESS)]


def test_annotation_is_placed_clear_of_the_data(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    mod = _script()
    captured = {}
    real = mod.place_clear_of_data

    def spy(fig, ax, note, avoid=()):
        ok = real(fig, ax, note, avoid)
        captured.update(ok=ok, clashes=mod.annotation_clashes(fig, ax, note, avoid), position=note.get_position())
        # text written over the marked point itself must count as a clash: the check can fail
        fx, fy = ax.transAxes.inverted().transform(ax.transData.transform(note.xy))
        note.set_position((fx - 0.03, fy - 0.02))
        fig.canvas.draw()
        captured["old_clashes"] = mod.annotation_clashes(fig, ax, note, avoid)
        note.set_position(captured["position"])
        return ok

    monkeypatch.setattr(mod, "place_clear_of_data", spy)
    mod.plot_curve(_rows(), tmp_path / "curve.png", "t", 0.9, 2, 0.76)
    plt.close("all")
    assert captured["old_clashes"], "text over the data point must be seen as a clash"
    assert captured["ok"] and captured["clashes"] == []
    assert (tmp_path / "curve.png").stat().st_size > 0


def test_replot_redraws_from_the_run_files(tmp_path):
    mod = _script()
    rows = _rows()
    with open(tmp_path / "curve.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    settings = {"policy": "ego-cnn", "env_id": "SVoT/Maze-5x5-v0", "seed": 0, "target": 0.9, "slack": 2}
    (tmp_path / "summary.json").write_text(json.dumps({"settings": settings, "heldout_problems": 500,
                                                       "random_policy_success": 0.76}))
    assert mod.main(["--replot", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "curve.png").stat().st_size > 0
