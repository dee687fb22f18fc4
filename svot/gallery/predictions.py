"""A model's predictions beside the truth, per gallery card (``svot gallery --predictions preds.jsonl``).

The predictions file is the one ``svot evaluate`` reads (JSON Lines, one
object per instance: ``id`` and any of ``choice``, ``answer``, ``states``,
``reasoning``, ``images``; see :mod:`svot.metrics.evaluation`). Each card gets
what was predicted and, per metric, whether it is right, scored with the same
functions as ``svot evaluate``:

* ``choice``: :func:`~svot.metrics.goal.extract_choice` equals the correct letter;
* ``answer``: per goal field, :func:`~svot.metrics.goal.answer_matches` (wrong fields marked);
* ``states``: per step, :func:`~svot.metrics.state.state_reward`'s field matches;
* ``reasoning``: per step, :func:`~svot.metrics.reasoning.reasoning_reward`'s keyword matches;
* ``images``: per step, ``r_v`` (:func:`~svot.metrics.visual.visual_reward`); an
  image counts as wrong below :data:`IMAGE_OK` (the paper gives no cut-off; this
  one only sorts cards, the tables of ``svot evaluate`` use ``r_v`` itself).

Bad lines are counted and listed, never fatal (as in ``svot evaluate``).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image

from svot.errors import DatasetError, PredictionError
from svot.metrics.goal import answer_matches, extract_choice
from svot.metrics.predictions import read_prediction_lines
from svot.metrics.reasoning import reasoning_reward
from svot.metrics.state import state_fields, state_reward
from svot.metrics.visual import visual_reward
from svot.safe_paths import MAX_IMAGE_BYTES, contained, open_image, read_regular

METRICS = ("choice", "answer", "states", "reasoning", "images")
IMAGE_OK = 0.9
_ALIASES = {"instance_id": "id", "letter": "choice", "free_response": "answer", "state_texts": "states",
            "reasoning_texts": "reasoning", "image_paths": "images"}


@dataclass
class PredictionFile:
    path: Path
    by_id: dict = field(default_factory=dict)
    issues: list = field(default_factory=list)  # (line, message)


def read_predictions(path) -> PredictionFile:
    """The predictions per id (first line wins), with the lines that could not be read; the file is
    read by :func:`svot.metrics.predictions.read_prediction_lines`, as ``svot evaluate`` reads it."""
    path = Path(path)
    try:
        read = read_prediction_lines(path)
    except PredictionError as exc:
        raise DatasetError(str(exc)) from None
    out = PredictionFile(path, issues=[(i.line, i.message.replace("not valid JSON", "not JSON", 1)) for i in read.issues])
    for no, _position, rec in read.records:
        if not isinstance(rec, dict):
            out.issues.append((no, "not a JSON object"))
            continue
        rec = {_ALIASES.get(k, k): v for k, v in rec.items()}
        pid = rec.get("id")
        if not isinstance(pid, str):
            out.issues.append((no, "no string 'id'"))
            continue
        if pid in out.by_id:
            out.issues.append((no, f"id {pid!r} repeated; the first line is kept"))
            continue
        out.by_id[pid] = rec
    out.issues.sort(key=lambda issue: issue[0])
    return out


def _json(v):
    return json.loads(v) if isinstance(v, str) else v


def _decode_png(data: bytes) -> np.ndarray:
    with open_image(data) as im:  # size checked from the header before decoding
        return np.asarray(im.convert("RGB"))


def score_card(card: dict, rec: dict, base: Path) -> dict:
    """What the prediction says and whether it is right, per metric; ``wrong`` lists the wrong metrics."""
    domain = card["domain"]
    pred: dict = {"metrics": [], "wrong": [], "issues": []}

    def mark(metric: str, ok: bool) -> None:
        if metric not in pred["metrics"]:
            pred["metrics"].append(metric)
        if not ok and metric not in pred["wrong"]:
            pred["wrong"].append(metric)

    if isinstance(rec.get("choice"), str):
        letter = extract_choice(rec["choice"], card.get("choices"), domain=domain)
        pred["choice"] = {"text": rec["choice"], "letter": letter, "ok": letter == card.get("correct_choice")}
        mark("choice", pred["choice"]["ok"])
    if isinstance(rec.get("answer"), str) and card.get("goal"):
        fields = answer_matches(domain, rec["answer"], _json(card["goal"]))
        pred["answer"] = {"text": rec["answer"], "fields": fields, "ok": all(fields.values())}
        mark("answer", pred["answer"]["ok"])
    steps = card["steps"]
    per_step: list[dict] = [{} for _ in steps]
    for name in ("states", "reasoning", "images"):
        values = rec.get(name)
        if values is None:
            continue
        if not isinstance(values, list):
            pred["issues"].append(f"'{name}' is not a list")
            continue
        if len(values) != len(steps):
            pred["issues"].append(f"'{name}' has {len(values)} entries for {len(steps)} steps")
        for i, (v, step) in enumerate(zip(values, steps)):
            if not isinstance(v, str):
                continue
            if name == "states":
                fs = state_fields(domain)
                if not step.get("action_text"):
                    fs = tuple(f for f in fs if f != "action")
                s = state_reward(v, _json(step["state"]), action=step.get("action_text"), domain=domain, fields=fs)
                per_step[i]["state"] = {"text": v, "fields": dict(s.matches), "ok": all(s.matches.values())}
                mark("states", per_step[i]["state"]["ok"])
            elif name == "reasoning":
                keywords = _json(step.get("keywords")) or []
                if not keywords:
                    continue
                r = reasoning_reward(v, keywords)
                per_step[i]["reasoning"] = {"text": v, "fields": dict(r.matches), "ok": all(r.matches.values())}
                mark("reasoning", per_step[i]["reasoning"]["ok"])
            else:
                per_step[i]["image"] = _image(v, base, step, card, pred)
                if per_step[i]["image"].get("r_v") is not None:
                    mark("images", per_step[i]["image"]["ok"])
    pred["steps"] = per_step
    return pred


def _image(rel: str, base: Path, step: dict, card: dict, pred: dict) -> dict:
    try:
        # only regular files under the predictions' directory, of bounded size (docs/reliability.md)
        data = read_regular(contained(base, rel, what="predicted image"), max_bytes=MAX_IMAGE_BYTES,
                            what="predicted image")
        img = _decode_png(data)
    except Exception as exc:  # noqa: BLE001 - missing, not an image, truncated: listed, never fatal
        pred["issues"].append(f"image {rel!r}: {type(exc).__name__}")
        return {"path": rel, "png": None}
    if not data.startswith(b"\x89PNG"):  # the gallery stores PNGs: re-encode other formats
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format="PNG")
        data = buf.getvalue()
    out = {"path": rel, "png": data}
    if step.get("image") is not None:
        try:
            rv = float(visual_reward(img, _decode_png(step["image"]), int(card["size"])).r_v)
        except Exception as exc:  # noqa: BLE001 - e.g. smaller than the grid
            pred["issues"].append(f"image {rel!r}: cannot score: {str(exc)[:80]}")
            return out
        out.update(r_v=rv, ok=rv >= IMAGE_OK)
    return out
