"""No data lost: exports and maze pools killed at many points, and an export into a disk that fills up.

``tests/dataset/test_dataset_export.py`` kills one export once, after its first
part appears. Here a run is SIGKILLed at precise file events (before / after /
half-way through an atomic write, a part deletion, the manifest, the removal of
``.parts``), several times in a row, each rerun with ``--resume``; after every
kill nothing under a final name may differ from an uninterrupted run, and the
last resume must end byte-identical to it (sha256 of every file). The same for
a two-worker export killed from outside (its workers must not outlive it), for
``svot rulemaze pool`` (atomic files, but no ``--resume``: reruns use
``--overwrite``), and for a disk that fills up (a 2 MB tmpfs when this machine
allows mounting one, and always a writer patched to fail with ENOSPC).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from reliability_helpers import (
    DiskBudget,
    alive,
    check_manifest_accurate,
    children_of,
    events_of,
    full_disk_writers,
    manifest_without_command,
    one_line_error,
    run_inprocess,
    run_killed,
    tree_digest,
)

EXPORT_A = ["export", "--domains", "maze", "--sizes", "5", "--maps-per-split", "train=12,val=2,test_id=2,test_ood=2",
            "--chunk-maps", "2", "--seed", "4", "--quiet"]
EXPORT_B = ["export", "--domains", "pacman", "--sizes", "4", "--splits", "val,test_ood", "--maps-per-split", "3",
            "--chunk-maps", "1", "--format", "jsonl", "--seed", "2", "--quiet"]
POOL = ["rulemaze", "pool", "--count", "300", "--seed", "3", "--quiet"]

KILLS = {"count": 0}  # kills performed by this module (reported in the closing note)


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """Uninterrupted runs (in this process, counting file events as the killer does): (out dir, events)."""
    base = tmp_path_factory.mktemp("reference")
    refs = {}
    for name, args in (("A", EXPORT_A), ("B", EXPORT_B), ("POOL", POOL)):
        out = base / name
        rc, events = run_inprocess([*args, "--out", str(out)])
        assert rc == 0
        refs[name] = (out, events)
    return refs


def test_killer_counts_the_same_events_in_a_fresh_process(references, tmp_path):
    """The kill points are meaningful: a subprocess under the killer sees the reference's event count and bytes."""
    ref, events = references["POOL"]
    proc = run_killed([*POOL, "--out", str(tmp_path / "out")], 0, "before")
    assert events_of(proc) == events
    assert tree_digest(tmp_path / "out") == tree_digest(ref)


def _check_after_kill(out: Path, ref: Path) -> None:
    """What a killed export leaves: final files equal the reference's, parts complete, manifest absent or exact."""
    want = tree_digest(ref)
    if not out.exists():
        return
    for rel, digest in tree_digest(out).items():
        if rel.startswith(".parts/") or rel.endswith(".tmp"):
            continue
        assert rel in want, f"unexpected file {rel} after a kill"
        assert digest == want[rel], f"{rel} differs from the uninterrupted run (half-written under its final name?)"
    for part in (out / ".parts").rglob("*.arrow"):
        with pa.memory_map(str(part), "r") as src:
            pa.ipc.open_file(src).read_all()  # complete, or this raises
    if (out / "manifest.json").exists():
        check_manifest_accurate(out)
        assert manifest_without_command(out) == manifest_without_command(ref)


def _kill_chain(args, out: Path, ref: Path, events: int, rng: random.Random, rounds: int) -> int:
    """Kill a run, then ``rounds - 1`` resumes, at seeded random events; then resume to the end. Returns the kills."""
    kills = 0
    first = True
    for _ in range(rounds):
        n = rng.randint(1, events) if first else rng.randint(1, 6)
        mode = rng.choice(["before", "after", "torn"])
        proc = run_killed([*args, "--out", str(out)] + ([] if first else ["--resume"]), n, mode)
        first = False
        if proc.returncode == 0:  # the kill point lay beyond this run's last event
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        kills += 1
        _check_after_kill(out, ref)
    assert run_inprocess([*args, "--out", str(out), "--resume"])[0] == 0
    assert tree_digest(out) == tree_digest(ref)
    assert manifest_without_command(out) == manifest_without_command(ref)
    check_manifest_accurate(out)
    KILLS["count"] += kills
    return kills


@pytest.mark.slow
def test_parquet_export_killed_repeatedly_resumes_to_identical_bytes(references, tmp_path):
    ref, events = references["A"]
    kills = _kill_chain(EXPORT_A, tmp_path / "out", ref, events, random.Random(0), rounds=4)
    assert kills >= 3


@pytest.mark.slow
def test_imagefolder_export_killed_repeatedly_resumes_to_identical_bytes(references, tmp_path):
    ref, events = references["B"]
    kills = _kill_chain(EXPORT_B, tmp_path / "out", ref, events, random.Random(7), rounds=3)
    assert kills >= 2


@pytest.mark.slow
def test_two_worker_export_killed_from_outside_leaves_no_orphans_and_resumes(references, tmp_path):
    """SIGKILL to the main process only (as an OOM killer would): its workers must end too, and
    ``--resume --workers 2`` ends byte-identical to the one-worker reference."""
    ref, _ = references["A"]
    out = tmp_path / "out"
    rng = random.Random(11)
    kills = 0
    for round_ in range(2):
        argv = [sys.executable, "-m", "svot.cli", *EXPORT_A, "--workers", "2", "--out", str(out)]
        if round_:
            argv.append("--resume")
        before = {p.as_posix() for p in (out / ".parts").rglob("chunk-*.arrow")} if out.exists() else set()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=dict(os.environ, PYTHONHASHSEED="random"))
        workers: set[int] = set()
        try:
            deadline = time.time() + 60
            while time.time() < deadline and proc.poll() is None:
                workers.update(children_of(proc.pid))
                now = {p.as_posix() for p in (out / ".parts").rglob("chunk-*.arrow")}
                if now - before:
                    break
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.3))
            workers.update(children_of(proc.pid))
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                kills += 1
        finally:
            proc.wait()
        deadline = time.time() + 10
        while time.time() < deadline and any(alive(w) for w in workers):
            time.sleep(0.05)
        orphans = [w for w in workers if alive(w)]
        for w in orphans:  # do not leak them into the rest of the test session
            os.kill(w, signal.SIGKILL)
        assert not orphans, f"worker processes {orphans} outlived the killed export"
        if proc.returncode == 0:
            break
        _check_after_kill(out, ref)
    assert kills >= 1
    KILLS["count"] += kills
    assert run_inprocess([*EXPORT_A, "--workers", "2", "--out", str(out), "--resume"])[0] == 0
    assert tree_digest(out) == tree_digest(ref)
    assert manifest_without_command(out) == manifest_without_command(ref)


# --------------------------------------------------------------------------- a disk that fills up

DISK_FULL = ["export", "--domains", "maze", "--sizes", "5", "--maps-per-split", "train=10,val=4,test_id=4,test_ood=4",
             "--chunk-maps", "2", "--seed", "8", "--quiet"]


@pytest.fixture(scope="module")
def disk_full_reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("disk-full-ref") / "out"
    assert run_inprocess([*DISK_FULL, "--out", str(out)])[0] == 0
    return out


def _check_clean_failure(out: Path, ref: Path) -> None:
    """After a failed export: no ``.tmp`` left, every part and final file complete, manifest absent or exact."""
    leftovers = [p for p in out.rglob("*.tmp")]
    assert not leftovers, f"half-written files left behind: {leftovers}"
    _check_after_kill(out, ref)
    for p in out.rglob("*.parquet"):
        pq.read_table(p)


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    try:
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    except OSError:
        return False
    return r.returncode == 0


def test_export_into_a_small_tmpfs_fails_cleanly_and_resumes_on_a_bigger_one(disk_full_reference, tmp_path, capsys):
    mnt = tmp_path / "disk"
    if not _mount_tmpfs(mnt, "2m"):
        pytest.skip("cannot mount a tmpfs here (not root or no CAP_SYS_ADMIN); the patched-writer test covers it")
    try:
        out = mnt / "out"
        capsys.readouterr()
        assert run_inprocess([*DISK_FULL, "--out", str(out)])[0] == 2
        err = capsys.readouterr().err
        assert one_line_error(err), err
        assert "No space left on device" in err and "--resume" in err
        assert not (out / "manifest.json").exists()
        _check_clean_failure(out, disk_full_reference)
        assert subprocess.run(["mount", "-o", "remount,size=64m", str(mnt)]).returncode == 0
        assert run_inprocess([*DISK_FULL, "--out", str(out), "--resume"])[0] == 0
        assert tree_digest(out) == tree_digest(disk_full_reference)
        assert manifest_without_command(out) == manifest_without_command(disk_full_reference)
        check_manifest_accurate(out)
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


@pytest.mark.parametrize("budget_bytes", [600_000, 2_000_000])
def test_export_with_a_writer_that_runs_out_of_space(disk_full_reference, tmp_path, monkeypatch, budget_bytes):
    """The writers' own files fail with ENOSPC after ``budget_bytes``: one DatasetError naming the cause,
    no ``.tmp`` left, no manifest; a resume with space ends byte-identical."""
    from svot.dataset import export, make_config
    from svot.errors import DatasetError

    cfg = make_config(tmp_path / "out", domains=["maze"], sizes=[5], seed=8, chunk_maps=2,
                      maps_per_split={"train": 10, "val": 4, "test_id": 4, "test_ood": 4})
    budget = DiskBudget(budget_bytes)
    with monkeypatch.context() as m:
        full_disk_writers(m, budget)
        with pytest.raises(DatasetError, match="No space left on device"):
            export(cfg, quiet=True)
    assert budget.failures >= 1
    out = tmp_path / "out"
    assert not (out / "manifest.json").exists()
    _check_clean_failure(out, disk_full_reference)
    export(cfg, resume=True, quiet=True)
    assert tree_digest(out) == tree_digest(disk_full_reference)
    assert manifest_without_command(out) == manifest_without_command(disk_full_reference)


@pytest.mark.parametrize("suffix", [".parquet.tmp", "files.json.tmp"])
def test_export_running_out_of_space_in_a_split_file(disk_full_reference, tmp_path, monkeypatch, suffix):
    """As above, with the disk filling up halfway through the first write of a merged split (Parquet)
    or of the file hashes (JSON), after every part before it was written."""
    from svot.dataset import export, make_config
    from svot.errors import DatasetError

    def cfg(out):
        return make_config(out, domains=["maze"], sizes=[5], seed=8, chunk_maps=2,
                           maps_per_split={"train": 10, "val": 4, "test_id": 4, "test_ood": 4})

    probe = DiskBudget(1 << 40)  # where the bytes go, with room for all
    with monkeypatch.context() as m:
        full_disk_writers(m, probe)
        export(cfg(tmp_path / "probe"), quiet=True)
    sizes = [n for _, n in probe.writes]
    at = next(i for i, (name, _) in enumerate(probe.writes) if name.endswith(suffix))
    budget = DiskBudget(sum(sizes[:at]) + sizes[at] // 2)
    with monkeypatch.context() as m:
        full_disk_writers(m, budget)
        with pytest.raises(DatasetError, match="No space left on device") as err:
            export(cfg(tmp_path / "out"), quiet=True)
    assert suffix in str(err.value) and budget.failures == 1
    out = tmp_path / "out"
    assert not (out / "manifest.json").exists()
    _check_clean_failure(out, disk_full_reference)
    export(cfg(out), resume=True, quiet=True)
    assert tree_digest(out) == tree_digest(disk_full_reference)
    assert manifest_without_command(out) == manifest_without_command(disk_full_reference)


# --------------------------------------------------------------------------- svot rulemaze pool


def _check_pool_after_kill(out: Path, ref: Path) -> None:
    want = tree_digest(ref)
    for rel, digest in tree_digest(out).items():
        if rel.endswith(".tmp"):
            continue
        assert digest == want[rel], f"{rel} differs from the uninterrupted pool"
    if (out / "manifest.json").exists():
        check_manifest_accurate(out)


@pytest.mark.slow
def test_pool_killed_at_every_kind_of_point_reruns_to_identical_bytes(references, tmp_path, capsys):
    """``svot rulemaze pool`` writes each pool file atomically (never half a file under its name); a plain
    rerun refuses to touch finished files, ``--overwrite`` regenerates everything to the same bytes."""
    ref, events = references["POOL"]
    assert events == 5  # the manifest, then per scenario its pool file and the manifest again
    rng = random.Random(5)
    points = rng.sample([(n, mode) for n in range(1, events + 1) for mode in ("before", "after", "torn")], 3)
    for i, (n, mode) in enumerate(points):
        out = tmp_path / f"out{i}"
        proc = run_killed([*POOL, "--out", str(out)], n, mode)
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        KILLS["count"] += 1
        _check_pool_after_kill(out, ref)
        done = [p for p in out.glob("*.jsonl")]
        if done:  # a plain rerun refuses to touch the finished file
            capsys.readouterr()
            assert run_inprocess([*POOL, "--out", str(out)])[0] == 2
            err = capsys.readouterr().err
            assert "--overwrite" in err and one_line_error(err), err
        assert run_inprocess([*POOL, "--out", str(out), "--overwrite"])[0] == 0
        assert tree_digest(out, skip=("manifest.json",)) == tree_digest(ref, skip=("manifest.json",))
        assert manifest_without_command(out) == manifest_without_command(ref)
        assert not list(out.glob("*.tmp"))


def test_pool_manifest_stays_accurate_when_an_overwrite_is_killed(tmp_path):
    out = tmp_path / "out"
    assert run_inprocess([*POOL, "--out", str(out)])[0] == 0
    other = [*POOL[:-3], "--seed", "4", "--quiet"]
    proc = run_killed([*other, "--out", str(out), "--overwrite"], 2, "after")  # RegularMaze file replaced, then killed
    assert proc.returncode == -signal.SIGKILL
    check_manifest_accurate(out)


def test_pool_killed_between_scenarios_resumes_to_the_same_bytes(tmp_path):
    ref = tmp_path / "ref"
    assert run_inprocess([*POOL, "--out", str(ref)])[0] == 0
    out = tmp_path / "out"
    proc = run_killed([*POOL, "--out", str(out)], 3, "after")  # first scenario's file and entry written, then killed
    assert proc.returncode == -signal.SIGKILL
    KILLS["count"] += 1
    check_manifest_accurate(out)
    kept = (out / "RegularMaze-3x3.jsonl").stat().st_mtime_ns
    assert run_inprocess([*POOL, "--out", str(out), "--resume"])[0] == 0
    assert (out / "RegularMaze-3x3.jsonl").stat().st_mtime_ns == kept  # resumed, not regenerated
    assert tree_digest(out) == tree_digest(ref)
    assert manifest_without_command(out) == manifest_without_command(ref)
