"""RuleMaze datasets: counts, traces from the exported images, determinism, resume, ShareGPT layout."""

import io
import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from svot.errors import ConfigError, DatasetError
from svot.rulemaze import dataset as D
from svot.rulemaze import symbols as S
from svot.rulemaze.matching import evaluate_paths
from svot.rulemaze.rules import builtin_rules
from svot.rulemaze.tools import run_trace

SMALL = dict(seed=3, train=18, test_per_group=4, pool_size=1500, chunk_items=16)


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("rulemaze-export")
    cfg = D.make_config(out, **SMALL)
    result = D.export(cfg, workers=1, quiet=True)
    return out, result


def _decode(value) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(value["bytes"])).convert("RGB"))


def test_paper_counts():
    """3,600 train items over the 18 seen rules, 100 test items per group, per scenario."""
    for sc in S.SCENARIOS:
        groups = D.rule_groups(builtin_rules(sc))
        assert [len(groups[g]) for g in D.GROUPS] == [18, 18, 4, 4, 4]
        counts = D.group_counts()
        assert counts["train"] == 3600 and sum(counts[g] for g in D.TEST_GROUPS) == 400
        assert D.quotas(18, 3600) == [200] * 18
        assert D.quotas(18, 100) == [6] * 10 + [5] * 8 and sum(D.quotas(18, 100)) == 100
        assert D.quotas(4, 100) == [25] * 4
    assert D.quotas(7, 3) == [1, 1, 1, 0, 0, 0, 0]
    train, test = D.split_pool(20_000, "QuestMaze", 0, 0.2)
    assert len(test) == 4000 and len(train) == 16_000 and not set(train) & set(test)


def test_selection_counts_and_disjoint_mazes(pools):
    for sc in S.SCENARIOS:
        items = D.select_items(sc, pools[sc], builtin_rules(sc), seed=1, train=36, test_per_group=4,
                               test_fraction=0.5)
        assert len(items["train"]) == 36 and len(items["test"]) == 16
        by_group = {g: sum(1 for i in items["test"] if i.group == g) for g in D.TEST_GROUPS}
        assert by_group == {g: 4 for g in D.TEST_GROUPS}
        assert all(i.rule.split == "seen" for i in items["train"])
        assert all(i.rule.split == "unseen" and i.group == f"unseen-{i.rule.difficulty}"
                   for i in items["test"] if i.group != "seen")
        train_mazes = {i.maze_index for i in items["train"]}
        assert not train_mazes & {i.maze_index for i in items["test"]}
        pairs = [(i.rule.id, i.maze_index) for s in ("train", "test") for i in items[s]]
        assert len(pairs) == len(set(pairs))
        assert [i.index for i in items["test"]] == list(range(16))
        lengths = [len(evaluate_paths(i.rule, i.maze).ground_truth) for s in ("train", "test") for i in items[s]]
        assert min(lengths) >= D.DEFAULT_MIN_MOVES
    one_move = D.select_items("QuestMaze", pools["QuestMaze"], builtin_rules("QuestMaze"), seed=1, train=36,
                              test_per_group=4, test_fraction=0.5, min_moves=1)
    assert any(len(evaluate_paths(i.rule, i.maze).ground_truth) < 3 for i in one_move["train"])
    with pytest.raises(DatasetError, match="use a larger pool"):
        D.select_items("RegularMaze", pools["RegularMaze"][:40], builtin_rules("RegularMaze"), train=400)


def test_export_layout_and_counts(export_dir):
    out, result = export_dir
    manifest = json.loads((out / "manifest.json").read_text())
    for sc, d in D.SCENARIO_DIRS.items():
        train = pq.read_table(out / d / "train.parquet")
        test = pq.read_table(out / d / "test.parquet")
        assert train.num_rows == 18 and test.num_rows == 16
        groups = test.column("group").to_pylist()
        assert {g: groups.count(g) for g in set(groups)} == {g: 4 for g in D.TEST_GROUPS}
        assert set(train.column("group").to_pylist()) == {"train"}
        assert manifest["counts"][d]["test"]["items"] == 16
        assert manifest["rules"][d]["unseen-hard"] == [r.id for r in builtin_rules(sc, split="unseen",
                                                                                   difficulty="hard")]
    for rel, meta in manifest["files"].items():
        assert (out / rel).is_file() and meta["bytes"] == (out / rel).stat().st_size
    assert not (out / D.PARTS).exists()
    assert "regularmaze" in result.summary()


def test_every_test_item_replays_through_the_tools(export_dir):
    """The tools, chained on the exported maze image, reproduce the ground truth and the trace."""
    out, _ = export_dir
    for d in D.SCENARIO_DIRS.values():
        rows = pq.read_table(out / d / "test.parquet").to_pylist()
        for row in rows:
            image = _decode(row["image"])
            steps = run_trace(image, row["rule"], row["ground_truth"])
            path = [tuple(s["output"]) for s in steps if s["tool"] in ("LocateStart", "ExecuteMove")]
            assert [list(c) for c in path] == json.loads(row["ground_truth_path"])
            assert all(s["output"] for s in steps if s["tool"] == "VerifyRule") and steps[-1]["output"]
            assert [s["tool"] for s in steps] == [t["tool"] for t in row["trace"]]
            for s, t in zip(steps, row["trace"]):
                if s["image"] is not None:
                    assert np.array_equal(s["image"], _decode(row["images"][t["image"]]))
                    assert json.loads(t["output"])["position"] == s["output"]
                else:
                    assert json.loads(t["output"]) == s["output"]
            valid = [c for c in row["candidates"] if c["valid"]]
            assert len(valid) == 1 and valid[0]["actions"] == row["ground_truth"] and len(row["candidates"]) >= 2
            assert row["answer"] == ", ".join(row["ground_truth"])
            assert len(row["ground_truth"]) >= D.DEFAULT_MIN_MOVES


def test_sharegpt_layout_for_llama_factory(export_dir):
    out, _ = export_dir
    for d in D.SCENARIO_DIRS.values():
        sdir = out / d / D.SHAREGPT_DIR
        info = json.loads((sdir / "dataset_info.json").read_text())
        assert set(info) == {f"rulemaze_{d}_train", f"rulemaze_{d}_test"}
        for entry in info.values():
            items = json.loads((sdir / entry["file_name"]).read_text())
            assert items
            tags = entry["tags"]
            for item in items:
                msgs = item["messages"]
                roles = [m[tags["role_tag"]] for m in msgs]
                # LLaMA-Factory: user/observation at odd positions, assistant/function_call at even ones
                assert all(r in ("user", "observation") for r in roles[0::2])
                assert all(r in ("assistant", "function_call") for r in roles[1::2])
                assert roles[0] == "user" and roles[-1] == "assistant"
                n_placeholders = sum(m["content"].count("<image>") for m in msgs)
                assert n_placeholders == len(item["images"]) >= 2
                for rel in item["images"]:
                    assert (sdir / rel).is_file()
                for m in msgs:
                    if m["role"] == "function_call":
                        call = json.loads(m["content"])
                        assert set(call) == {"name", "arguments"}
                assert [t["name"] for t in json.loads(item["tools"])][0] == "LocateStart"


def test_parquet_loads_with_datasets(export_dir):
    datasets = pytest.importorskip("datasets")
    out, _ = export_dir
    ds = datasets.load_dataset("parquet", data_files=str(out / "questmaze" / "test.parquet"), split="train")
    row = ds[0]
    assert row["image"].size == (256, 256)
    assert len(row["images"]) == 2 + len(row["ground_truth"])  # the maze, LocateStart, one per move
    assert sum(m["content"].count("<image>") for m in row["messages"]) == len(row["images"])


def test_determinism_across_workers_and_resume(tmp_path, monkeypatch):
    small = dict(SMALL, scenarios=["QuestMaze"], train=8, test_per_group=2, chunk_items=4, pool_size=1200)
    one = D.export(D.make_config(tmp_path / "one", **small), workers=1, quiet=True)
    two = D.export(D.make_config(tmp_path / "two", **small), workers=2, quiet=True)
    assert one.manifest["files"] == two.manifest["files"]
    # an export interrupted after two chunks, then resumed, ends with the same bytes
    calls = {"n": 0}
    real = D._chunk_task

    def flaky(args):
        calls["n"] += 1
        if calls["n"] > 2:
            raise KeyboardInterrupt
        return real(args)

    monkeypatch.setattr(D, "_chunk_task", flaky)
    cfg = D.make_config(tmp_path / "three", **small)
    with pytest.raises(KeyboardInterrupt):
        D.export(cfg, workers=1, quiet=True)
    assert (tmp_path / "three" / D.PARTS).exists() and not (tmp_path / "three" / D.MANIFEST).exists()
    with pytest.raises(DatasetError, match="--resume"):
        D.export(cfg, workers=1, quiet=True)
    monkeypatch.setattr(D, "_chunk_task", real)
    three = D.export(cfg, workers=1, resume=True, quiet=True)
    assert three.manifest["files"] == one.manifest["files"]
    with pytest.raises(DatasetError, match="different arguments"):
        D.export(D.make_config(tmp_path / "three", **dict(small, seed=4)), resume=True, quiet=True)


def test_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="unknown format"):
        D.make_config(tmp_path, formats="csv")
    with pytest.raises(ConfigError, match="scenario"):
        D.make_config(tmp_path, scenarios=["HexMaze"])
    with pytest.raises(ConfigError, match="does not exist"):
        D.make_config(tmp_path, pool=tmp_path / "nope")
    with pytest.raises(ConfigError, match="RegularMaze-3x3.jsonl"):
        D.make_config(tmp_path, pool=tmp_path)
    bad = tmp_path / "rules.json"
    bad.write_text(json.dumps([{"id": "x", "natural_language": "x", "logic": "Zone(t,", "scenario": "regular"}]))
    with pytest.raises(Exception, match="rule #0"):
        D.make_config(tmp_path, rules=bad)


def test_extra_rules_and_pool_files(tmp_path, pools):
    from svot.rulemaze.pool import write_pool

    write_pool(tmp_path / "RegularMaze-3x3.jsonl", pools["RegularMaze"])
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps([{"id": "llm-01", "natural_language": "Never enter an orange or a pink cell.",
                                  "logic": 'NOT Zone(t,"orange") AND NOT Zone(t,"pink")',
                                  "scenario": "RegularMaze"}]))
    cfg = D.make_config(tmp_path / "out", ["regular"], pool=tmp_path, rules=rules, train=0, test_per_group=2,
                        test_fraction=0.5)
    items = D.plan(cfg, "RegularMaze")
    assert len(items["train"]) == 0
    medium = [i for i in items["test"] if i.group == "unseen-medium"]
    assert len(medium) == 2
    assert "llm-01" in [r.id for r in D.rule_groups(D.config_rules(cfg, "RegularMaze"))["unseen-medium"]]
    record = D.build_item(medium[0])
    assert record["group"] == "unseen-medium" and record["rule_split"] == "unseen"
    assert Path(cfg.pool_files[0][1]).name == "RegularMaze-3x3.jsonl"
