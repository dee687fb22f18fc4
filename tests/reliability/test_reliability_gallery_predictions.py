"""Issue 13's rules hold for the gallery's predictions overlay too (a reader added after them).

Class 1: a predicted image path from the file is read only if it is a regular file under the
predictions' directory. Class 4: JSON lines are split on "\\n" only.
"""

from __future__ import annotations

import json
import os

import pytest
from PIL import Image

from svot.gallery import predictions as gp


@pytest.mark.parametrize("rel", ["../outside.png", "ABS", "fifo.png", "sub/../../outside.png"])
def test_predicted_images_outside_the_directory_or_not_regular_are_not_read(tmp_path, rel):
    base = tmp_path / "preds"
    base.mkdir()
    Image.new("RGB", (4, 4), "red").save(tmp_path / "outside.png")  # a real image: only the path may stop it
    os.mkfifo(base / "fifo.png")  # opening it for reading would block forever
    if rel == "ABS":
        rel = str(tmp_path / "outside.png")
    pred = {"issues": []}
    got = gp._image(rel, base, {}, {"size": 4}, pred)
    assert got["png"] is None
    assert len(pred["issues"]) == 1 and rel in pred["issues"][0]


def test_prediction_lines_split_on_newline_only(tmp_path):
    path = tmp_path / "preds.jsonl"
    rows = [{"id": "a", "answer": "x\u2028y\u0085z"}, {"id": "b", "answer": "w"}]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    got = gp.read_predictions(path)
    assert not got.issues
    assert sorted(got.by_id) == ["a", "b"]
