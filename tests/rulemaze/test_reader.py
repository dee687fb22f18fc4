"""Reading a RuleMaze export back (svot/dataset's reader, with the RuleMaze layout of svot.rulemaze.dataset): what is found where, and errors that name the file."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from svot.errors import DatasetError
from svot.rulemaze import symbols as S
from svot.rulemaze.dataset import SCENARIO_DIRS, find_test_splits, read_rows, scenario_rows


def _export(root, formats=("parquet", "sharegpt")):
    for scenario, sub in SCENARIO_DIRS.items():
        rows = [{"id": f"{sub}-test-{i:05d}", "scenario": scenario, "group": "seen", "ground_truth": ["up"]} for i in range(2)]
        (root / sub / "sharegpt").mkdir(parents=True)
        if "parquet" in formats:
            pq.write_table(pa.Table.from_pylist(rows), root / sub / "test.parquet")
        if "sharegpt" in formats:
            (root / sub / "sharegpt" / "test.json").write_text(json.dumps(rows))


def test_an_export_root_gives_every_scenarios_parquet_split_first(tmp_path):
    _export(tmp_path)
    assert find_test_splits(tmp_path) == sorted(tmp_path / d / "test.parquet" for d in SCENARIO_DIRS.values())
    assert [r["id"] for r in read_rows(find_test_splits(tmp_path)[0], ["id"])] == ["questmaze-test-00000", "questmaze-test-00001"]
    assert {r["scenario"] for r in scenario_rows(tmp_path, S.REGULAR)} == {S.REGULAR}


def test_without_parquet_the_sharegpt_lists_are_read(tmp_path):
    _export(tmp_path, formats=("sharegpt",))
    files = find_test_splits(tmp_path)
    assert [f.name for f in files] == ["test.json", "test.json"]
    assert read_rows(files[0])[0]["ground_truth"] == ["up"]
    with pytest.raises(DatasetError, match="no RuleMaze test split at .*test.parquet"):
        scenario_rows(tmp_path, S.QUEST)


def test_errors_name_the_file(tmp_path):
    with pytest.raises(DatasetError, match="does not exist"):
        find_test_splits(tmp_path / "nowhere")
    with pytest.raises(DatasetError, match="no test split under"):
        find_test_splits(tmp_path)
    bad = tmp_path / "test.json"
    bad.write_text('{"id": 1}')
    with pytest.raises(DatasetError, match=f"{bad}: expected a JSON list"):
        read_rows(bad)
    bad.write_text("[1, 2")
    with pytest.raises(DatasetError, match=f"{bad}: cannot read a ShareGPT JSON list"):
        read_rows(bad)
    broken = tmp_path / "test.parquet"
    broken.write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match=f"{broken}: cannot read a Parquet table"):
        read_rows(broken)
    pq.write_table(pa.Table.from_pylist([{"id": "x"}]), broken)
    with pytest.raises(DatasetError, match=r"cannot read the columns \['id', 'group'\]"):
        read_rows(broken, ["id", "group"])
