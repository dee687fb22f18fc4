"""RuleMaze datasets: counts, traces from the exported images, determinism, resume, ShareGPT layout."""

import io
import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from svot.errors import ConfigError, DatasetError, PredictionError
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


def test_no_maze_rule_pair_is_in_both_splits(export_dir, pools):
    """Issue 45: no (maze, rule) pair of the test split is a training pair; read back from the files
    written, the mazes by content (not by pool index)."""
    out, _ = export_dir
    for sc_dir in ("regularmaze", "questmaze"):
        split = {s: pq.read_table(out / sc_dir / f"{s}.parquet", columns=["maze", "rule_id"]).to_pylist()
                 for s in ("train", "test")}
        pairs = {s: {(r["maze"], r["rule_id"]) for r in rows} for s, rows in split.items()}
        assert pairs["train"] and pairs["test"] and not pairs["train"] & pairs["test"]
        assert not {r["maze"] for r in split["train"]} & {r["maze"] for r in split["test"]}
    # a pool file that holds a maze more than once: it still lands in one split only
    sc = "RegularMaze"
    doubled = list(pools[sc]) + list(pools[sc])
    train_idx, test_idx = D.split_mazes(doubled, sc, 1, 0.5)
    assert not {doubled[i] for i in train_idx} & {doubled[i] for i in test_idx}
    assert len(train_idx) + len(test_idx) == len(pools[sc])
    items = D.select_items(sc, doubled, builtin_rules(sc), seed=1, train=9, test_per_group=1, test_fraction=0.5)
    train = {(i.maze, i.rule.id) for i in items["train"]}
    assert not train & {(i.maze, i.rule.id) for i in items["test"]}
    assert not {i.maze for i in items["train"]} & {i.maze for i in items["test"]}


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
        assert set(info) == {f"rulemaze_{d}_{stem}" for stem in
                             ("train", "test", "train_stepwise", "test_stepwise", "test_predict")}
        for name in (f"rulemaze_{d}_train", f"rulemaze_{d}_test"):
            entry = info[name]
            items = json.loads((sdir / entry["file_name"]).read_text())
            assert items
            tags = entry["tags"]
            for item in items:
                msgs = item["messages"]
                roles = _check_sharegpt_item(item, sdir, tags)
                n_placeholders = sum(m["content"].count("<image>") for m in msgs)
                assert n_placeholders == len(item["images"]) >= 2
                for m in msgs:
                    if m["role"] == "function_call":
                        call = json.loads(m["content"])
                        assert set(call) == {"name", "arguments"}
                assert roles[-1] == "assistant"
                assert [t["name"] for t in json.loads(item["tools"])][0] == "LocateStart"


def _check_sharegpt_item(item, sdir, tags) -> list[str]:
    """LLaMA-Factory's ShareGPT rules (its SharegptDatasetConverter and mm_plugin): user/observation at
    odd positions, assistant/function_call at even ones, an even count, one image per ``<image>``."""
    msgs = item["messages"]
    roles = [m[tags["role_tag"]] for m in msgs]
    assert all(r in ("user", "observation") for r in roles[0::2])
    assert all(r in ("assistant", "function_call") for r in roles[1::2])
    assert roles[0] == "user" and len(roles) % 2 == 0
    assert sum(m["content"].count("<image>") for m in msgs) == len(item["images"])
    assert all((sdir / rel).is_file() for rel in item["images"])
    return roles


def test_stepwise_samples_one_per_step_with_its_image(export_dir):
    """DMP §4.3: at step t the input is G, R, the updated image I_t and the trace H_t; the output the call c_t."""
    out, _ = export_dir
    for d in D.SCENARIO_DIRS.values():
        sdir = out / d / D.SHAREGPT_DIR
        info = json.loads((sdir / "dataset_info.json").read_text())
        for split in ("train", "test"):
            whole = json.loads((sdir / f"{split}.json").read_text())
            steps = json.loads((sdir / info[f"rulemaze_{d}_{split}_stepwise"]["file_name"]).read_text())
            by_item: dict = {}
            for s in steps:
                _check_sharegpt_item(s, sdir, info[f"rulemaze_{d}_{split}_stepwise"]["tags"])
                assert len(s["images"]) == 1 and len(s["messages"]) == 2
                by_item.setdefault(s["id"].rsplit("-step", 1)[0], []).append(s)
            for item in whole:
                msgs = item["messages"]
                targets = [m for m in msgs if m["role"] in ("function_call", "assistant")]
                samples = by_item[item["id"]]
                assert [s["messages"][1] for s in samples] == targets
                # the image of each sample is the last image the trace produced before that step
                current = item["images"][0]
                k = 0
                for m in msgs[1:]:
                    if m["role"] in ("function_call", "assistant"):
                        assert samples[k]["images"] == [current]
                        k += 1
                    elif m["content"].startswith("<image>image_"):
                        current = item["images"][int(m["content"][len("<image>image_"):])]
                # the trace so far is text: the previous calls are in the prompt, later ones are not
                last = samples[-1]["messages"][0]["content"]
                assert all(t["content"] in last for t in targets[:-1])
                assert targets[1]["content"] not in samples[1]["messages"][0]["content"]


def test_predict_file_holds_no_ground_truth_and_scores(export_dir, tmp_path):
    """LLaMA-Factory predict: prompt = every message but the last; it must not contain the answer's moves."""
    from svot.rulemaze.evaluate import evaluate

    out, _ = export_dir
    for d in D.SCENARIO_DIRS.values():
        sdir = out / d / D.SHAREGPT_DIR
        info = json.loads((sdir / "dataset_info.json").read_text())
        items = json.loads((sdir / info[f"rulemaze_{d}_test_predict"]["file_name"]).read_text())
        whole = json.loads((sdir / "test.json").read_text())
        assert [i["id"] for i in items] == [w["id"] for w in whole]
        for item in items:
            _check_sharegpt_item(item, sdir, info[f"rulemaze_{d}_test_predict"]["tags"])
            prompt = item["messages"][:-1]
            assert len(prompt) == 1 and len(item["images"]) == 1
            assert prompt[0]["role"] == "user" and prompt[0]["content"].startswith("<image>")
            text = prompt[0]["content"]
            assert '"name":' not in text and item["messages"][-1]["content"] not in text  # no tool call, no answer
            assert item["messages"][-1]["content"].endswith(", ".join(item["ground_truth"]))
        # LLaMA-Factory's generated_predictions.jsonl: no ids, lines in file order, label = the last message
        lines = []
        for k, item in enumerate(items):
            pred = item["messages"][-1]["content"] if k % 2 == 0 else "Final answer: " + "up, " * 9 + "up"
            lines.append(json.dumps({"prompt": "...", "predict": pred, "label": item["messages"][-1]["content"]}))
        path = tmp_path / f"{d}.jsonl"
        path.write_text("\n".join(lines) + "\n")
        report = evaluate(sdir / "test_predict.json", path)
        n = sum(s.n for s in report.scores[next(iter(report.scores))].values())
        em = sum(s.em * s.n for s in report.scores[next(iter(report.scores))].values())
        assert n == len(items) and round(em) == (len(items) + 1) // 2 and not report.malformed
        # a reordered file is refused, not scored against the wrong items
        path.write_text("\n".join(lines[1:] + lines[:1]) + "\n")
        with pytest.raises(PredictionError, match="not the ground truth"):
            evaluate(sdir / "test_predict.json", path)


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


def test_trl_records_match_the_sharegpt_samples(tmp_path):
    """--formats trl: the step-wise and predict samples as TRL conversational records, one image part each."""
    datasets = pytest.importorskip("datasets", reason="the dev extra brings datasets")
    cfg = D.make_config(tmp_path, scenarios=["QuestMaze"], seed=3, train=3, test_per_group=1, pool_size=800,
                        formats="sharegpt,trl", image_size=160)
    result = D.export(cfg, quiet=True)
    sdir, tdir = tmp_path / "questmaze" / D.SHAREGPT_DIR, tmp_path / "questmaze" / D.TRL_DIR
    assert {f"questmaze/trl/{s}.parquet" for s in ("train_stepwise", "test_stepwise", "test_predict")} \
        <= set(result.manifest["files"])
    for stem in ("train_stepwise", "test_stepwise", "test_predict"):
        shared = json.loads((sdir / f"{stem}.json").read_text())
        ds = datasets.load_dataset("parquet", data_files=str(tdir / f"{stem}.parquet"),
                                   cache_dir=str(tmp_path / ".hf"))["train"]
        assert len(ds) == len(shared)
        for row, sg in zip(ds, shared):
            content = row["prompt"][0]["content"]
            assert content[0]["type"] == "image" and [p["type"] for p in content[1:]] == ["text"]
            assert "<image>" not in content[1]["text"] and content[1]["text"] == sg["messages"][0]["content"][7:]
            assert row["completion"][0]["content"][0]["text"] == sg["messages"][-1]["content"]
            (img,) = row["images"]
            assert np.array_equal(np.asarray(img.convert("RGB")),
                                  np.asarray(Image.open(sdir / sg["images"][0]).convert("RGB")))
    from svot.rulemaze.evaluate import load_truth

    truth = load_truth(tdir / "test_predict.parquet")
    assert len(truth) == 4 and all(t.actions for t in truth.values())
