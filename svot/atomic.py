"""The one way svot writes a file: a fresh temporary file, fsynced, renamed into place.

Every writer (exports, the dataset card, ``svot pddl export``, ``svot evaluate --json``, the
gallery, GIFs, :func:`svot.render.save_png`) goes through :func:`atomic_write_bytes`:

* the temporary name is ``<name>.tmp`` beside the target; whatever already has that name
  (a stale file, a planted symbolic link) is unlinked first, and the file is created with
  ``O_CREAT | O_EXCL | O_NOFOLLOW``, so the write never follows a link nor truncates a
  stranger's file;
* the data is fsynced, then ``os.replace``d onto the target: the target is either the old
  file or the whole new one, never half of it, and a link at the target's name is replaced
  by the file, not followed.

A leaf module (no svot imports), so that every layer can write through it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

TMP_SUFFIX = ".tmp"

__all__ = ["TMP_SUFFIX", "atomic_write_bytes", "atomic_write_json", "atomic_write_text", "tmp_path"]


def tmp_path(path: Path) -> Path:
    path = Path(path)
    return path.with_name(path.name + TMP_SUFFIX)


def _drop(tmp: Path) -> None:
    """Remove a half-written ``.tmp`` file after a failed write (disk full...), if it is there."""
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _fresh_tmp(path: Path) -> Path:
    """The ``.tmp`` name of ``path``, with anything already there (a link, a stale file) removed first,
    so that the write creates a new file rather than following a link or truncating a stranger's file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_path(path)
    if os.path.lexists(tmp):
        os.unlink(tmp)
    return tmp


def _open_new(tmp: Path):
    """A new binary file at ``tmp`` (never a link followed nor an existing file truncated)."""
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0), 0o644)
    return os.fdopen(fd, "wb")


def atomic_write_bytes(path: str | os.PathLike, data) -> None:
    """Write ``data`` (bytes or any buffer) to ``path`` atomically: a fresh ``.tmp``, fsync, rename."""
    path = Path(path)
    tmp = _fresh_tmp(path)
    try:
        with _open_new(tmp) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        _drop(tmp)
        raise
    os.replace(tmp, path)


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """:func:`atomic_write_bytes` of ``text`` in UTF-8."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike, obj) -> None:
    """``obj`` as indented, key-sorted UTF-8 JSON with a final newline, written atomically."""
    atomic_write_text(path, json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
