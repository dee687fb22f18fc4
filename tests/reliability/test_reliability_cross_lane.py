"""Rule 8: a dataset's bytes depend on the seed and svot's version only, not on the Python or Pillow installed.

The two CI lanes (``.ci/run``: Python 3.11 with Pillow 9.5, pinned by PDDLGym; Python 3.13 with
the newest Pillow) run :mod:`reliability_lane_export` with the same arguments. Lane 1 writes its
digests to the file named by ``SVOT_LANE_DIGESTS_OUT``; lane 2 reads them from
``SVOT_LANE_DIGESTS_IN`` and compares every file. Outside CI (neither variable set) the comparison
is skipped with that reason; the export itself, with Pillow's drawing and resampling made to
raise (their pixels change between Pillow releases), runs on every lane.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from reliability_helpers import HERE

LANE_EXPORT = HERE / "reliability_lane_export.py"
OUT_VAR, IN_VAR = "SVOT_LANE_DIGESTS_OUT", "SVOT_LANE_DIGESTS_IN"


def _lane_export(out) -> dict:
    root = str(HERE.parent.parent)  # this checkout's svot, whatever else is installed
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, str(LANE_EXPORT), str(out)], capture_output=True, text=True, timeout=600,
                          cwd=root, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # the exporters print their summaries first


def _compare(lane: dict, other: dict) -> None:
    mine, theirs = lane["digests"], other["digests"]
    assert sorted(mine) == sorted(theirs), "the lanes' exports hold different files"
    same_pyarrow = lane["pyarrow"] == other["pyarrow"]
    # a Parquet footer names its writer (pyarrow's created_by): compare its rows when the versions differ
    keys = [k for k in mine if same_pyarrow or not (k.endswith(".parquet") or k.endswith("manifest.json"))]
    differ = sorted(k for k in keys if mine[k] != theirs[k])
    where = (f"Python {other['python']} / Pillow {other['pillow']} / pyarrow {other['pyarrow']} vs "
             f"Python {lane['python']} / Pillow {lane['pillow']} / pyarrow {lane['pyarrow']}")
    assert not differ, f"{len(differ)} of {len(keys)} files differ ({where}): {differ[:10]}"


def test_export_bytes_equal_across_lanes(tmp_path):
    # one test (one export) per lane: the exports ran with ImageDraw.Draw and Image.resize raising
    lane = _lane_export(tmp_path)
    pngs = [k for k in lane["digests"] if k.endswith(".png")]
    assert {k.split("/")[1].split("-")[0] for k in pngs if k.startswith("svot/")} >= {
        "maze", "frozenlake", "sokoban", "pacman", "gather"}
    assert {k.split("/")[1] for k in pngs if k.startswith("rulemaze/")} == {"regularmaze", "questmaze"}
    if os.environ.get(OUT_VAR):
        with open(os.environ[OUT_VAR], "w", encoding="utf-8") as f:
            json.dump(lane, f, sort_keys=True)
    if os.environ.get(IN_VAR):
        with open(os.environ[IN_VAR], encoding="utf-8") as f:
            _compare(lane, json.load(f))
    elif not os.environ.get(OUT_VAR):
        pytest.skip(f"exported without Pillow's drawing; the comparison needs {IN_VAR} (set by .ci/run's lane 2, "
                    f"with lane 1's digests from {OUT_VAR})")


def test_the_comparison_fails_on_one_changed_file():
    base = {"python": "3.11", "pillow": "9.5.0", "pyarrow": "1", "digests": {"a.png": "0", "b/manifest.json": "1"}}
    _compare(base, dict(base))
    with pytest.raises(AssertionError, match="1 of 2 files differ"):
        _compare(base, dict(base, digests={"a.png": "x", "b/manifest.json": "1"}))
