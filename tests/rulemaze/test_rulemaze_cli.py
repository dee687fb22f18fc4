"""`svot rulemaze pool | export | evaluate` through svot.cli.main, and the EM/PR report."""

import json

import pyarrow.parquet as pq
import pytest

from svot.cli import main
from svot.rulemaze.evaluate import answer_of, evaluate, format_table
from svot.rulemaze.pool import generate_pool, read_pool


def test_pool_command_is_deterministic_across_workers(tmp_path, capsys):
    for w, d in ((1, "a"), (2, "b")):
        rc = main(["rulemaze", "pool", "--size", "3", "--count", "60", "--workers", str(w), "--out",
                   str(tmp_path / d), "--scenario", "quest", "--seed", "9", "--quiet"])
        assert rc == 0
    a = (tmp_path / "a" / "QuestMaze-5x5.jsonl").read_bytes()
    assert a == (tmp_path / "b" / "QuestMaze-5x5.jsonl").read_bytes()
    assert read_pool(tmp_path / "a" / "QuestMaze-5x5.jsonl") == generate_pool("QuestMaze", 3, 60, seed=9)
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert manifest["pools"]["QuestMaze-5x5.jsonl"]["count"] == 60
    assert "mazes/s" in capsys.readouterr().out
    rc = main(["rulemaze", "pool", "--count", "5", "--out", str(tmp_path / "a"), "--scenario", "quest"])
    assert rc == 2 and "--overwrite" in capsys.readouterr().err
    assert main(["rulemaze", "pool", "--count", "5", "--out", str(tmp_path), "--scenario", "hex"]) == 2


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("rm-cli")
    rc = main(["rulemaze", "export", "--out", str(out / "data"), "--scenario", "QuestMaze", "--train", "4",
               "--test-per-group", "3", "--pool-size", "800", "--formats", "parquet", "--seed", "2",
               "--quiet"])
    assert rc == 0
    rows = pq.read_table(out / "data" / "questmaze" / "test.parquet").to_pylist()
    return out, rows


def test_ground_truth_scores_100_percent(exported, capsys):
    out, rows = exported
    preds = out / "gt.jsonl"
    lines = []
    for i, r in enumerate(rows):  # every accepted answer form
        form = i % 3
        if form == 0:
            lines.append({"id": r["id"], "actions": r["ground_truth"]})
        elif form == 1:
            lines.append({"id": r["id"], "response": r["messages"][-1]["content"]})
        else:
            lines.append({"id": r["id"], "prediction": r["answer"].upper()})
    preds.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    capsys.readouterr()
    assert main(["rulemaze", "evaluate", "--data", str(out / "data"), "--predictions", str(preds),
                 "--json", str(out / "scores.json")]) == 0
    text = capsys.readouterr().out
    assert "Seen Rule" in text and "Unseen Rule" in text and "Medium" in text
    row = next(line for line in text.splitlines() if line.startswith("QuestMaze"))
    assert row.split()[1:] == ["100.0"] * 10
    scores = json.loads((out / "scores.json").read_text())
    assert all(g["EM"] == 100 and g["PR"] == 100 for g in scores["scores"]["QuestMaze"].values())
    assert scores["malformed_lines"] == [] and scores["unknown_ids"] == []


def test_bad_lines_are_counted_not_fatal(exported, tmp_path):
    out, rows = exported
    preds = tmp_path / "p.jsonl"
    good = [json.dumps({"id": r["id"], "actions": r["ground_truth"]}) for r in rows[:4]]
    wrong = json.dumps({"id": rows[4]["id"], "actions": ["up"] * 9})
    preds.write_text("\n".join(good + ["not json", "[1, 2]", json.dumps({"id": 5, "actions": []}),
                                       json.dumps({"id": "ghost", "actions": ["up"]}),
                                       json.dumps({"id": rows[5]["id"], "actions": "fly, swim"}),
                                       json.dumps({"id": rows[6]["id"]}), wrong, good[0]]) + "\n")
    report = evaluate(out / "data" / "questmaze" / "test.parquet", preds)
    assert [n for n, _ in report.malformed] == [5, 6, 7, 10]
    assert report.unknown == ["ghost"] and [i for _, i in report.duplicates] == [rows[0]["id"]]
    total = sum(s.n for s in report.scores["QuestMaze"].values())
    assert total == len(rows) == 12
    em = sum(s.em * s.n for s in report.scores["QuestMaze"].values())
    assert em == pytest.approx(4)
    assert sum(s.malformed for s in report.scores["QuestMaze"].values()) == len(rows) - 5
    text = format_table(report)
    assert "malformed line 5" in text and "unknown ids: ghost" in text


def test_answer_extraction():
    assert answer_of({"response": "I think... Final answer: up, left"}) == " up, left"
    assert answer_of({"actions": ["up"]}) == ["up"]
    assert answer_of({"foo": 1}) is None
