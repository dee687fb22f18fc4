"""Scoring a model's predictions against exported SVoT data: the paper's Tables 1, 2, 3 and 7.

``svot evaluate --data data/ --predictions preds.jsonl [--json out.json]`` and
its Python twin :func:`evaluate`.

**Ground truth** is read from an export (``svot export``): every
``<dataset>/<split>.parquet`` (Parquet) or ``<dataset>/<split>/metadata.jsonl``
(ImageFolder) under ``data``, in the instances view (one row per instance) or
the predictions view (one row per prediction, regrouped by ``instance_id``).
Only the files that hold a predicted id are loaded; an id present in two
files is taken from the first (paths in sorted order). The reading is
:mod:`svot.dataset.reader`'s (:func:`load_truth` and its types are re-exported here).

**Predictions** are JSON Lines, one object per instance::

    {"id": "<domain>-5x5-test_id-000-0",
     "choice": "The answer is (B)",                  # classification: a letter in free text
     "answer": "Player: (2, 1); blocks: (2, 2)",      # free response (the dataset's answer format)
     "z_texts": ["Action 1: move down\\nPlayer: (1, 0)\\n...", ...],  # z_i = <a_i, s_i> per step (the data's z_text)
     "cz_texts": ["The player is at (0, 0) and ...", ...],          # c_i^z per step (the data's reasoning)
     "cv_texts": ["Drawing the image after action 1 ...", ...],     # c_i^v per step (the data's reasoning_visual)
     "images": ["imgs/000-0-1.png", ...]}                           # v_i per step, relative to the file

Every key but ``id`` is optional (aliases: ``instance_id``, ``letter``,
``free_response``, ``image_paths``). Each step key is named after the data
column it mirrors: ``z_texts`` holds z_i (the ``Action i: ...`` line *and* the
state), not the bare state description s_i (the data's ``state_text``).
Earlier names still read, with a note in the report: ``states`` and
``state_texts`` as ``z_texts``, ``reasoning`` and ``reasoning_texts`` as
``cz_texts``. A step entry of the wrong kind (a ``z_texts`` entry without an
``Action`` line, a c^v chain under ``cz_texts`` or a c^z chain under
``cv_texts``) is reported as a ``wrong_kind`` issue, once per record, and
still scored as given.
Step lists are aligned with the instance's steps (entry ``i`` is step
``i + 1``); ``null`` skips a step. Each table covers what was given and shows
how many predictions it scored (``N``).

**Robustness.** Nothing in a predictions file is fatal. A line that is not
JSON, not an object, has no id or an unknown or repeated id, a field of the
wrong type, a step entry of the wrong type, an image path that cannot be
read or decoded, a step list of the wrong length, or an unknown key is
counted and listed with its line number (:class:`Issue`); what remains valid
on that line is still scored, and the broken part is left out of the tables
(extra steps are ignored; missing, skipped and broken steps are not scored).
A choice without a readable letter or an answer that does not parse is *not*
an issue: it is a wrong answer.

**Metrics.** C: :func:`~svot.metrics.goal.extract_choice` equals the correct
letter; F: :func:`~svot.metrics.goal.answer_correct` (every goal field
exact). Table 2: per state field (:data:`~svot.metrics.state.STATE_FIELDS`)
and per reasoning keyword column (:func:`~svot.metrics.reasoning.field_group`)
the fraction of steps right, with mean ``r_z`` and ``r_c``. Table 3: mean
``r_v`` (paper defaults). Table 7: FGAcc, BkgErr (cells pooled over images)
and FullAcc (per image), :mod:`svot.metrics.objects`.
"""
from __future__ import annotations

import math
import os
from pathlib import Path

from svot.dataset.reader import TruthInstance, TruthSet, TruthStep, load_truth
from svot.errors import DatasetError
from svot.metrics.goal import answer_correct, extract_choice
from svot.metrics.objects import object_metrics
from svot.metrics.predictions import ALIASES, DEPRECATED, FIELDS, KEY_MEANINGS, Issue, load_image, read_predictions
from svot.metrics.reasoning import (
    extract_keywords,
    field_group,
    reasoning_reward,
    visual_chain_fields,
    visual_reasoning_reward,
)
from svot.metrics.report import GroupStats, Report
from svot.metrics.state import parse_action, state_fields, state_reward
from svot.metrics.visual import visual_reward


__all__ = [
    "GroupStats",
    "Issue",
    "Report",
    "TruthInstance",
    "TruthSet",
    "TruthStep",
    "evaluate",
    "load_truth",
    "read_predictions",
]


def _looks_visual(text: str) -> bool:
    """A c^v chain names cells that change ("(1, 0): the player arrives"), or says none does,
    and never says where the player is before the move (every c^z chain does)."""
    return bool(visual_chain_fields(text)) and "player_before" not in extract_keywords(text)


# --------------------------------------------------------------------------- scoring


class _Scorer:
    def __init__(self, truth: TruthSet, base: Path | None):
        self.truth = truth
        self.base = base
        self.groups: dict[tuple, GroupStats] = {}
        self.issues: list[Issue] = []
        self.seen: set[str] = set()
        self.scored = 0
        self.notes: list[str] = []
        self._noted: set[str] = set()
        self._given: dict[str, str] = {}

    def issue(self, line, kind, message, id=None, step=None) -> None:
        self.issues.append(Issue(line, kind, message, id, step))

    def record(self, line: int, obj) -> None:
        if not isinstance(obj, dict):
            self.issue(line, "not_object", f"expected a JSON object, got {type(obj).__name__}")
            return
        rec: dict = {}
        unknown = []
        self._given = {}  # field -> the key as the record wrote it (for messages)
        for k, v in obj.items():
            key = ALIASES.get(k, k)
            if k in DEPRECATED:
                key = DEPRECATED[k]
                if k not in self._noted:
                    self._noted.add(k)
                    self.notes.append(
                        f"key {k!r} is deprecated: read as {key!r} ({KEY_MEANINGS[key]}); rename it (first seen on line {line})"
                    )
            if key == "id" or key in FIELDS:
                if key in rec:
                    self.issue(line, "unknown_field", f"{k!r} repeats field {key!r}; the first is used")
                    continue
                rec[key] = v
                self._given[key] = k
            else:
                unknown.append(k)
        iid = rec.get("id")
        if not isinstance(iid, str) or not iid:
            self.issue(line, "missing_id", "no instance id (a string under 'id')" if iid is None else f"the id must be a string, got {type(iid).__name__}")
            return
        if unknown:
            self.issue(line, "unknown_field", f"ignored unknown key(s) {', '.join(map(repr, sorted(unknown)))}; known: id, {', '.join(FIELDS)}" + (" (the step keys mirror the data columns z_text, reasoning, reasoning_visual)" if any(u in ("state_text", "z_text", "z", "cv", "cz", "visual_reasoning", "reasoning_visual") for u in unknown) else ""), iid)
        if iid not in self.truth:
            self.issue(line, "unknown_id", f"no instance {iid!r} in the data", iid)
            return
        if iid in self.seen:
            self.issue(line, "duplicate_id", f"instance {iid!r} was already predicted; this line is ignored", iid)
            return
        self.seen.add(iid)
        self.scored += 1
        inst = self.truth[iid]
        g = self.groups.setdefault(inst.key, GroupStats())
        self._goal(line, rec, inst, g)
        self._steps(line, rec, inst, g)

    def _goal(self, line, rec, inst: TruthInstance, g: GroupStats) -> None:
        if rec.get("choice") is not None:
            v = rec["choice"]
            if not isinstance(v, str):
                self.issue(line, "type", f"'choice' must be a string (a letter or a text naming one), got {type(v).__name__}", inst.id)
            else:
                letter = extract_choice(v, inst.choices, domain=inst.domain)
                g.choice_n += 1
                g.choice_unreadable += letter is None
                g.choice_correct += letter == inst.correct
        if rec.get("answer") is not None:
            v = rec["answer"]
            if not isinstance(v, str):
                self.issue(line, "type", f"'answer' must be a string, got {type(v).__name__}", inst.id)
            else:
                g.answer_n += 1
                g.answer_correct += answer_correct(inst.domain, v, inst.goal)

    def _step_list(self, line, rec, field_name: str, inst: TruthInstance):
        v = rec.get(field_name)
        name = self._given.get(field_name, field_name)
        if v is None:
            return []
        if not isinstance(v, list):
            self.issue(line, "type", f"'{name}' must be a list with one entry per step, got {type(v).__name__}", inst.id)
            return []
        n = len(inst.steps)
        if len(v) != n:
            extra = "the extra ones are ignored" if len(v) > n else "the missing ones are not scored"
            self.issue(line, "length", f"'{name}' has {len(v)} entries for {n} steps; {extra}", inst.id)
        out = []
        for i, (entry, step) in enumerate(zip(v, inst.steps)):
            if entry is None:
                continue
            if not isinstance(entry, str):
                self.issue(line, "type", f"'{name}'[{i}] must be a string or null, got {type(entry).__name__}", inst.id, step.index)
                continue
            out.append((entry, step))
        return out

    def _steps(self, line, rec, inst: TruthInstance, g: GroupStats) -> None:
        fields = state_fields(inst.domain)
        wrong: dict[str, str] = {}
        for text, step in self._step_list(line, rec, "z_texts", inst):
            if step.action is not None and parse_action(text) is None and "z_texts" not in wrong:
                wrong["z_texts"] = (
                    f"'z_texts' entry for step {step.index} has no 'Action {step.index}: <move>' line: it reads like the "
                    "state description s_i (the data's state_text column), but z_texts wants z_i = <a_i, s_i> (the data's "
                    "z_text column), so its action field scores 0"
                )
            fs = fields if step.action is not None else tuple(f for f in fields if f != "action")
            s = state_reward(text, step.state, action=step.action, domain=inst.domain, fields=fs)
            g.state_n += 1
            g.state_reward += s.reward
            for f, ok in s.matches.items():
                c = g.state_fields.setdefault(f, [0, 0])
                c[0] += ok
                c[1] += 1
        for text, step in self._step_list(line, rec, "cz_texts", inst):
            if not step.keywords:
                self.issue(line, "length", "the data has no reasoning keywords for this step; not scored", inst.id, step.index)
                continue
            if _looks_visual(text) and "cz_texts" not in wrong:
                wrong["cz_texts"] = (
                    f"'cz_texts' entry for step {step.index} reads like a visualization chain c^v (the data's "
                    "reasoning_visual column); c^v chains go under 'cv_texts'"
                )
            r = reasoning_reward(text, step.keywords)
            g.reasoning_n += 1
            g.reasoning_reward += r.reward
            grouped: dict[str, bool] = {}
            for f, ok in r.matches.items():
                col = field_group(f)
                grouped[col] = grouped.get(col, True) and ok
            for col, ok in grouped.items():
                c = g.reasoning_fields.setdefault(col, [0, 0])
                c[0] += ok
                c[1] += 1
        for text, step in self._step_list(line, rec, "cv_texts", inst):
            if not step.visual_chain:
                self.issue(line, "length", "the data has no visualization chain for this step; not scored", inst.id, step.index)
                continue
            if not _looks_visual(text) and "player_before" in extract_keywords(text) and "cv_texts" not in wrong:  # a c^z chain
                wrong["cv_texts"] = (
                    f"'cv_texts' entry for step {step.index} reads like a state chain c^z (the data's reasoning "
                    "column); c^z chains go under 'cz_texts'"
                )
            g.visual_chain_n += 1
            g.visual_chain_reward += visual_reasoning_reward(text, step.visual_chain).reward
        for msg in wrong.values():
            self.issue(line, "wrong_kind", msg, inst.id)
        images = self._step_list(line, rec, "images", inst)
        if images:
            for path, step in images:
                try:
                    pred = load_image(path, self.base, "predicted image")
                except DatasetError as exc:  # outside the root, missing, not a regular file, not an image, too large
                    self.issue(line, "image", f"cannot read image {path[:200]!r}: {str(exc)[:600]}", inst.id, step.index)
                    continue
                if step.image is None:
                    self.issue(line, "image", "the data holds no image for this step; not scored", inst.id, step.index)
                    continue
                truth_img = load_image(step.image, None, "data image")  # a broken export is an error, not an issue
                try:
                    rv = visual_reward(pred, truth_img, inst.size).r_v
                    obj = object_metrics(pred, step.labels, inst.domain, image_size=truth_img.shape[:2])
                except Exception as exc:  # noqa: BLE001 - e.g. an image smaller than the grid
                    self.issue(line, "image", f"cannot score image {path!r}: {str(exc)[:100]}", inst.id, step.index)
                    continue
                g.image_n += 1
                g.rv_sum += rv
                g.objects.add(obj)


def evaluate(data, predictions, *, base_dir=None, images_root=None) -> Report:
    """Score ``predictions`` (a JSONL path, or an iterable of dicts) against the export under ``data``.

    ``data`` may also be a :class:`TruthSet` (from :func:`load_truth`) to score
    several prediction sets without reloading. ``base_dir``: where relative
    image paths start for an iterable of dicts (default: the current
    directory; for a file, the file's directory). Image paths are read only
    under that directory, or under ``images_root`` when it is given: a path
    that leads out (``..``, absolute elsewhere, a symbolic link), a file that
    is not regular (a FIFO, a device) or an image over
    :data:`svot.safe_paths.MAX_IMAGE_PIXELS` is an ``image`` issue, the same
    one whether or not such a file exists. Returns a :class:`Report`; raises
    only when the data or the predictions file cannot be found or read.
    """
    records, issues, base = read_predictions(predictions)
    if base_dir is not None:
        base = Path(base_dir)
    if images_root is not None:
        base = Path(images_root)
    if base is None:
        base = Path.cwd()
    if isinstance(data, TruthSet):
        truth = data
        data_name = ", ".join(truth.sources)
    else:
        ids = [obj.get("id", obj.get("instance_id")) for _l, obj in records if isinstance(obj, dict)]
        truth = load_truth(data, {i for i in ids if isinstance(i, str)})  # an id may be any JSON value
        data_name = str(data)
    scorer = _Scorer(truth, base)
    scorer.issues = list(issues)
    for line, obj in records:
        scorer.record(line, obj)
    scorer.issues.sort(key=lambda i: (math.inf if i.line is None else i.line, i.step or 0))
    return Report(
        notes=scorer.notes,
        groups=scorer.groups,
        issues=scorer.issues,
        lines=len(records) + sum(1 for i in issues if i.kind == "json"),
        scored=scorer.scored,
        data=data_name,
        predictions=str(predictions) if isinstance(predictions, (str, os.PathLike)) else None,
    )
