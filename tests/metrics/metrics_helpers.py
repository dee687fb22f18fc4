"""Helpers for the scoring tests (imported as ``from metrics_helpers import ...``)."""

from __future__ import annotations

import json
from pathlib import Path


def truth_predictions(rows: list[dict], out_dir: Path, *, images: bool = True) -> list[dict]:
    """The ground truth of ``rows`` written as prediction records (images saved under ``out_dir``)."""
    preds = []
    img_dir = out_dir / "imgs"
    img_dir.mkdir(parents=True, exist_ok=True)
    for r in rows:
        rec = {
            "id": r["id"],
            "choice": r["correct_choice"],
            "answer": r["answer"],
            "z_texts": [s["z_text"] for s in r["steps"]],
            "cz_texts": [s["reasoning"] for s in r["steps"]],
            "cv_texts": [s["reasoning_visual"] for s in r["steps"]],
        }
        if images:
            paths = []
            for s, img in zip(r["steps"], r["step_images"]):
                rel = f"imgs/{r['id']}-{s['step']}.png"
                (out_dir / rel).write_bytes(img["bytes"])
                paths.append(rel)
            rec["images"] = paths
        preds.append(rec)
    return preds


def write_jsonl(path: Path, records) -> Path:
    with open(path, "w") as f:
        for r in records:
            f.write((r if isinstance(r, str) else json.dumps(r)) + "\n")
    return path
