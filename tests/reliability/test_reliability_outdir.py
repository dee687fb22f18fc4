"""Issue 13, classes 1, 2 and 7 (lock): an export directory is the only thing an export touches,
resume verifies what it keeps, one writer at a time.

Every exporter goes through :mod:`svot.dataset.outdir` and :mod:`svot.safe_paths`;
the tests run both exporters (SVoT's, in Parquet and ImageFolder JSONL, and
RuleMaze's) against the same tampering, so a new member of a class fails here.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sys
from pathlib import Path

import pytest

from svot.dataset import export, make_config
from svot.dataset.outdir import LOCK, PARTS, lock_output
from svot.errors import DatasetError
from svot.rulemaze import dataset as RD
from svot.safe_paths import OutsideRootError, contained, remove_within

from reliability_helpers import check_manifest_accurate

# a 100-maze pool still fills every split (5 items); generating it is half of each rebuild's time at 300
RULEMAZE_SMALL = dict(scenarios=["QuestMaze"], seed=3, train=4, test_per_group=1, chunk_items=2, pool_size=100,
                      formats="parquet,sharegpt")


def _svot(out: Path, fmt: str):
    cfg = make_config(out, domains=["maze"], sizes=[5], splits=["test_id", "val"], maps_per_split=2, format=fmt,
                      image_size=64, chunk_maps=1)
    return lambda **kw: export(cfg, quiet=True, **kw)


def _rulemaze(out: Path, fmt: str):
    cfg = RD.make_config(out, **RULEMAZE_SMALL)
    return lambda **kw: RD.export(cfg, quiet=True, **kw)


EXPORTERS = {"svot-parquet": (_svot, "parquet"), "svot-jsonl": (_svot, "jsonl"), "rulemaze": (_rulemaze, None)}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """One finished export per exporter, and the digest of its files (copied per test)."""
    built = {}
    for name, (make, fmt) in EXPORTERS.items():
        out = tmp_path_factory.mktemp(name) / "out"
        make(out, fmt)()
        built[name] = out
    return built


def _copy(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst, symlinks=True)
    return dst


def _digest(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name not in ("manifest.json", LOCK)}


def _victim(tmp_path: Path) -> Path:
    v = tmp_path / "elsewhere" / "precious.txt"
    v.parent.mkdir(parents=True, exist_ok=True)
    v.write_text("keep me")
    return v


# --------------------------------------------------------------------------- class 1: paths from files


@pytest.mark.parametrize("name", list(EXPORTERS))
@pytest.mark.parametrize("form", ["dotdot", "absolute", "symlink-dir", "symlink-file"])
def test_overwrite_never_deletes_outside_the_directory(name, form, finished, tmp_path):
    """A tampered manifest (``..``, an absolute path) or a symbolic link planted in the export cannot
    make ``--overwrite`` delete or write anything outside ``--out``."""
    out = _copy(finished[name], tmp_path / "out")
    victim = _victim(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text())
    top = next(p for p in out.iterdir() if p.is_dir() and not p.name.startswith("."))
    if form == "dotdot":
        manifest["files"]["../elsewhere/precious.txt"] = {"sha256": "0" * 64, "bytes": 7}
    elif form == "absolute":
        manifest["files"][str(victim)] = {"sha256": "0" * 64, "bytes": 7}
    elif form == "symlink-dir":  # the dataset folder replaced by a link to a folder elsewhere
        import shutil

        shutil.rmtree(top)
        top.symlink_to(victim.parent, target_is_directory=True)
    else:  # a manifest-listed file replaced by a link to a file elsewhere
        rel = next(iter(manifest["files"]))
        (out / rel).unlink()
        (out / rel).symlink_to(victim)
    (out / "manifest.json").write_text(json.dumps(manifest))
    make, fmt = EXPORTERS[name]
    make(out, fmt)(overwrite=True)
    assert victim.read_text() == "keep me" and sorted(p.name for p in victim.parent.iterdir()) == ["precious.txt"]
    assert not any(p.is_symlink() for p in out.rglob("*"))
    check_manifest_accurate(out)
    assert _digest(out) == _digest(finished[name])


@pytest.mark.parametrize("name", list(EXPORTERS))
def test_resume_removes_links_rather_than_writing_through_them(name, finished, tmp_path):
    """A ``.tmp`` name or a dataset file turned into a link to a file elsewhere: resume writes a new file
    in the export, and the file elsewhere keeps its bytes."""
    out = _copy(finished[name], tmp_path / "out")
    victim = _victim(tmp_path)
    manifest = json.loads((out / "manifest.json").read_text())
    rel = sorted(manifest["files"])[0]
    (out / rel).unlink()
    (out / rel).symlink_to(victim)
    (out / (rel + ".tmp")).symlink_to(victim)
    make, fmt = EXPORTERS[name]
    make(out, fmt)(resume=True)
    assert victim.read_text() == "keep me"
    assert not (out / rel).is_symlink() and not os.path.lexists(out / (rel + ".tmp"))
    check_manifest_accurate(out)
    assert _digest(out) == _digest(finished[name])


def test_contained_refuses_every_way_out(tmp_path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    (root / "link").symlink_to(tmp_path / "outside", target_is_directory=True)
    (root / "inner").symlink_to(root / "sub", target_is_directory=True)
    for name in ["../x", "sub/../../x", "..\\x", "sub\\..\\..\\x", str(tmp_path / "outside" / "x"), "link/x", "", "a\x00b"]:
        with pytest.raises(OutsideRootError):
            contained(root, name)
    assert contained(root, "sub/x.png") == root / "sub" / "x.png"
    assert contained(root, str(root / "sub" / "x.png")) == root / "sub" / "x.png"
    assert contained(root, "inner/x.png") == root / "inner" / "x.png"  # a link that stays inside is fine
    with pytest.raises(OutsideRootError):
        remove_within(root, tmp_path / "outside")
    with pytest.raises(OutsideRootError):
        remove_within(root, root / "link" / "x")
    with pytest.raises(OutsideRootError):
        remove_within(root, root)


# --------------------------------------------------------------------------- class 2: resume verifies


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    if how == "truncate":
        path.write_bytes(data[: len(data) // 2])
    elif how == "flip":  # same size, one byte changed
        i = len(data) // 2
        path.write_bytes(data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:])
    else:
        path.unlink()


@pytest.mark.parametrize("name", list(EXPORTERS))
@pytest.mark.parametrize("how", ["truncate", "flip", "delete"])
@pytest.mark.parametrize("which", ["first", "last"])
def test_resume_rebuilds_every_kept_file_that_fails_its_hash(name, how, which, finished, tmp_path):
    """Any file of a finished export, damaged any way, is rebuilt by ``--resume``; the manifest is true."""
    out = _copy(finished[name], tmp_path / "out")
    files = sorted(json.loads((out / "manifest.json").read_text())["files"])
    _damage(out / files[0 if which == "first" else -1], how)
    make, fmt = EXPORTERS[name]
    make(out, fmt)(resume=True)
    check_manifest_accurate(out)
    assert _digest(out) == _digest(finished[name])


@pytest.mark.parametrize("name", ["svot-parquet", "rulemaze"])
def test_resume_of_an_unfinished_export_verifies_finished_splits_and_parts(name, finished, tmp_path, monkeypatch):
    """Killed mid-export, then a finished split truncated and an Arrow part truncated: resume discards both
    and ends with the bytes of an uninterrupted run (no ArrowInvalid, no stale hash in the manifest)."""
    out = tmp_path / "out"
    make, fmt = EXPORTERS[name]
    run = make(out, fmt)
    import svot.dataset.writers as W

    real, calls = W.write_arrow, {"n": 0}

    def dies_after_three(table, path):
        calls["n"] += 1
        if calls["n"] > 3:
            raise RuntimeError("killed")
        return real(table, path)

    monkeypatch.setattr(W, "write_arrow", dies_after_three)
    # both exporters write their parts through the one orchestrator
    monkeypatch.setattr(sys.modules["svot.dataset.orchestrator"], "write_arrow", dies_after_three)
    with pytest.raises(RuntimeError, match="killed"):
        run()
    monkeypatch.undo()
    finals = [p for p in out.rglob("*") if p.is_file() and PARTS not in p.parts and p.suffix in (".parquet", ".json")
              and p.name != LOCK]
    parts = sorted((out / PARTS).rglob("chunk-*.arrow"))
    assert finals and parts, "the interruption should leave a finished split and a part"
    _damage(finals[0], "truncate")
    _damage(parts[0], "truncate")
    run(resume=True)
    check_manifest_accurate(out)
    assert _digest(out) == _digest(finished[name])


@pytest.mark.parametrize("name", list(EXPORTERS))
@pytest.mark.parametrize("manifest", ["[]", '{"files": [1, 2]', '{"arguments": 3, "files": {"../x": 1}}', "", "\x00\xff"])
@pytest.mark.parametrize("mode", ["resume", "overwrite"])
def test_a_corrupt_manifest_is_recovered(name, manifest, mode, finished, tmp_path):
    """A manifest that is a list, truncated JSON, or the wrong shape: ``--overwrite`` recovers the directory
    and ``--resume`` treats it as absent (rebuilds); neither crashes, both end with the right bytes."""
    out = _copy(finished[name], tmp_path / "out")
    (out / "manifest.json").write_text(manifest, encoding="latin-1")
    make, fmt = EXPORTERS[name]
    make(out, fmt)(**{mode: True})
    check_manifest_accurate(out)
    assert _digest(out) == _digest(finished[name])


def test_rulemaze_pool_survives_a_corrupt_manifest(tmp_path, capsys):
    from svot.cli import main

    out = tmp_path / "pool"
    args = ["rulemaze", "pool", "--out", str(out), "--size", "3", "--count", "5", "--scenario", "QuestMaze"]
    assert main(args) == 0
    good = (out / "QuestMaze-5x5.jsonl").read_bytes()
    for text in ("[]", '{"pools": [1]', '{"pools": {"QuestMaze-5x5.jsonl": 7}}'):
        (out / "manifest.json").write_text(text)
        for flag in ("--overwrite", "--resume"):
            assert main(args + [flag]) == 0, capsys.readouterr().err
            assert (out / "QuestMaze-5x5.jsonl").read_bytes() == good
            check_manifest_accurate(out)


def test_writes_are_fsynced_before_the_rename(tmp_path, monkeypatch):
    """Every atomic write of an export calls fsync on the file before os.replace puts it in place."""
    synced, order = set(), []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        synced.add(os.path.realpath(f"/proc/self/fd/{fd}"))
        return real_fsync(fd)

    def replace(src, dst, *a, **k):
        order.append((os.path.realpath(src) in synced, str(dst)))
        return real_replace(src, dst, *a, **k)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    _svot(tmp_path / "out", "jsonl")()
    assert order and all(ok for ok, _ in order), [d for ok, d in order if not ok][:3]


# --------------------------------------------------------------------------- class 7: one writer at a time


@pytest.mark.parametrize("name", list(EXPORTERS))
def test_a_second_export_into_a_locked_directory_is_refused_and_changes_nothing(name, finished, tmp_path):
    out = _copy(finished[name], tmp_path / "out")
    before = _digest(out)
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # what a running export holds
    try:
        make, fmt = EXPORTERS[name]
        with pytest.raises(DatasetError, match="another svot process is writing"):
            make(out, fmt)(resume=True)
        assert _digest(out) == before and not (out / PARTS).exists()
    finally:
        os.close(fd)
    make(out, fmt)(resume=True)  # released: the same command now runs
    assert _digest(out) == before


def test_two_concurrent_cli_resumes_one_refused_no_stale_parts(tmp_path):
    """Two ``svot export --resume`` processes on one directory: one runs, the other is refused with a clear
    one-line error; the directory ends complete, without ``.parts``."""
    import subprocess
    import sys

    out = tmp_path / "out"
    argv = [sys.executable, "-m", "svot.cli", "export", "--domains", "maze", "--sizes", "5", "--splits", "test_id",
            "--maps-per-split", "2", "--chunk-maps", "1", "--image-size", "64", "--out", str(out), "--resume", "--quiet"]
    with lock_output(out):  # hold the lock while the second process starts: the refusal is deterministic
        refused = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and "another svot process is writing" in refused.stderr
    assert refused.stderr.count("\n") == 1 and not (out / PARTS).exists()
    ran = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    assert not (out / PARTS).exists()
    check_manifest_accurate(out)


@pytest.mark.parametrize("form", ["dotdot", "absolute", "list-manifest"])
def test_gallery_rebuild_never_deletes_outside_its_directory(form, finished, tmp_path):
    """``svot gallery`` removes the stale files its old manifest lists: only those under its --out."""
    from svot.gallery import build_gallery

    out = tmp_path / "gallery"
    build_gallery(finished["svot-parquet"], out, per_page=2)
    victim = _victim(tmp_path)
    manifest = json.loads((out / "gallery.json").read_text())
    if form == "dotdot":
        manifest["files"]["../elsewhere/precious.txt"] = "x"
    elif form == "absolute":
        manifest["files"][str(victim)] = "x"
    else:
        manifest = [str(victim)]
    (out / "gallery.json").write_text(json.dumps(manifest))
    build_gallery(finished["svot-parquet"], out, per_page=2)
    assert victim.read_text() == "keep me"
