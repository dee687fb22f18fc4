"""An export's output directory: refuse, replace or resume, the same way for every exporter.

An export directory holds ``manifest.json`` (a finished export), ``.parts/``
(an unfinished one: its ``config.json`` fingerprint, finished parts and
per-split stats) and one folder per dataset. :func:`prepare_output` checks what
is there against ``--resume``/``--overwrite``, clears what must go, removes
stray ``*.tmp`` files of an interrupted write, and records the fingerprint.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Callable, Iterable

from svot.dataset.writers import TMP_SUFFIX, atomic_write_json
from svot.errors import ConfigError, DatasetError

PARTS = ".parts"
MANIFEST = "manifest.json"


def remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def prepare_output(
    out: Path,
    fingerprint: dict,
    dataset_dirs: Iterable[Path],
    resume: bool,
    overwrite: bool,
    restore_stats: Callable[[dict], None],
) -> None:
    """Make ``out`` ready for an export with arguments ``fingerprint``.

    ``restore_stats(manifest)`` is called when resuming a *finished* export, to
    write its per-split stats back under ``.parts`` (the summary is rebuilt
    from them).
    """
    if resume and overwrite:
        raise ConfigError("--resume and --overwrite exclude each other")
    if out.exists() and not out.is_dir():
        raise DatasetError(f"output path {str(out)!r} exists and is not a directory")
    parts_cfg = out / PARTS / "config.json"
    manifest = out / MANIFEST
    dirs = list(dataset_dirs)
    existing = [p for p in [manifest, out / PARTS, *dirs] if p.exists() and (p.is_file() or any(p.iterdir()))]
    if existing and not (resume or overwrite):
        raise DatasetError(
            f"output directory {str(out)!r} already holds an export ({existing[0].name}); "
            "pass --resume to continue it or --overwrite to replace it"
        )
    if overwrite:
        if manifest.exists():
            try:
                for rel in json.loads(manifest.read_text()).get("files", {}):
                    remove(out / rel)
            except (OSError, ValueError):
                pass
        for p in [manifest, out / PARTS, *dirs]:
            remove(p)
    elif resume and existing:
        if parts_cfg.exists():
            old = json.loads(parts_cfg.read_text())
        elif manifest.exists():
            old = json.loads(manifest.read_text()).get("arguments")
        else:
            raise DatasetError(
                f"cannot resume in {str(out)!r}: it holds files but no export state ({PARTS}/config.json or "
                f"{MANIFEST}); pass --overwrite to replace them"
            )
        if old != fingerprint:
            diff = sorted(k for k in set(old or {}) | set(fingerprint) if (old or {}).get(k) != fingerprint.get(k))
            raise DatasetError(
                f"cannot resume in {str(out)!r}: it was exported with different arguments ({', '.join(diff)}); "
                "pass the same arguments, or --overwrite"
            )
        if not parts_cfg.exists() and manifest.exists():  # a finished export: its counts live in the manifest
            restore_stats(json.loads(manifest.read_text()))
    out.mkdir(parents=True, exist_ok=True)
    for root, _dirs, files in os.walk(out):
        for f in files:
            if f.endswith(TMP_SUFFIX):
                os.unlink(os.path.join(root, f))
    atomic_write_json(parts_cfg, fingerprint)
