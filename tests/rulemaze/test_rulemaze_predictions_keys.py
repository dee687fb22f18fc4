"""RuleMaze predictions: the moves may be given as "moves" (svot/rulemaze/README.md: "an id and the moves")."""

from __future__ import annotations

import json

from svot.rulemaze.evaluate import read_predictions


def test_moves_key_is_read_like_actions(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in (
        {"id": "a", "moves": ["up", "right"]},
        {"id": "b", "actions": "up, right"},
        {"id": "c", "moves": "Final answer: up, right"},
        {"id": "d", "steps": ["up"]},  # no answer key: malformed
    )) + "\n")
    preds = read_predictions(path)
    assert set(preds.by_id) == {"a", "b", "c"}
    assert [no for no, _ in preds.malformed] == [4]
    # read as given: the list, and the text after the last "answer:" label (the metric parses both the same)
    assert list(preds.by_id["a"]) == ["up", "right"]
    assert preds.by_id["b"] == "up, right" and preds.by_id["c"].strip() == "up, right"
