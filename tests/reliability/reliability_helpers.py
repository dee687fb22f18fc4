"""Helpers for the reliability suite: file-tree digests, CLI subprocesses, kill points, a full-disk writer."""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
KILLER = HERE / "reliability_killer.py"


def tree_digest(root: Path, *, skip=("manifest.json",)) -> dict[str, str]:
    """``{relative path: sha256}`` of every file under ``root`` (names in ``skip`` left out)."""
    out = {}
    for p in sorted(Path(root).rglob("*")):
        if p.is_file() and p.name not in skip:
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def manifest_without_command(root: Path) -> dict:
    m = json.loads((Path(root) / "manifest.json").read_text())
    m.pop("command", None)
    return m


def check_manifest_accurate(root: Path) -> None:
    """Every file a manifest lists exists with its recorded sha256 and size."""
    m = json.loads((Path(root) / "manifest.json").read_text())
    entries = m.get("files", {})
    entries = entries if entries else {k: v for k, v in m.get("pools", {}).items()}
    for rel, info in entries.items():
        p = Path(root) / rel
        assert p.is_file(), f"manifest lists {rel} but it is missing"
        assert hashlib.sha256(p.read_bytes()).hexdigest() == info["sha256"], f"manifest sha256 of {rel} is stale"
        assert p.stat().st_size == info["bytes"], rel


def run_cli(args: list[str], *, env_extra: dict | None = None, cwd=None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m svot.cli <args>`` in a fresh process (PYTHONHASHSEED random unless given)."""
    env = dict(os.environ, PYTHONHASHSEED="random")
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "svot.cli", *args], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=timeout)


def run_inprocess(args: list[str]) -> tuple[int, int]:
    """``svot.cli.main(args)`` in this process: (exit code, file events counted as :mod:`reliability_killer` does)."""
    from svot.cli import main

    count = [0]
    real_replace, real_unlink = os.replace, os.unlink

    def replace(*a, **k):
        count[0] += 1
        return real_replace(*a, **k)

    def unlink(*a, **k):
        count[0] += 1
        return real_unlink(*a, **k)

    os.replace, os.unlink = replace, unlink
    try:
        rc = main(args)
    finally:
        os.replace, os.unlink = real_replace, real_unlink
    return rc, count[0]


def run_killed(args: list[str], kill_at: int, mode: str, *, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``svot <args>`` under :mod:`reliability_killer`, SIGKILLed at file event ``kill_at`` (0: never)."""
    env = dict(os.environ, PYTHONHASHSEED="random")
    return subprocess.run([sys.executable, str(KILLER), str(kill_at), mode, "--", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def events_of(proc: subprocess.CompletedProcess) -> int:
    """The file-event count a never-killed :func:`run_killed` run printed."""
    assert proc.returncode == 0, proc.stderr
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("EVENTS ")][-1]
    return int(line.split()[1])


def children_of(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux /proc)."""
    out = []
    task_dir = Path(f"/proc/{pid}/task")
    for task in task_dir.iterdir() if task_dir.exists() else []:
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def one_line_error(stderr: str) -> bool:
    return stderr.count("\n") == 1 and stderr.endswith("\n") and "Traceback" not in stderr


# --------------------------------------------------------------------------- a disk that fills up


class DiskBudget:
    """Bytes left on a pretend disk shared by every file :func:`full_disk_writers` opens."""

    def __init__(self, nbytes: int):
        self.left = nbytes
        self.failures = 0
        self.writes: list[tuple[str, int]] = []  # (file name, bytes) of every write, in order


class _BudgetFile(io.RawIOBase):
    """A binary file that raises ``OSError(ENOSPC)`` once the shared budget is spent (after writing what fits)."""

    def __init__(self, path, budget: DiskBudget):
        super().__init__()
        self._f = open(path, "wb")  # noqa: SIM115 - closed in close()
        self._budget = budget
        self.name = str(path)

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        data = bytes(data)
        self._budget.writes.append((self.name, len(data)))
        if len(data) > self._budget.left:
            self._f.write(data[: max(0, self._budget.left)])
            self._budget.left = 0
            self._budget.failures += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self.name)
        self._budget.left -= len(data)
        return self._f.write(data)

    def tell(self) -> int:
        return self._f.tell()

    def fileno(self) -> int:  # the writers fsync what they wrote
        return self._f.fileno()

    def flush(self) -> None:
        if not self._f.closed:
            self._f.flush()

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()
        super().close()


def full_disk_writers(monkeypatch, budget: DiskBudget) -> None:
    """Make every file svot writes (all through :mod:`svot.atomic`'s ``_open_new``) a :class:`_BudgetFile`
    (the writers' own error handling is kept)."""
    from svot import atomic

    monkeypatch.setattr(atomic, "_open_new", lambda tmp: _BudgetFile(tmp, budget))
