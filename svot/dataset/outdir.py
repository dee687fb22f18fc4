"""An export's output directory: refuse, replace or resume, the same way for every exporter.

An export directory holds ``manifest.json`` (a finished export), ``.parts/``
(an unfinished one: its ``config.json`` fingerprint, finished parts, per-split
stats and ``files.json``, the sha256 of every finished file) and one folder
per dataset. :func:`prepare_output` checks what is there against
``--resume``/``--overwrite``, clears what must go, removes stray ``*.tmp``
files of an interrupted write, and records the fingerprint.

Rules (each enforced here, for both exporters):

* **Nothing outside the directory is touched.** Names read from an old
  manifest are deleted only through :func:`svot.safe_paths.remove_within`
  after :func:`svot.safe_paths.contained`; a name that leads out (``..``, an
  absolute path, a symbolic link) is skipped. Symbolic links inside the
  directory are removed as links, never followed, so no later write goes
  through one.
* **Resume believes nothing it has not checked.** Every file a finished split
  wrote is recorded with its sha256 (:func:`record_files`; for a finished
  export, the manifest's list); on ``--resume`` each is read back and
  compared (:func:`_verify_kept`). A file that fails is deleted and every
  split of its dataset folder is rebuilt. An Arrow part that cannot be read is
  discarded and rebuilt (:func:`part_ok`). A ``manifest.json`` or
  ``config.json`` that is not a JSON object counts as absent.
* **``--overwrite`` always recovers a directory svot wrote**, however
  damaged its manifest is.
* **One writer at a time.** :func:`lock_output` holds an exclusive
  ``fcntl.flock`` on ``.svot.lock`` in the directory for the whole export; a
  second export into the same directory is refused at once, before it
  changes anything.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Callable, Iterable, Iterator

try:
    import fcntl
except ImportError:  # Windows: no flock; exports there are not guarded
    fcntl = None

from svot.dataset.writers import TMP_SUFFIX, atomic_write_json, read_arrow, sha256_file
from svot.errors import ConfigError, DatasetError, SvotError
from svot.jsonl import read_json_file
from svot.safe_paths import OutsideRootError, contained, remove_within

PARTS = ".parts"
MANIFEST = "manifest.json"
LOCK = ".svot.lock"
FILES = "files.json"  # under PARTS: {relative path: {"sha256", "bytes"}} of every finished file


def remove(path: Path) -> None:
    """Delete a file, a directory tree or a symbolic link (the link itself, never its target)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        remove_within(path.parent, path)
    elif os.path.lexists(path):  # a FIFO or socket left in the directory
        path.unlink()


def read_json_object(path: Path) -> dict | None:
    """The JSON object in ``path``; None when it is missing, unreadable, not JSON or not an object."""
    try:
        value = read_json_file(path)  # regular, bounded, any nesting an error
    except SvotError:
        return None
    return value if isinstance(value, dict) else None


@contextlib.contextmanager
def lock_output(out: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``out`` (created if needed) for the ``with`` block.

    A second holder is refused with :class:`~svot.errors.DatasetError` at
    once. The lock is ``flock`` on ``out/.svot.lock``: the kernel drops it when
    the process ends, however it ends, so a killed export never leaves a
    stale lock. (No locking on platforms without ``fcntl``.)
    """
    if out.exists() and not out.is_dir():
        raise DatasetError(f"output path {str(out)!r} exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    lock = out / LOCK
    if lock.is_symlink():
        lock.unlink()
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise DatasetError(
                    f"another svot process is writing to {str(out)!r} (it holds {LOCK}); "
                    "wait for it to finish, then rerun with --resume"
                ) from None
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def part_ok(path: Path) -> bool:
    """Whether an Arrow part is there and readable (with its stats); a broken one is deleted."""
    if not path.is_file():
        return False
    try:
        table = read_arrow(path)
        json.loads(table.schema.metadata[b"svot_stats"])
        return True
    except Exception:  # noqa: BLE001 - truncated or corrupt: pyarrow raises many types
        path.unlink()
        return False


def _files_path(out: Path) -> Path:
    return out / PARTS / FILES


def record_files(out: Path, paths: Iterable[Path]) -> None:
    """Add the sha256 and size of finished files to ``.parts/files.json`` (call before a split's stats)."""
    recorded = read_json_object(_files_path(out)) or {}
    for p in paths:
        recorded[p.relative_to(out).as_posix()] = {"sha256": sha256_file(p), "bytes": p.stat().st_size}
    atomic_write_json(_files_path(out), recorded)


def _file_matches(out: Path, rel: str, entry) -> bool:
    try:
        path = contained(out, rel, what="manifest entry")
    except OutsideRootError:
        return False
    if not isinstance(entry, dict) or path.is_symlink() or not path.is_file():
        return False
    try:
        return path.stat().st_size == entry.get("bytes") and sha256_file(path) == entry.get("sha256")
    except OSError:
        return False


def _verify_kept(out: Path) -> list[str]:
    """Check every recorded file; delete those that fail and the stats of their dataset folders.

    Returns the relative paths that failed. A dataset folder with a failed
    file has all its splits rebuilt (its stats files are the splits' "done"
    marks).
    """
    recorded = read_json_object(_files_path(out))
    if recorded is None:
        return []
    failed = [rel for rel, entry in recorded.items() if not _file_matches(out, rel, entry)]
    tops = set()
    for rel in failed:
        top = rel.replace("\\", "/").split("/")[0]
        if top in ("", ".", "..", PARTS):
            continue
        tops.add(top)
        with contextlib.suppress(OutsideRootError, OSError):
            path = contained(out, rel)
            if os.path.lexists(path):
                remove_within(out, path)
    for top in tops:
        with contextlib.suppress(OutsideRootError, OSError):
            stats = contained(out / PARTS / "stats", top)
            if os.path.lexists(stats):
                remove_within(out, stats)
    kept = {rel: e for rel, e in recorded.items() if rel.replace("\\", "/").split("/")[0] not in tops and rel not in failed}
    atomic_write_json(_files_path(out), kept)
    return failed


def _remove_symlinks(trees: Iterable[Path]) -> None:
    """Unlink every symbolic link in the export's own trees: svot writes none, and no write may go through one."""
    for tree in trees:
        if tree.is_symlink():
            tree.unlink()
            continue
        for root, dirs, files in os.walk(tree):  # os.walk does not descend into linked directories
            for name in dirs + files:
                p = Path(root) / name
                if p.is_symlink():
                    p.unlink()


def recorded(out: Path) -> set[str]:
    """Relative paths whose sha256 ``.parts/files.json`` holds (all verified by :func:`prepare_output`)."""
    return set(read_json_object(_files_path(out)) or {})


def _start_again(out: Path, trees: list[Path]) -> None:
    for p in trees:
        remove(p)


def prepare_output(
    out: Path,
    fingerprint: dict,
    dataset_dirs: Iterable[Path],
    resume: bool,
    overwrite: bool,
    restore_stats: Callable[[dict], None],
    own_files: Iterable[str] = (),
) -> None:
    """Make ``out`` ready for an export with arguments ``fingerprint``.

    ``own_files``: names of files the export writes directly in ``out`` (the dataset card). One
    that is already there, but neither listed in the manifest of an svot export in ``out`` nor
    beside an unfinished one (``.parts``), is the user's: it is replaced only with ``overwrite``.

    ``restore_stats(manifest)`` is called when resuming a *finished* export, to
    write its per-split stats back under ``.parts`` (the summary is rebuilt
    from them); the files its manifest lists are then verified like any other.
    """
    if resume and overwrite:
        raise ConfigError("--resume and --overwrite exclude each other")
    if out.exists() and not out.is_dir():
        raise DatasetError(f"output path {str(out)!r} exists and is not a directory")
    parts_cfg = out / PARTS / "config.json"
    manifest_path = out / MANIFEST
    dirs = list(dataset_dirs)
    existing = [p for p in [manifest_path, out / PARTS, *dirs]
                if os.path.lexists(p) and (not p.is_dir() or p.is_symlink() or any(p.iterdir()))]
    if existing and not (resume or overwrite):
        raise DatasetError(
            f"output directory {str(out)!r} already holds an export ({existing[0].name}); "
            "pass --resume to continue it or --overwrite to replace it"
        )
    manifest = read_json_object(manifest_path) if os.path.lexists(manifest_path) else None
    readable = isinstance(manifest, dict) and isinstance(manifest.get("arguments"), dict)
    listed = manifest.get("files") if readable else None
    listed = listed if isinstance(listed, dict) else {}
    # an unfinished export (.parts) may have written its card just before it stopped; a damaged
    # manifest cannot say what is ours: only a readable manifest, or no export at all, can make it foreign
    unknown = not readable and (os.path.isdir(out / PARTS) or os.path.lexists(manifest_path))
    foreign = [name for name in own_files if os.path.lexists(out / name) and name not in listed and not unknown]
    if foreign and not overwrite:
        raise DatasetError(
            f"output directory {str(out)!r} holds {foreign[0]}, which no svot export there wrote; the export "
            "writes its own there: pass --overwrite to replace it, or choose another --out"
        )
    if overwrite:
        files = manifest.get("files") if manifest else None
        for rel in files if isinstance(files, dict) else ():
            with contextlib.suppress(OutsideRootError, OSError):  # a name that leads out is not ours to delete
                remove_within(out, contained(out, rel, what="manifest entry"))
        for p in [manifest_path, out / PARTS, *dirs]:
            remove(p)
    elif resume and existing:
        old = read_json_object(parts_cfg)
        from_manifest = False
        if old is None and manifest is not None and isinstance(manifest.get("arguments"), dict):
            old, from_manifest = manifest["arguments"], True
        if old is None:
            # no readable export state (a corrupt manifest.json or config.json): start again, removing
            # only what this export writes, so that nothing unverified is kept
            _start_again(out, [manifest_path, out / PARTS, *dirs])
        elif old != fingerprint:
            diff = sorted(k for k in set(old) | set(fingerprint) if old.get(k) != fingerprint.get(k))
            raise DatasetError(
                f"cannot resume in {str(out)!r}: it was exported with different arguments ({', '.join(diff)}); "
                "pass the same arguments, or --overwrite"
            )
        elif from_manifest:  # a finished export: its counts and file hashes live in the manifest
            files = manifest.get("files")
            try:
                restore_stats(manifest)
                atomic_write_json(_files_path(out), files if isinstance(files, dict) else {})
            except (AttributeError, KeyError, TypeError, ValueError):  # the arguments match, the rest is damaged
                _start_again(out, [manifest_path, out / PARTS, *dirs])
    out.mkdir(parents=True, exist_ok=True)
    _remove_symlinks([out / PARTS, *dirs])
    for root, _dirs, files in os.walk(out):
        for f in files:
            if f.endswith(TMP_SUFFIX):
                os.unlink(os.path.join(root, f))
    if resume:
        _verify_kept(out)
    atomic_write_json(parts_cfg, fingerprint)
