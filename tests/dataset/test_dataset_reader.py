"""svot.dataset.reader, the one reader of the export format (issue 17): every layout, the same records.

Parquet and JSONL (ImageFolder), instances and predictions view: the same
ground truth (images included, byte for byte); Parquet and JSONL instance rows
read into the same rows and images; names taken from files stay contained.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from svot.dataset import export, make_config
from svot.dataset.reader import (
    SplitSource,
    data_files,
    find_splits,
    load_truth,
    read_export_info,
    read_instance_rows,
    read_rows,
)
from svot.errors import DatasetError

LAYOUTS = {
    "parquet-instances": ("parquet", "instances"),
    "parquet-predictions": ("parquet", "predictions"),
    "jsonl-instances": ("jsonl", "instances"),
    "jsonl-predictions": ("jsonl", "predictions"),
}


@pytest.fixture(scope="module")
def exports(tmp_path_factory) -> dict[str, Path]:
    """Sokoban and maze 4x4, val (2 maps), in the four layouts."""
    base = tmp_path_factory.mktemp("reader")
    out = {}
    for name, (fmt, view) in LAYOUTS.items():
        cfg = make_config(base / name, domains=["sokoban", "maze"], sizes=[4], splits=["val"], view=view,
                          format=fmt, maps_per_split={"val": 2}, allow_any_size=True, image_size=48)
        export(cfg, quiet=True)
        out[name] = base / name
    return out


def _image_bytes(value) -> bytes | None:
    return value if value is None or isinstance(value, bytes) else Path(value).read_bytes()


def _truth(data: Path) -> dict:
    """Everything a TruthSet holds, images as bytes, by id."""
    out = {}
    for inst in load_truth(data):
        steps = [(s.index, s.action, s.state, s.keywords, s.labels, s.visual_chain, _image_bytes(s.image))
                 for s in inst.steps]
        out[inst.id] = (inst.domain, inst.size, inst.split, inst.distribution, inst.answer, inst.goal,
                        inst.choices, inst.correct, steps)
    return out


@pytest.mark.parametrize("layout", [k for k in LAYOUTS if k != "parquet-instances"])
def test_every_layout_reads_into_the_same_truth(exports, layout):
    ref = _truth(exports["parquet-instances"])
    assert len(ref) > 0 and all(all(s[-1] for s in v[-1]) for v in ref.values())  # every step has an image
    assert _truth(exports[layout]) == ref


def test_instance_rows_are_the_same_in_parquet_and_jsonl(exports):
    pq_srcs, js_srcs = find_splits(exports["parquet-instances"]), find_splits(exports["jsonl-instances"])
    assert [(s.dataset, s.split, s.format) for s in pq_srcs] == [
        ("maze-4x4", "val", "parquet"), ("sokoban-4x4", "val", "parquet")]  # paper order
    assert [(s.dataset, s.split, s.format) for s in js_srcs] == [
        ("maze-4x4", "val", "jsonl"), ("sokoban-4x4", "val", "jsonl")]
    for a, b in zip(pq_srcs, js_srcs):
        na, ra = read_instance_rows(a)
        nb, rb = read_instance_rows(b)
        assert na == nb == len(ra) == len(rb) > 0
        for x, y in zip(ra, rb):
            assert x.image == y.image and x.step_images == y.step_images and x.image[:4] == b"\x89PNG"
            assert len(x.step_images) == len(x.row["steps"])
            # the image columns differ by format; every other field is the same
            drop = {"image", "step_images", "file_name", "step_images_file_names"}
            assert {k: v for k, v in x.row.items() if k not in drop} == {k: v for k, v in y.row.items() if k not in drop}
        # a sample: only the chosen rows, in the chosen order
        n, picked = read_instance_rows(a, lambda n: [n - 1, 0])
        assert [r.row["id"] for r in picked] == [ra[-1].row["id"], ra[0].row["id"]]


def test_rows_of_both_views_and_the_id_filter(exports):
    for name, (_fmt, view) in LAYOUTS.items():
        files = data_files(exports[name])
        assert len(files) == 2
        rows, pred_view = read_rows(files[0])
        assert pred_view == (view == "predictions") and rows
        key = "instance_id" if pred_view else "id"
        one = rows[0][key]
        some, _ = read_rows(files[0], {one})
        assert some and {r[key] for r in some} == {one}
        assert read_rows(files[0], {"no-such-id"})[0] == []


def test_manifest_facts(exports):
    info = read_export_info(exports["jsonl-instances"])
    assert info["format"] == "jsonl" and info["image_size"] == 48 and "version" in info
    assert read_export_info(exports["jsonl-instances"] / "maze-4x4") == {}


def test_predictions_view_is_refused_where_instances_are_needed(exports):
    for name in ("parquet-predictions", "jsonl-predictions"):
        src = find_splits(exports[name])[0]
        with pytest.raises(DatasetError, match=r"not an instances-view export \(a --view predictions export\); "
                                               r"the test wants instances"):
            read_instance_rows(src, purpose="the test wants instances")


def test_image_names_stay_inside_the_split_folder(exports, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(exports["jsonl-instances"], data)
    meta = data / "maze-4x4" / "val" / "metadata.jsonl"
    rows = [json.loads(x) for x in meta.read_text(encoding="utf-8").splitlines()]
    (tmp_path / "secret.png").write_bytes(b"\x89PNG not yours")
    rows[0]["file_name"] = "../../../secret.png"
    meta.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    src = SplitSource("maze", 4, "val", meta, "jsonl")
    with pytest.raises(DatasetError, match=r"metadata\.jsonl: image '\.\./\.\./\.\./secret\.png' climbs out"):
        read_instance_rows(src)
    rows[0]["file_name"] = rows[1]["file_name"]
    rows[0]["step_images_file_names"][0] = "."  # a directory, not a regular file
    meta.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"metadata\.jsonl: image"):
        read_instance_rows(src)


def test_errors_name_the_file(tmp_path):
    with pytest.raises(DatasetError, match="does not exist"):
        find_splits(tmp_path / "nowhere")
    with pytest.raises(DatasetError, match="holds no exported splits"):
        find_splits(tmp_path)
    with pytest.raises(DatasetError, match="no exported split"):
        data_files(tmp_path)
    bad = tmp_path / "maze-5x5" / "val.parquet"
    bad.parent.mkdir()
    bad.write_bytes(b"not parquet")
    with pytest.raises(DatasetError, match=r"val\.parquet: cannot read Parquet"):
        read_instance_rows(find_splits(tmp_path)[0])
    with pytest.raises(DatasetError, match=r"val\.parquet: cannot read it as an SVoT export"):
        load_truth(tmp_path)
    (tmp_path / "manifest.json").write_text("{")
    with pytest.raises(DatasetError, match=r"manifest\.json: cannot read the manifest"):
        read_export_info(tmp_path)
