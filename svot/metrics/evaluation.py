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
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from svot.dataset.reader import TruthInstance, TruthSet, TruthStep, load_truth
from svot.domains import SPECS
from svot.errors import DatasetError, PredictionError
from svot.jsonl import iter_lines, loads
from svot.metrics.goal import answer_correct, extract_choice
from svot.metrics.objects import ObjectTotals, object_metrics
from svot.metrics.reasoning import (
    extract_keywords,
    field_group,
    reasoning_reward,
    visual_chain_fields,
    visual_reasoning_reward,
)
from svot.metrics.state import parse_action, state_fields, state_reward
from svot.metrics.visual import visual_reward
from svot.safe_paths import contained, open_image, read_image_file

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

SPLIT_ORDER = ("test_id", "test_ood", "val", "train")
SPLIT_LABELS = {"test_id": "ID", "test_ood": "OOD", "val": "val", "train": "train"}

FIELDS = ("choice", "answer", "z_texts", "cz_texts", "cv_texts", "images")
ALIASES = {
    "instance_id": "id",
    "letter": "choice",
    "free_response": "answer",
    "image_paths": "images",
}
#: Earlier key names: still read as the new key, with a note (issue 14: ``state_texts``
#: read like the data's ``state_text`` column, which is s_i, while the key wants z_i).
DEPRECATED = {
    "states": "z_texts",
    "state_texts": "z_texts",
    "reasoning": "cz_texts",
    "reasoning_texts": "cz_texts",
}


#: What each step key holds, for messages.
KEY_MEANINGS = {
    "z_texts": "z_i = the 'Action i: ...' line and the state, the data's z_text column",
    "cz_texts": "the state chain c_i^z, the data's reasoning column",
    "cv_texts": "the visualization chain c_i^v, the data's reasoning_visual column",
}


def _looks_visual(text: str) -> bool:
    """A c^v chain names cells that change ("(1, 0): the player arrives"), or says none does,
    and never says where the player is before the move (every c^z chain does)."""
    return bool(visual_chain_fields(text)) and "player_before" not in extract_keywords(text)


# --------------------------------------------------------------------------- predictions


@dataclass(frozen=True)
class Issue:
    """One problem in a predictions file; ``line`` is 1-based (None for API input without lines)."""

    line: int | None
    kind: str  # json | not_object | missing_id | unknown_id | duplicate_id | type | image | length | unknown_field | wrong_kind
    message: str
    id: str | None = None
    step: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line is not None else "record"
        if self.step is not None:
            where += f", step {self.step}"
        return f"{where}: {self.kind}: {self.message}"


def read_predictions(source) -> tuple[list[tuple[int, object]], list[Issue], Path | None]:
    """``([(line, record)], issues, base_dir)`` from a JSONL path or an iterable of dicts."""
    issues: list[Issue] = []
    records: list[tuple[int, object]] = []
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise PredictionError(f"no predictions file at {str(path)!r}")
        for lineno, text in iter_lines(path):
            if not text.strip():
                continue
            try:
                obj = loads(text)
            except ValueError as exc:
                issues.append(Issue(lineno, "json", f"not valid JSON ({str(exc)[:80]})"))
                continue
            records.append((lineno, obj))
        return records, issues, path.parent
    try:
        items = list(source)
    except TypeError:
        raise PredictionError(f"predictions must be a JSONL path or an iterable of dicts, got {type(source).__name__}") from None
    return [(i, obj) for i, obj in enumerate(items, 1)], issues, None


def _load_image(src, root: Path | None, what: str = "image") -> np.ndarray:
    """An image as RGB: PNG bytes, or a path read only under ``root`` (see :mod:`svot.safe_paths`).

    Paths of the data were checked when the data was read (``root=None``).
    Raises :class:`~svot.errors.DatasetError` naming the file.
    """
    if isinstance(src, (bytes, bytearray)):
        im = open_image(bytes(src), what=what)
    else:
        path = contained(root, src, what=f"{what} path") if root is not None else Path(src)
        im = read_image_file(path, what=what)
    with im:
        return np.asarray(im.convert("RGB"))


# --------------------------------------------------------------------------- statistics


@dataclass
class GroupStats:
    """Counts for one (domain, size, split)."""

    choice_n: int = 0
    choice_correct: int = 0
    choice_unreadable: int = 0
    answer_n: int = 0
    answer_correct: int = 0
    state_n: int = 0
    state_reward: float = 0.0
    state_fields: dict = field(default_factory=dict)  # field -> [correct, n]
    reasoning_n: int = 0
    reasoning_reward: float = 0.0
    reasoning_fields: dict = field(default_factory=dict)  # column -> [correct, n]
    visual_chain_n: int = 0
    visual_chain_reward: float = 0.0
    image_n: int = 0
    rv_sum: float = 0.0
    objects: ObjectTotals = field(default_factory=ObjectTotals)

    @property
    def c(self) -> float | None:
        return self.choice_correct / self.choice_n if self.choice_n else None

    @property
    def f(self) -> float | None:
        return self.answer_correct / self.answer_n if self.answer_n else None

    @property
    def r_z(self) -> float | None:
        return self.state_reward / self.state_n if self.state_n else None

    @property
    def r_c(self) -> float | None:
        return self.reasoning_reward / self.reasoning_n if self.reasoning_n else None

    @property
    def r_cv(self) -> float | None:
        """Mean r_c of the visualization chains c^v."""
        return self.visual_chain_reward / self.visual_chain_n if self.visual_chain_n else None

    @property
    def r_v(self) -> float | None:
        return self.rv_sum / self.image_n if self.image_n else None

    def to_dict(self) -> dict:
        o = self.objects
        return {
            "classification": {"n": self.choice_n, "correct": self.choice_correct, "accuracy": self.c, "no_letter": self.choice_unreadable},
            "free_response": {"n": self.answer_n, "correct": self.answer_correct, "accuracy": self.f},
            "state": {
                "n": self.state_n,
                "r_z": self.r_z,
                "fields": {k: {"correct": c, "n": n, "accuracy": c / n if n else None} for k, (c, n) in self.state_fields.items()},
            },
            "reasoning": {
                "n": self.reasoning_n,
                "r_c": self.r_c,
                "fields": {k: {"correct": c, "n": n, "accuracy": c / n if n else None} for k, (c, n) in self.reasoning_fields.items()},
            },
            "visual_reasoning": {"n": self.visual_chain_n, "r_c": self.r_cv},
            "images": {
                "n": self.image_n,
                "r_v": self.r_v,
                "fg_acc": o.fg_accuracy,
                "bkg_err": o.bg_error_rate,
                "full_acc": o.full_accuracy,
                "fg_cells": o.fg_cells,
                "fg_correct": o.fg_correct,
                "bg_cells": o.bg_cells,
                "bg_errors": o.bg_errors,
                "full": o.full,
            },
        }


def _domain_rank(d: str) -> tuple:
    """Tables list the domains in the registry's order (the paper's for the built-in ones, then domains
    registered later); domains not registered come last, by name."""
    order = list(SPECS)
    return (order.index(d) if d in order else len(order), d)


def _title(d: str) -> str:
    """A table heading: the domain's title (its name when it is not registered)."""
    return SPECS[d].title if d in SPECS else d


def _split_rank(s: str) -> tuple:
    return (SPLIT_ORDER.index(s) if s in SPLIT_ORDER else len(SPLIT_ORDER), s)


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def _table(header: list[list[str]], rows: list[list[str]], left: int = 1, span: int = 0) -> str:
    """Plain-text table: ``left`` leading columns left-aligned, the rest right-aligned.

    The first ``span`` header rows are section titles: each starts at its
    column and may run over the following (empty) columns without widening them.
    """
    allrows = header + rows
    ncol = max(len(r) for r in allrows)
    allrows = [r + [""] * (ncol - len(r)) for r in allrows]
    widths = [max(len(r[i]) for r in allrows[span:]) for i in range(ncol)]
    starts = [sum(widths[:i]) + 2 * i for i in range(ncol)]

    def fmt(r):
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

    def fmt_span(r):
        out = ""
        for i, c in enumerate(r):
            if c:
                out = out + " " * (max(starts[i], len(out) + 2 if out else 0) - len(out)) + c
        return out

    lines = [fmt_span(r) for r in allrows[:span]] + [fmt(r) for r in allrows[span : len(header)]]
    lines.append("  ".join("-" * w for w in widths))
    lines += [fmt(r) for r in allrows[len(header) :]]
    return "\n".join(lines)


@dataclass
class Report:
    """The result of :func:`evaluate`: statistics per (domain, size, split), the issues, the tables."""

    groups: dict  # (domain, size, split) -> GroupStats
    issues: list
    lines: int  # records read (non-blank lines)
    scored: int  # records matched to an instance
    data: str = ""
    predictions: str | None = None
    notes: list = field(default_factory=list)  # e.g. deprecated keys read under their new name

    # ------------------------------------------------------------------ views
    def issue_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in self.issues:
            out[i.kind] = out.get(i.kind, 0) + 1
        return dict(sorted(out.items()))

    def _keys(self) -> list[tuple]:
        return sorted(self.groups, key=lambda k: (_domain_rank(k[0]), k[1], _split_rank(k[2])))

    def _domains(self, pred) -> list[str]:
        return sorted({k[0] for k, g in self.groups.items() if pred(g)}, key=_domain_rank)

    def _splits(self, pred) -> list[str]:
        return sorted({k[2] for k, g in self.groups.items() if pred(g)}, key=_split_rank)

    def _pooled(self, domain: str, split: str, size: int | None = None) -> GroupStats | None:
        gs = [g for (d, n, s), g in self.groups.items() if d == domain and s == split and (size is None or n == size)]
        if not gs:
            return None
        out = GroupStats()
        for g in gs:
            out.image_n += g.image_n
            out.rv_sum += g.rv_sum
            out.objects.merge(g.objects)
        return out

    # ------------------------------------------------------------------ tables
    def table_goal(self) -> str | None:
        """Table 1 layout: rows = size; columns = domain x split x {C, F}; accuracy in %."""
        has = lambda g: g.choice_n or g.answer_n  # noqa: E731
        domains, splits = self._domains(has), self._splits(has)
        if not domains:
            return None
        sizes = sorted({k[1] for k, g in self.groups.items() if has(g)})
        h1, h2, h3 = [""], [""], ["Size"]
        for d in domains:
            for s in splits:
                h1 += [_title(d) if s == splits[0] else "", ""]
                h2 += [SPLIT_LABELS.get(s, s), ""]
                h3 += ["C", "F"]
        rows = []
        for n in sizes:
            r = [str(n)]
            for d in domains:
                for s in splits:
                    g = self.groups.get((d, n, s))
                    r += [_pct(g.c) if g else "-", _pct(g.f) if g else "-"]
            rows.append(r)
        title = "Table 1 layout: goal accuracy (%), classification (C) and free response (F)"
        return title + "\n" + _table([h1, h2, h3], rows, span=2)

    def table_steps(self) -> str | None:
        """Table 2 layout, one block per domain: per-field single-step accuracy (%) of c_i and z_i."""
        has = lambda g: g.state_n or g.reasoning_n or g.visual_chain_n  # noqa: E731
        blocks = []
        for d in self._domains(has):
            keys = [k for k in self._keys() if k[0] == d and has(self.groups[k])]
            cfields: list[str] = []
            zfields: list[str] = []
            for k in keys:
                for f in self.groups[k].reasoning_fields:
                    if f not in cfields:
                        cfields.append(f)
                for f in self.groups[k].state_fields:
                    if f not in zfields:
                        zfields.append(f)
            h1 = ["", ""] + (["Transition reasoning chain"] + [""] * (len(cfields) + 1) if cfields else [])
            h1 += ["Intermediate state"] + [""] * (len(zfields) + 1) if zfields else []
            vis = any(self.groups[k].visual_chain_n for k in keys)
            h1 += ["Visualization chain", ""] if vis else []
            h2 = ["Size", "Split"] + (["N"] + cfields + ["r_c"] if cfields else []) + (["N"] + zfields + ["r_z"] if zfields else [])
            h2 += ["N", "r_c(c^v)"] if vis else []
            rows = []
            for k in keys:
                g = self.groups[k]
                r = [str(k[1]), SPLIT_LABELS.get(k[2], k[2])]
                if cfields:
                    r += [str(g.reasoning_n)] + [_pct(_acc(g.reasoning_fields.get(f)), 2) for f in cfields] + [_num(g.r_c)]
                if zfields:
                    r += [str(g.state_n)] + [_pct(_acc(g.state_fields.get(f)), 2) for f in zfields] + [_num(g.r_z)]
                if vis:
                    r += [str(g.visual_chain_n), _num(g.r_cv)]
                rows.append(r)
            blocks.append(f"Table 2 layout: single-step accuracy (%) - {_title(d)}\n" + _table([h1, h2], rows, left=2, span=1))
        if not blocks:
            return None
        note = (
            "(N: steps scored; a field column counts the steps whose ground truth has that field, e.g. blocked_by "
            "only blocked moves; r_c, r_z: mean rewards, Eq. 6)"
        )
        return "\n\n".join(blocks) + "\n" + note

    def table_visual(self) -> str | None:
        """Table 3 layout (Table 6 per size): mean r_v; rows = split, columns = domain sizes and all sizes."""
        has = lambda g: g.image_n  # noqa: E731
        domains, splits = self._domains(has), self._splits(has)
        if not domains:
            return None
        cols = []
        for d in domains:
            sizes = sorted({k[1] for k, g in self.groups.items() if k[0] == d and has(g)})
            cols += [(d, n) for n in sizes] + ([(d, None)] if len(sizes) > 1 else [])
        h1 = ["Split"] + [_title(d) if i == 0 or cols[i - 1][0] != d else "" for i, (d, _n) in enumerate(cols)]
        h2 = [""] + [str(n) if n is not None else "all" for _d, n in cols]
        rows = []
        for s in splits:
            r = [SPLIT_LABELS.get(s, s)]
            for d, n in cols:
                g = self._pooled(d, s, n)
                r.append(_num(g.r_v) if g else "-")
            rows.append(r)
        return "Table 3 layout: mean visual reward r_v\n" + _table([h1, h2], rows)

    def table_objects(self) -> str | None:
        """Table 7 layout: FGAcc / BkgErr / FullAcc (%); rows = split x metric, columns = domain x size."""
        has = lambda g: g.objects.images  # noqa: E731
        domains, splits = self._domains(has), self._splits(has)
        if not domains:
            return None
        cols = [(d, n) for d in domains for n in sorted({k[1] for k, g in self.groups.items() if k[0] == d and has(g)})]
        h1 = ["Split", "Metric"] + [_title(d) if i == 0 or cols[i - 1][0] != d else "" for i, (d, _n) in enumerate(cols)]
        h2 = ["", ""] + [str(n) for _d, n in cols]
        rows = []
        for s in splits:
            for name, get in (
                ("FGAcc", lambda o: o.fg_accuracy),
                ("BkgErr", lambda o: o.bg_error_rate),
                ("FullAcc", lambda o: o.full_accuracy),
            ):
                r = [SPLIT_LABELS.get(s, s) if name == "FGAcc" else "", name]
                for d, n in cols:
                    g = self.groups.get((d, n, s))
                    r.append(_pct(get(g.objects), 2) if g and g.objects.images else "-")
                rows.append(r)
        return "Table 7 layout: object-level image correctness (%)\n" + _table([h1, h2], rows, left=2)

    def table_coverage(self) -> str:
        """How many predictions each table scored, per dataset and split."""
        rows = []
        for k in self._keys():
            g = self.groups[k]
            rows.append(
                [f"{k[0]}-{k[1]}x{k[1]}", k[2], str(g.choice_n), str(g.choice_unreadable), str(g.answer_n), str(g.reasoning_n), str(g.state_n), str(g.image_n)]
            )
        head = [["dataset", "split", "C", "no letter", "F", "c_i steps", "z_i steps", "images"]]
        return "Scored predictions\n" + _table(head, rows, left=2)

    def tables(self, max_issues: int = 20) -> str:
        parts = [
            f"svot evaluate: {self.scored} of {self.lines} prediction records matched an instance"
            + (f" ({self.predictions})" if self.predictions else "")
        ]
        for t in (self.table_goal(), self.table_steps(), self.table_visual(), self.table_objects()):
            if t:
                parts.append(t)
        if self.groups:
            parts.append(self.table_coverage())
        if self.issues:
            counts = ", ".join(f"{k} {v}" for k, v in self.issue_counts().items())
            lines = [f"Issues: {len(self.issues)} ({counts})"]
            lines += [f"  {i}" for i in self.issues[: max(0, max_issues)]]
            if len(self.issues) > max_issues:
                lines.append(f"  ... {len(self.issues) - max_issues} more (see --json)")
            parts.append("\n".join(lines))
        else:
            parts.append("Issues: none")
        if self.notes:
            parts.append("Notes:\n" + "\n".join(f"  {n}" for n in self.notes))
        return "\n\n".join(parts)

    def to_dict(self) -> dict:
        return {
            "data": self.data,
            "predictions": self.predictions,
            "records": self.lines,
            "scored": self.scored,
            "groups": [
                {"domain": d, "size": n, "split": s, **self.groups[(d, n, s)].to_dict()} for d, n, s in self._keys()
            ],
            "issue_counts": self.issue_counts(),
            "notes": list(self.notes),
            "issues": [
                {"line": i.line, "kind": i.kind, "message": i.message, "id": i.id, "step": i.step} for i in self.issues
            ],
        }


def _acc(pair) -> float | None:
    if not pair or not pair[1]:
        return None
    return pair[0] / pair[1]


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
                    pred = _load_image(path, self.base, "predicted image")
                except DatasetError as exc:  # outside the root, missing, not a regular file, not an image, too large
                    self.issue(line, "image", f"cannot read image {path[:200]!r}: {str(exc)[:600]}", inst.id, step.index)
                    continue
                if step.image is None:
                    self.issue(line, "image", "the data holds no image for this step; not scored", inst.id, step.index)
                    continue
                truth_img = _load_image(step.image, None, "data image")  # a broken export is an error, not an issue
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
