"""Issue 48, classes 2 and 5, for everything that reads predictions and RuleMaze's JSON inputs.

One reader (:func:`svot.metrics.predictions.read_prediction_lines`) serves ``svot evaluate``,
``svot rulemaze evaluate`` and ``svot gallery --predictions``, so each defect class is held here
against all three at once:

* a UTF-8 byte-order mark before the first record (class 2): the first record is read;
* a line cut short, a line that is JSON but not an object, a line nested 200,000 deep (classes 2
  and 5): each is one counted, malformed line, never an exception, and the other lines score;
* LLaMA-Factory's id-less ``generated_predictions.jsonl`` matched by position (class 5): a bad line
  keeps its place, so every other line still meets its own item;
* RuleMaze's other JSON inputs nested too deeply (a rules file, ``--data`` as a ShareGPT list, a
  pool file): a :class:`~svot.errors.SvotError` naming the file, never ``RecursionError``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from svot.cli import main
from svot.errors import SvotError
from svot.gallery.predictions import read_predictions as gallery_read
from svot.metrics import evaluate
from svot.metrics.predictions import BOM, read_prediction_lines
from svot.rulemaze import dataset as RD
from svot.rulemaze.evaluate import evaluate as rulemaze_evaluate
from svot.rulemaze.evaluate import read_predictions as rulemaze_read
from svot.rulemaze.pool import read_pool
from svot.rulemaze.dataset import read_rows
from svot.rulemaze.rules.bank import load_rules

DEEP = "[" * 200_000


@pytest.fixture(scope="module")
def rulemaze_export(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("prediction-lines") / "rm"
    RD.export(RD.make_config(out, scenarios=["RegularMaze"], seed=3, train=2, test_per_group=4, pool_size=1500,
                             formats="parquet,sharegpt"), quiet=True)
    return out


def _predict_items(export: Path) -> list[dict]:
    return json.loads((export / "regularmaze" / "sharegpt" / "test_predict.json").read_text())


def _generated(items: list[dict]) -> list[str]:
    """LLaMA-Factory's generated_predictions.jsonl lines for ``items``: right answers, no ids."""
    return [json.dumps({"prompt": "...", "predict": f"Final answer: {', '.join(it['ground_truth'])}",
                        "label": it["answer"]}) for it in items]


@pytest.mark.parametrize("crlf", [False, True])
def test_a_byte_order_mark_does_not_lose_the_first_record(tmp_path, rulemaze_export, crlf):
    end = "\r\n" if crlf else "\n"
    items = _predict_items(rulemaze_export)
    pred = tmp_path / "p.jsonl"
    pred.write_bytes((BOM + end.join(json.dumps({"id": it["id"], "actions": it["ground_truth"]})
                                     for it in items) + end).encode("utf-8"))
    read = read_prediction_lines(pred)
    assert not read.issues and len(read.records) == len(items) == read.lines
    rm = rulemaze_read(pred)
    assert not rm.malformed and list(rm.by_id) == [it["id"] for it in items]
    report = rulemaze_evaluate(rulemaze_export, pred)
    assert report.matched == len(items) and not report.malformed
    assert all(s.em == 1.0 for s in report.scores["RegularMaze"].values())
    gallery = gallery_read(pred)
    assert not gallery.issues and list(gallery.by_id) == [it["id"] for it in items]


def test_a_byte_order_mark_in_svot_evaluate(tmp_path, exported_svot):
    data, rows = exported_svot
    pred = tmp_path / "p.jsonl"
    pred.write_bytes((BOM + json.dumps({"id": rows[0]["id"], "choice": "A"}) + "\n").encode("utf-8"))
    rep = evaluate(data, pred)
    assert rep.scored == 1 and not [i for i in rep.issues if i.kind == "json"]


@pytest.fixture(scope="module")
def exported_svot(tmp_path_factory):
    from svot.dataset import export, make_config

    out = tmp_path_factory.mktemp("prediction-lines-svot") / "data"
    export(make_config(out, domains=["maze"], sizes=[5], splits=["test_id"], maps_per_split=1, format="jsonl",
                       image_size=64), quiet=True)
    meta = out / "maze-5x5" / "test_id" / "metadata.jsonl"
    return out, [json.loads(x) for x in meta.read_text(encoding="utf-8").split("\n") if x]


BAD_LINES = {
    "cut short": lambda good: good[: len(good) // 2],
    "not an object": lambda good: "[1, 2, 3]",
    "a bare string": lambda good: '"up, right"',
    "nested too deeply": lambda good: DEEP,
    "not UTF-8": lambda good: "\udcff" + good,
}


@pytest.mark.parametrize("kind", list(BAD_LINES))
@pytest.mark.parametrize("where", [0, 2, -1])
def test_one_bad_line_of_an_id_less_file_is_counted_and_the_rest_match(tmp_path, rulemaze_export, kind, where):
    """LLaMA-Factory's by-position predictions (issue 48 class 5: "match the rest and count the bad line")."""
    data = rulemaze_export / "regularmaze" / "sharegpt" / "test_predict.json"
    items = _predict_items(rulemaze_export)
    lines = _generated(items)
    bad = where % len(lines)
    lines[bad] = BAD_LINES[kind](lines[bad])
    pred = tmp_path / "generated_predictions.jsonl"
    pred.write_bytes(("\n".join(lines) + "\n").encode("utf-8", errors="surrogateescape"))
    report = rulemaze_evaluate(data, pred)
    assert [n for n, _ in report.malformed] == [bad + 1], report.malformed
    assert report.matched == len(items) - 1 and report.lines == len(items)
    scores = report.scores["RegularMaze"]
    assert sum(s.n for s in scores.values()) == len(items)
    assert sum(round(s.em * s.n) for s in scores.values()) == len(items) - 1  # every other line is right
    code = main(["rulemaze", "evaluate", "--data", str(data), "--predictions", str(pred)])
    assert code == 0


@pytest.mark.parametrize("kind", list(BAD_LINES))
def test_a_bad_line_is_one_issue_in_every_reader(tmp_path, exported_svot, kind):
    data, rows = exported_svot
    good = json.dumps({"id": rows[0]["id"], "choice": "A", "actions": ["up"]})
    pred = tmp_path / "p.jsonl"
    pred.write_bytes(("\n".join([BAD_LINES[kind](json.dumps({"id": "x", "choice": "Final B"})), good]) + "\n")
                     .encode("utf-8", errors="surrogateescape"))
    rep = evaluate(data, pred)
    assert rep.scored == 1 and [i.line for i in rep.issues if i.kind in ("json", "not_object")] == [1]
    assert [n for n, _ in rulemaze_read(pred).malformed] == [1]
    g = gallery_read(pred)
    assert [n for n, _ in g.issues] == [1] and list(g.by_id) == [rows[0]["id"]]


def test_id_less_lines_that_do_not_fill_the_items_are_refused(tmp_path, rulemaze_export):
    data = rulemaze_export / "regularmaze" / "sharegpt" / "test_predict.json"
    pred = tmp_path / "generated_predictions.jsonl"
    pred.write_text("\n".join(_generated(_predict_items(rulemaze_export))[:-1]) + "\n")
    with pytest.raises(SvotError, match="one line per item"):
        rulemaze_evaluate(data, pred)


def test_rulemaze_json_inputs_nested_too_deeply_are_errors_that_name_the_file(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    for reader in (load_rules, read_rows, read_pool):
        with pytest.raises(SvotError) as info:
            reader(deep)
        assert "deep.json" in str(info.value) or "line 1" in str(info.value) or ":1:" in str(info.value)
    code = main(["rulemaze", "evaluate", "--data", str(deep), "--predictions", str(deep)])
    assert code == 2
