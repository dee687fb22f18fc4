"""svot evaluate / svot.metrics.evaluate: ground truth scores 100%, shuffled letters score chance, bad lines are counted."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from metrics_helpers import truth_predictions, write_jsonl

from svot.cli import main as cli_main
from svot.errors import DatasetError, PredictionError
from svot.metrics import Report, evaluate, load_truth


@pytest.fixture(scope="module")
def truth_file(exported_rows, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("preds")
    return write_jsonl(out / "preds.jsonl", truth_predictions(exported_rows, out))


@pytest.fixture(scope="module")
def truth_report(exported, truth_file) -> Report:
    return evaluate(exported, truth_file)


def test_ground_truth_scores_100_percent_on_every_table(truth_report, exported_rows):
    r = truth_report
    assert r.issues == [] and r.scored == len(exported_rows) == r.lines
    keys = {(row["domain"], row["size"], row["split"]) for row in exported_rows}
    assert set(r.groups) == keys and len({k[0] for k in keys}) == 5
    for key, g in r.groups.items():
        assert g.choice_n == g.answer_n > 0
        assert g.c == 1.0 and g.f == 1.0, key  # Table 1
        assert g.state_n > 0 and g.r_z == 1.0  # Table 2
        assert all(c == n for c, n in g.state_fields.values())
        assert g.reasoning_n == g.state_n and g.r_c == 1.0
        assert all(c == n for c, n in g.reasoning_fields.values())
        assert g.visual_chain_n == g.state_n and g.r_cv == 1.0  # c^v chains (issue 14)
        assert g.image_n == g.state_n and g.r_v == pytest.approx(1.0, abs=1e-9)  # Table 3
        o = g.objects  # Table 7
        assert o.fg_accuracy == 1.0 and o.bg_error_rate == 0.0 and o.full_accuracy == 1.0
    text = r.tables()
    for title in ("Table 1 layout", "Table 2 layout", "Table 3 layout", "Table 7 layout", "Issues: none"):
        assert title in text
    assert "Gather" in text and "balls_collected" in text and "FullAcc" in text


def test_cli_prints_the_tables_and_writes_json(exported, exported_rows, tmp_path, capsys):
    # one domain's export: the Python API above scores all five; here the CLI's path from files to tables
    rows = [r for r in exported_rows if r["domain"] == "sokoban"]
    preds = write_jsonl(tmp_path / "preds.jsonl", truth_predictions(rows, tmp_path))
    out = tmp_path / "report.json"
    assert cli_main(["evaluate", "--data", str(exported / "sokoban"), "--predictions", str(preds), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Table 1 layout" in printed and "Table 7 layout" in printed
    data = json.loads(out.read_text())
    assert data["scored"] == data["records"] == len(rows) > 0 and data["issues"] == []
    for g in data["groups"]:
        assert g["classification"]["accuracy"] == 1.0 and g["free_response"]["accuracy"] == 1.0
        assert g["state"]["r_z"] == 1.0 and g["reasoning"]["r_c"] == 1.0
        assert g["images"]["fg_acc"] == 1.0 and g["images"]["bkg_err"] == 0.0 and g["images"]["full_acc"] == 1.0


def test_shuffled_letters_score_chance(exported, exported_rows):
    """Each instance gets another instance's correct letter (a random permutation).

    The export balances the correct letters over A-D within each split, so for a
    uniformly random permutation the expected number of hits is
    sum_k n_k^2 / n (= n/4 when balanced) and C's expectation is p = sum_k (n_k/n)^2.
    One shuffle of n = 80 instances has a standard deviation of about
    sqrt(p(1-p)/n) = 4.8 points: too loose to be a useful check on its own. So
    R = 200 independent shuffles are scored and their mean compared with p
    within 4 standard errors, 4 * sqrt(p(1-p)/(n R)) = 1.4 points; a single
    shuffle must still land within 4 of its own standard deviations.
    """
    truth = load_truth(exported)
    letters = [row["correct_choice"] for row in exported_rows]
    n = len(letters)
    counts = np.array([letters.count(x) for x in "ABCD"])
    p = float((counts**2).sum()) / n**2
    assert abs(p - 0.25) < 0.01  # the export balances the letters
    rng = np.random.default_rng(0)
    accs = []
    R = 200
    for _ in range(R):
        perm = rng.permutation(n)
        preds = [{"id": row["id"], "choice": f"The answer is ({letters[j]})"} for row, j in zip(exported_rows, perm)]
        rep = evaluate(truth, preds)
        hits = sum(g.choice_correct for g in rep.groups.values())
        assert sum(g.choice_n for g in rep.groups.values()) == n
        accs.append(hits / n)
    sd_one = math.sqrt(p * (1 - p) / n)
    assert abs(accs[0] - p) <= 4 * sd_one
    assert abs(float(np.mean(accs)) - p) <= 4 * sd_one / math.sqrt(R)


def test_shuffled_predictions_file_is_near_chance_for_c_and_poor_for_f(exported, exported_rows, tmp_path):
    preds = truth_predictions(exported_rows, tmp_path, images=False)
    rng = np.random.default_rng(1)
    perm = rng.permutation(len(preds))
    shuffled = [{**preds[j], "id": preds[i]["id"]} for i, j in enumerate(perm)]
    rep = evaluate(exported, write_jsonl(tmp_path / "shuffled.jsonl", shuffled))
    n = sum(g.choice_n for g in rep.groups.values())
    c = sum(g.choice_correct for g in rep.groups.values()) / n
    f = sum(g.answer_correct for g in rep.groups.values()) / n
    assert abs(c - 0.25) <= 4 * math.sqrt(0.25 * 0.75 / n)  # +-19 points for n = 80
    assert f < 0.2  # another instance's final state rarely matches
    # the fixed points of the permutation are the only guaranteed hits
    assert sum(g.r_z for g in rep.groups.values() if g.r_z is not None) / len(rep.groups) < 0.8


def test_bad_lines_are_counted_and_listed_never_fatal(exported, exported_rows, tmp_path):
    rows = exported_rows[:3]
    good = truth_predictions(rows, tmp_path)
    (tmp_path / "imgs" / "garbage.png").write_bytes(b"\x89PNG\r\n\x1a\n but not really a png")
    n0 = len(rows[0]["steps"])
    lines = [
        json.dumps(good[0]),  # 1: fine
        "{this is not json",  # 2
        json.dumps(["a", "list"]),  # 3: not an object
        json.dumps({"choice": "A"}),  # 4: no id
        json.dumps({"id": "chess-8x8-test_id-000-0", "choice": "A"}),  # 5: unknown id
        json.dumps(good[0]),  # 6: duplicate
        json.dumps({"id": rows[1]["id"], "choice": 2, "answer": ["x"], "states": "Player: (0, 0)", "reasoning": rows[1]["steps"][0]["reasoning"]}),  # 7: wrong types
        json.dumps({**{k: v for k, v in good[2].items() if k != "choice"},
                    "images": ["imgs/garbage.png", "imgs/missing.png"] + good[2]["images"][2:],
                    "z_texts": [None, 7] + good[2]["z_texts"][2:] + ["extra step"], "letter": "B", "confidence": 0.9}),  # 8: alias, broken parts
        "",  # blank lines are skipped
        "\xff\xfe not utf8 either",  # 10: decodes with replacement characters, still not JSON
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")
    rep = evaluate(exported, path)
    kinds = {(i.line, i.kind) for i in rep.issues}
    assert (2, "json") in kinds and (10, "json") in kinds
    assert (3, "not_object") in kinds
    assert (4, "missing_id") in kinds
    assert (5, "unknown_id") in kinds
    assert (6, "duplicate_id") in kinds
    assert sum(1 for i in rep.issues if i.line == 7 and i.kind == "type") == 4  # choice, answer, states, reasoning
    image_issues = [i for i in rep.issues if i.line == 8 and i.kind == "image"]
    assert [i.step for i in image_issues] == [1, 2]
    assert any(i.line == 8 and i.kind == "type" and i.step == 2 for i in rep.issues)
    assert any(i.line == 8 and i.kind == "length" for i in rep.issues)  # z_texts: one entry too many
    assert any(i.line == 8 and i.kind == "unknown_field" and "confidence" in i.message for i in rep.issues)
    assert not any(i.line == 8 and "letter" in i.message for i in rep.issues)  # an accepted alias of 'choice'
    assert rep.issue_counts()["json"] == 2
    # what is valid is still scored: line 1 fully, line 7 nothing, line 8 all but the broken steps
    assert rep.scored == 3 and rep.lines == 9
    g_all = list(rep.groups.values())
    n2 = len(rows[2]["steps"])
    assert sum(g.choice_n for g in g_all) == 2 and sum(g.choice_correct for g in g_all) == 1 + (rows[2]["correct_choice"] == "B")
    assert sum(g.image_n for g in g_all) == n0 + n2 - 2
    assert sum(g.state_n for g in g_all) == n0 + n2 - 2  # step 1 skipped (null), step 2 wrong type
    assert all(g.r_v == pytest.approx(1.0) for g in g_all if g.image_n)
    text = rep.tables(max_issues=3)
    assert "Issues:" in text and "more (see --json)" in text and "line 2: json" in text


def test_cli_reports_issues_but_exits_zero(exported, exported_rows, tmp_path, capsys):
    path = write_jsonl(tmp_path / "p.jsonl", ["not json", {"id": "nope"}, {"id": exported_rows[0]["id"], "choice": "A"}])
    assert cli_main(["evaluate", "--data", str(exported), "--predictions", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 of 3 prediction records" in out and "line 1: json" in out and "line 2: unknown_id" in out


def test_cli_exits_non_zero_when_nothing_is_scored(exported, tmp_path, capsys):
    """Issue 13: none of N lines matched an instance: the tables and issues are printed, the status says so."""
    from svot.cli import EXIT_NOTHING_SCORED

    path = write_jsonl(tmp_path / "p.jsonl", ["not json", {"id": "nope"}])
    assert cli_main(["evaluate", "--data", str(exported), "--predictions", str(path)]) == EXIT_NOTHING_SCORED
    captured = capsys.readouterr()
    assert "0 of 2 prediction records" in captured.out and "line 2: unknown_id" in captured.out
    assert captured.err.count("\n") == 1 and "nothing was scored" in captured.err


def test_missing_inputs_are_one_line_errors(exported, tmp_path, capsys):
    assert cli_main(["evaluate", "--data", str(tmp_path / "nowhere"), "--predictions", str(tmp_path / "p.jsonl")]) == 2
    assert cli_main(["evaluate", "--data", str(exported), "--predictions", str(tmp_path / "p.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.count("svot evaluate: error:") == 2 and "Traceback" not in err
    with pytest.raises(DatasetError):
        evaluate(tmp_path, [])  # a directory without any split
    with pytest.raises(PredictionError):
        evaluate(exported, tmp_path / "missing.jsonl")
    with pytest.raises(PredictionError):
        evaluate(exported, 42)


@pytest.mark.parametrize("layout", ["parquet_predictions", "jsonl_instances", "jsonl_predictions"])
def test_every_export_layout_gives_the_same_truth(exported_views, layout):
    ref = load_truth(exported_views["parquet_instances"])
    other = load_truth(exported_views[layout])
    assert set(ref.instances) == set(other.instances) and len(ref) > 0
    for inst in ref:
        o = other[inst.id]
        assert (o.domain, o.size, o.split, o.correct, o.choices, o.goal, o.answer) == (
            inst.domain, inst.size, inst.split, inst.correct, inst.choices, inst.goal, inst.answer)
        assert [s.state for s in o.steps] == [s.state for s in inst.steps]
        assert [s.action for s in o.steps] == [s.action for s in inst.steps]
        assert [s.keywords for s in o.steps] == [s.keywords for s in inst.steps]
        assert [s.labels for s in o.steps] == [s.labels for s in inst.steps]
        assert all(s.image is not None for s in o.steps)


def test_predictions_view_scores_like_the_instances_view(exported_views, tmp_path):
    import pyarrow.parquet as pq

    rows = []
    for p in sorted(exported_views["parquet_instances"].rglob("*.parquet")):
        rows += pq.read_table(p).to_pylist()
    preds = truth_predictions(rows, tmp_path)
    for layout in ("parquet_predictions", "jsonl_predictions", "jsonl_instances"):
        rep = evaluate(exported_views[layout], preds, base_dir=tmp_path)
        assert rep.issues == [] and rep.scored == len(rows)
        for g in rep.groups.values():
            assert (g.c, g.f, g.r_z, g.r_c, g.objects.full_accuracy) == (1.0, 1.0, 1.0, 1.0, 1.0)
            assert g.r_v == pytest.approx(1.0)
