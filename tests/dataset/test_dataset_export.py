"""Exports: Parquet/ImageFolder loading, predictions view, determinism, kill + resume, CLI errors."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

import svot  # noqa: F401
from svot.cli import main
from svot.dataset import SPLIT_NAMES, SPLITS, export, make_config, predictions
from svot.dataset.choices import check_choices
from svot.domains import get_spec
from svot.render.image import render_state
from svot.render.labels import label_grid

datasets = pytest.importorskip("datasets")
datasets.disable_progress_bars()

SMALL = {"train": 3, "val": 2, "test_id": 2, "test_ood": 2}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != "manifest.json"}


@pytest.fixture(scope="module")
def small_export(tmp_path_factory):
    out = tmp_path_factory.mktemp("export")
    cfg = make_config(out, domains=["sokoban", "frozenlake"], sizes=[4], maps_per_split=SMALL)
    return export(cfg, quiet=True)


def _decode(value) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(value["bytes"])).convert("RGB"))


def test_parquet_loads_with_datasets(small_export):
    out = small_export.out
    path = out / "sokoban-4x4" / "test_id.parquet"
    assert b"huggingface" in pq.read_schema(path).metadata
    ds = datasets.load_dataset("parquet", data_files=str(path), cache_dir=str(out / ".hf"))["train"]
    assert len(ds) == SMALL["test_id"] * SPLITS["test_id"].sequences
    assert isinstance(ds.features["image"], datasets.Image)
    row = ds[0]
    assert isinstance(row["image"], Image.Image) and row["image"].size == (256, 256)
    assert isinstance(row["step_images"][0], Image.Image) and len(row["step_images"]) == row["n_steps"]
    spec = get_spec("sokoban")
    state0 = json.loads(row["initial_state"])
    assert np.array_equal(np.asarray(row["image"].convert("RGB")), render_state(spec, state0))


def test_exported_rows_are_consistent(small_export):
    """Images, labels and texts match the recorded states; choice sets obey A.7; every row replays."""
    import gymnasium as gym

    from svot.domains import env_id

    for name in ("sokoban-4x4", "frozenlake-4x4"):
        domain = name.split("-")[0]
        spec = get_spec(domain)
        for split in SPLIT_NAMES:
            table = pq.read_table(small_export.out / name / f"{split}.parquet").to_pylist()
            env = gym.make(env_id(domain, 4, SPLITS[split].distribution)).unwrapped
            for row in table:
                initial = json.loads(row["initial_state"])
                _o, info = env.reset(options={"problem": row["problem_pddl"]})
                assert info["state"] == initial
                assert row["initial_labels"] == label_grid(spec, initial)
                assert len(row["step_images"]) == len(row["steps"])
                for s, img in zip(row["steps"], row["step_images"]):
                    _o, _r, _term, _tr, info = env.step(s["action"])
                    state = json.loads(s["state"])
                    assert info["state"] == state and info["applicable"] == s["applicable"]
                    assert s["labels"] == label_grid(spec, state)
                    assert np.array_equal(_decode(img), render_state(spec, state))
                    assert all(k["value"] in s["reasoning"] for k in s["keywords"])
                assert len(row["steps"]) == row["n_steps"] == len(row["actions"])
                choices = json.loads(row["choice_goals"])
                goal = json.loads(row["goal"])
                correct = "ABCD".index(row["correct_choice"])
                assert check_choices(domain, goal, initial, choices, correct) == []
                assert row["choices"][correct] == row["answer"]
                assert row["prompt"].count("<image>") == 1 and row["answer"] not in row["prompt"]


def test_summary_and_manifest(small_export):
    m = small_export.manifest
    assert m["package"] == "svot" and m["version"] == svot.__version__
    assert set(m["files"]) == {f"{d}/{s}.parquet" for d in ("sokoban-4x4", "frozenlake-4x4") for s in SPLIT_NAMES} | {"README.md"}
    from svot.dataset.writers import sha256_file

    for rel, info in m["files"].items():
        assert sha256_file(small_export.out / rel) == info["sha256"]
    split = m["datasets"]["sokoban-4x4"]["splits"]["train"]
    assert split["table5_predictions"] == 5326
    assert split["predictions"] == predictions(split["instances"], split["steps"])
    assert m["datasets"]["sokoban-4x4"]["generator"]["ood"]["wall_density"] == 0.3
    text = small_export.summary()
    assert "sokoban-4x4" in text and "5326" in text
    assert not (small_export.out / ".parts").exists()


def test_predictions_view(tmp_path):
    cfg = make_config(tmp_path, domains=["gather"], sizes=[4], splits=["val"], view="predictions", maps_per_split=SMALL)
    res = export(cfg, quiet=True)
    (row,) = res.rows
    ds = datasets.load_dataset("parquet", data_files=str(tmp_path / "gather-4x4" / "val.parquet"), cache_dir=str(tmp_path / ".hf"))["train"]
    assert len(ds) == row.predictions == predictions(row.stats["instances"], row.stats["steps"])
    kinds = {k: sum(1 for x in ds["kind"] if x == k) for k in ("state", "visualization", "goal")}
    assert kinds == {"state": row.stats["steps"], "visualization": row.stats["steps"], "goal": row.stats["instances"]}
    for r in ds:
        assert r["prompt"].count("<image>") == len(r["images"])
        if r["kind"] == "visualization":
            assert isinstance(r["target_image"], Image.Image) and r["target"]
        elif r["kind"] == "goal":
            assert r["target_classification"] in "ABCD" and r["prompt_classification"].count("<image>") == len(r["images"])
            assert r["choices"]["ABCD".index(r["target_classification"])] == r["target"]
        else:
            assert r["target_image"] is None and r["target"].startswith(r["reasoning"])


def test_jsonl_imagefolder(tmp_path):
    cfg = make_config(tmp_path, domains=["pacman"], sizes=[4], splits=["test_ood"], format="jsonl", maps_per_split=SMALL)
    export(cfg, quiet=True)
    split_dir = tmp_path / "pacman-4x4" / "test_ood"
    assert (split_dir / "metadata.jsonl").exists()
    ds = datasets.load_dataset("imagefolder", data_dir=str(split_dir), cache_dir=str(tmp_path / ".hf"))["train"]
    assert len(ds) == SMALL["test_ood"] * 2
    r = ds[0]
    assert isinstance(r["image"], Image.Image) and len(r["step_images"]) == r["n_steps"]


def test_same_bytes_with_one_and_two_workers(tmp_path):
    kwargs = dict(domains=["maze"], sizes=[5], maps_per_split={"train": 4, "val": 2, "test_id": 2, "test_ood": 2}, chunk_maps=1)
    a = export(make_config(tmp_path / "a", **kwargs), workers=1, quiet=True)
    b = export(make_config(tmp_path / "b", **kwargs), workers=2, quiet=True)
    assert a.manifest["files"] == b.manifest["files"]
    assert _files(tmp_path / "a") == _files(tmp_path / "b")


CLI_ARGS = ["export", "--domains", "maze", "--sizes", "5", "--maps-per-split", "train=30,val=2,test_id=2,test_ood=2",
            "--chunk-maps", "2", "--seed", "4", "--quiet"]


def test_killed_export_resumes_to_the_same_bytes(tmp_path):
    killed, clean = tmp_path / "killed", tmp_path / "clean"
    env = dict(os.environ, PYTHONHASHSEED="random")
    proc = subprocess.Popen([sys.executable, "-m", "svot.cli", *CLI_ARGS, "--out", str(killed)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    try:
        while time.time() < deadline and proc.poll() is None:
            if any((killed / ".parts").rglob("chunk-*.arrow")):
                break
            time.sleep(0.005)
        assert proc.poll() is None, f"export ended before it could be killed: {proc.stderr.read().decode()}"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert not (killed / "manifest.json").exists()
    for p in killed.rglob("*.parquet"):  # nothing half-written under a final name
        pq.read_table(p)
    # without --resume or --overwrite: one line, non-zero
    assert main([*CLI_ARGS, "--out", str(killed)]) == 2
    assert main([*CLI_ARGS, "--out", str(killed), "--resume"]) == 0
    assert main([*CLI_ARGS, "--out", str(clean)]) == 0
    assert _files(killed) == _files(clean)
    mk, mc = (json.loads((d / "manifest.json").read_text()) for d in (killed, clean))
    assert mk["files"] == mc["files"] and "--resume" in mk["command"]


def test_resume_overwrite_and_mismatched_arguments(tmp_path, capsys):
    args = ["export", "--domains", "pacman", "--sizes", "4", "--splits", "val", "--maps-per-split", "2", "--quiet", "--out", str(tmp_path)]
    assert main(args) == 0
    before = _files(tmp_path)
    capsys.readouterr()
    assert main(args + ["--resume"]) == 0  # already complete: nothing to redo, same bytes
    assert _files(tmp_path) == before
    assert main(args[:-2] + ["--seed", "1", "--out", str(tmp_path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "different arguments (seed)" in err
    assert main(args[:-2] + ["--seed", "1", "--out", str(tmp_path), "--overwrite"]) == 0
    assert _files(tmp_path) != before


@pytest.mark.parametrize(
    "argv, words",
    [
        (["export", "--domains", "chess", "--out", "X"], "unknown domain 'chess'"),
        (["export", "--domains", "maze", "--sizes", "4", "--out", "X"], "maze has no size 4"),
        (["export", "--domains", "sokoban", "--splits", "test", "--out", "X"], "unknown split 'test'"),
        (["export", "--paper", "--domains", "maze", "--out", "X"], "--paper"),
        (["export", "--domains", "maze", "--format", "csv", "--out", "X"], "unknown format"),
        (["export", "--domains", "maze", "--sizes", "five", "--out", "X"], "not an integer"),
        (["export", "--domains", "maze", "--out", "X", "--resume", "--overwrite"], "not allowed with"),
        (["export", "--domains", "maze"], "required"),
        (["export", "--domains", "maze", "--out", "X", "--workers", "0"], "workers"),
    ],
)
def test_cli_errors_are_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "X" / "manifest.json").exists()


def test_cli_entry_point_error_has_no_traceback(tmp_path):
    r = subprocess.run([sys.executable, "-m", "svot.cli", "export", "--domains", "maze", "--sizes", "9", "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr and "size 9" in r.stderr


def test_quiet_export_prints_only_its_closing_line(tmp_path, capsys):
    """``--quiet`` drops the summary table (issue 46: it printed it anyway); the line naming what was written stays."""
    args = ["export", "--domains", "maze", "--sizes", "5", "--splits", "test_id", "--maps-per-split", "1"]
    assert main([*args, "--out", str(tmp_path / "loud")]) == 0
    loud = capsys.readouterr().out.splitlines()
    assert main([*args, "--out", str(tmp_path / "quiet"), "--quiet"]) == 0
    quiet = capsys.readouterr().out.splitlines()
    assert len(loud) > 2 and any(line.startswith("total:") for line in loud)
    assert quiet == [loud[-1].replace(str(tmp_path / "loud"), str(tmp_path / "quiet"))]
