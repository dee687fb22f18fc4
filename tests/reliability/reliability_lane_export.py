"""Export a small all-domain split the same way on any interpreter and print its digests as JSON.

Usage: ``python reliability_lane_export.py OUT_DIR``. Runs, in this process, the two exporters
with fixed arguments (:data:`SVOT_EXPORT`: every SVoT domain at its Table 5 sizes, one map per
split, ImageFolder layout; :data:`RULEMAZE_EXPORT`: both RuleMaze scenarios, a few items, Parquet
and ShareGPT), then prints ``{"digests": {path: sha256}, "pyarrow": ..., "pillow": ...,
"python": ...}``. Pillow's drawing and resampling (``ImageDraw.Draw``, ``Image.Image.resize``),
whose pixels change between its releases, are replaced by functions that raise first: an export
that still went through them fails here.

What is compared (docs/reliability.md, rule 8): every file's sha256; ``manifest.json`` without
``command`` (it names OUT_DIR) and ``libraries`` (the installed versions, which differ by design).
A Parquet file's footer names the pyarrow that wrote it (``created_by``), so the digests also
carry each Parquet file's decoded rows, which the comparison uses when the lanes' pyarrow
versions differ.
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path

import PIL
import pyarrow
import pyarrow.parquet as pq
from PIL import Image, ImageDraw

from svot.cli import main

SVOT_EXPORT = ["export", "--domains", "all", "--splits", "test_id", "--maps-per-split", "1", "--image-size", "64",
               "--seed", "3", "--format", "jsonl", "--quiet"]
RULEMAZE_EXPORT = ["rulemaze", "export", "--pool-size", "300", "--train", "4", "--test-per-group", "1",
                   "--image-size", "144", "--seed", "3", "--quiet"]
SKIP = {".svot.lock"}


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def digests(root: Path, prefix: str) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.name in SKIP:
            continue
        rel = f"{prefix}/{p.relative_to(root).as_posix()}"
        if p.name == "manifest.json":
            m = json.loads(p.read_text(encoding="utf-8"))
            m.pop("command", None)
            m.pop("libraries", None)
            out[rel] = _sha(json.dumps(m, sort_keys=True).encode())
            out[f"{rel}#without-parquet"] = _sha(json.dumps(
                {k: v for k, v in m.items() if k != "files"}
                | {"files": {f: v for f, v in m.get("files", {}).items() if not f.endswith(".parquet")}},
                sort_keys=True).encode())
            continue
        out[rel] = _sha(p.read_bytes())
        if p.suffix == ".parquet":
            table = pq.read_table(p)
            out[f"{rel}#rows"] = _sha(json.dumps(table.to_pylist(), sort_keys=True, default=repr).encode())
    return out


def _refuse(name: str):
    def refuse(*_args, **_kwargs):
        raise AssertionError(f"an export called PIL's {name}, whose pixels change between Pillow releases")
    return refuse


def run(out: Path) -> dict:
    ImageDraw.Draw = _refuse("ImageDraw.Draw")
    Image.Image.resize = _refuse("Image.resize")
    for name, argv in (("svot", SVOT_EXPORT), ("rulemaze", RULEMAZE_EXPORT)):
        code = main([*argv, "--out", str(out / name)])
        if code != 0:
            raise SystemExit(f"{name} export exited with {code}")
    found = digests(out / "svot", "svot") | digests(out / "rulemaze", "rulemaze")
    return {"digests": found, "pyarrow": pyarrow.__version__, "pillow": PIL.__version__,
            "python": platform.python_version()}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(run(Path(sys.argv[1])), sort_keys=True) + "\n")
