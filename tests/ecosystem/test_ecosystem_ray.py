"""``svot export --engine ray``: the same work units as Ray tasks, the same bytes as the local engine.

Ray runs on this machine only: a local instance started by the export itself
(2 CPUs, no dashboard), and one started here that a second process joins by
``--address``. Skipped, with the reason, where Ray is not installed
(``pip install 'svot[ray]'``; ``.ci/run`` installs that extra).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from svot.cli import main
from svot.dataset import export, make_config
from svot.errors import ConfigError

ARGS = ["--domains", "sokoban,maze", "--sizes", "5", "--splits", "train,val,test_ood",
        "--maps-per-split", "train=3,val=2,test_ood=2", "--chunk-maps", "1", "--image-size", "48"]


def _ray():
    return pytest.importorskip("ray", reason="Ray is not installed (pip install 'svot[ray]')")


@pytest.fixture(autouse=True)
def _no_usage_stats(monkeypatch):
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")


def _sha256(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name not in ("manifest.json", ".svot.lock")}


def _manifest(root: Path) -> dict:
    m = json.loads((root / "manifest.json").read_text())
    m.pop("command")
    return m


def _local(tmp_path_factory, *extra: str) -> Path:
    out = tmp_path_factory.mktemp("local")
    assert main(["export", *ARGS, *extra, "--out", str(out), "--overwrite", "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def local_parquet(tmp_path_factory) -> Path:
    return _local(tmp_path_factory)


@pytest.fixture(scope="module")
def local_jsonl(tmp_path_factory) -> Path:
    return _local(tmp_path_factory, "--format", "jsonl")


@pytest.mark.slow  # starts Ray (~15 s); the argument checks below stay in the fast lane
def test_ray_engine_writes_the_same_bytes(local_parquet, tmp_path, capsys):
    ray = _ray()
    assert not ray.is_initialized()
    out = tmp_path / "ray"
    assert main(["export", *ARGS, "--engine", "ray", "--workers", "2", "--out", str(out), "--quiet"]) == 0
    assert "wrote 7 files" in capsys.readouterr().out  # 6 split files and the dataset card (README.md)
    assert not ray.is_initialized()  # the export stopped the instance it started
    expected = _sha256(local_parquet)
    assert len(expected) == 7 and _sha256(out) == expected  # 6 split files and the dataset card
    assert _manifest(out) == _manifest(local_parquet)  # sha256 of every file, counts, arguments
    assert not (out / ".parts").exists()


@pytest.mark.slow  # starts Ray (~15 s); the argument checks below stay in the fast lane
def test_ray_engine_joins_a_running_cluster_by_address(local_jsonl, tmp_path):
    ray = _ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        address = ray.get_runtime_context().gcs_address
        out = tmp_path / "ray"
        env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
        proc = subprocess.run(
            [sys.executable, "-m", "svot.cli", "export", *ARGS, "--format", "jsonl", "--engine", "ray",
             "--address", address, "--out", str(out), "--quiet"],
            check=False, capture_output=True, text=True, timeout=80, env=env, cwd=Path(__file__).resolve().parents[2],
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert ray.cluster_resources().get("CPU") == 2  # joining a cluster leaves it running
    finally:
        ray.shutdown()
    expected = _sha256(local_jsonl)
    assert any(k.endswith(".png") for k in expected)
    assert _sha256(out) == expected
    assert _manifest(out) == _manifest(local_jsonl)


def test_engine_arguments_are_checked(tmp_path, monkeypatch):
    cfg = make_config(tmp_path / "a", domains=["maze"], sizes=[5], splits=["val"], maps_per_split=1, image_size=32)
    with pytest.raises(ConfigError, match="unknown engine"):
        export(cfg, engine="spark", quiet=True)
    with pytest.raises(ConfigError, match="--engine ray"):
        export(cfg, address="127.0.0.1:6379", quiet=True)
    with pytest.raises(SystemExit) as exc:  # argparse: one line, status 2
        main(["export", *ARGS, "--engine", "spark", "--out", str(tmp_path / "b")])
    assert exc.value.code == 2
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    with pytest.raises(ConfigError, match=r"svot\[ray\]"):
        export(cfg, engine="ray", quiet=True)


def test_an_address_that_does_not_answer_fails_fast_before_writing(tmp_path):
    _ray()
    cfg = make_config(tmp_path / "out", domains=["maze"], sizes=[5], splits=["val"], maps_per_split=1, image_size=32)
    with pytest.raises(ConfigError, match="no Ray cluster answers"):
        export(cfg, engine="ray", address="127.0.0.1:1", quiet=True)
    with pytest.raises(ConfigError, match="host:port"):
        export(cfg, engine="ray", address="nonsense", quiet=True)
    assert not (tmp_path / "out").exists()
