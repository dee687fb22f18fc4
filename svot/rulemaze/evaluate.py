"""Scoring predictions on an exported RuleMaze split: EM / PR per group, in the paper's Table 2 layout.

Ground truth comes from an export (:mod:`.dataset`): a Parquet file, a
ShareGPT JSON file, a scenario directory or the export root (every
``*/test.parquet``, else every ``*/sharegpt/test.json``).

Predictions are JSON lines, one per item: ``{"id": ..., "actions": [...]}``,
where the answer may also be given as ``"moves"``, ``"prediction"``, ``"answer"``,
``"response"`` or ``"output"``, as a list of moves or as text (``"up, right"``,
``"['up', 'right']"``, or a whole response ending in ``Final answer: up, right``:
the text after the last ``answer:`` label is read).

LLaMA-Factory's predict mode writes ``generated_predictions.jsonl``: one
``{"prompt", "predict", "label"}`` line per item of the file it generated from
(e.g. ``sharegpt/test_predict.json``), in that file's order and without ids.
Such lines are matched to the items by position when the data is one file;
each line's ``label`` must then hold that item's ground truth (else
:class:`PredictionError`: the predictions come from another file or order).
A line cut short (or any line that is not a JSON object) is *malformed* and keeps its
place, so the lines after it still meet their items. A UTF-8 byte-order mark at the start of
the file is skipped. Lines that are not JSON
objects with an id and an answer are *malformed*; ids not in the data are
*unknown*; a repeated id keeps its first line (*duplicates*). All are counted
and listed, never fatal. An item without a readable prediction scores 0
(:func:`svot.rulemaze.metrics.score` counts it as malformed).

EM follows the text of the paper (the prediction equals the ground truth;
``strict=False`` gives the literal Eq. 2); PR is Eq. 3. ``Avg.`` is the mean
of the three unseen groups, as in Table 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from svot.errors import DatasetError, PredictionError
from svot.metrics.predictions import read_prediction_lines
from svot.rulemaze import symbols as S
from svot.rulemaze.metrics import Scores, parse_actions, score
from svot.rulemaze.dataset import find_test_splits, read_rows

TRUTH_COLUMNS = ("id", "scenario", "group", "ground_truth")  # what scoring reads of a Parquet split

TEST_GROUPS = ("seen", "unseen-easy", "unseen-medium", "unseen-hard")
_ORDER = S.SCENARIOS
ANSWER_KEYS = ("actions", "moves", "prediction", "answer", "response", "output", "predict")
_LABEL = re.compile(r"answer\s*[:=]", re.IGNORECASE)


@dataclass(frozen=True)
class Truth:
    id: str
    scenario: str
    group: str
    actions: tuple[str, ...]


@dataclass
class Predictions:
    by_id: dict = field(default_factory=dict)
    malformed: list = field(default_factory=list)  # (line number, reason)
    duplicates: list = field(default_factory=list)  # (line number, id)
    positional: list = field(default_factory=list)  # (line number, position, answer, label answer): no id
    lines: int = 0


def load_truth(data) -> dict[str, Truth]:
    """Ground truth by item id, from an export (see the module docstring)."""
    out: dict[str, Truth] = {}
    for path in find_test_splits(data):
        for i, row in enumerate(read_rows(path, TRUTH_COLUMNS) if path.suffix == ".parquet" else read_rows(path)):
            try:
                t = Truth(str(row["id"]), str(row["scenario"]), str(row["group"]),
                          tuple(str(a) for a in row["ground_truth"]))
            except (KeyError, TypeError):
                raise DatasetError(f"{path}: item #{i} lacks id, scenario, group or ground_truth") from None
            if t.id in out:
                raise DatasetError(f"{path}: item id {t.id!r} appears twice in the data")
            out[t.id] = t
    return out


def answer_of(record: dict):
    """The answer field of a prediction record (None when there is none)."""
    for key in ANSWER_KEYS:
        if key in record and record[key] is not None:
            value = record[key]
            if isinstance(value, str):
                labels = list(_LABEL.finditer(value))
                if labels:
                    value = value[labels[-1].end():]
            return value
    return None


def read_predictions(path) -> Predictions:
    """Prediction lines (see the module docstring), read by
    :func:`svot.metrics.predictions.read_prediction_lines` as ``svot evaluate`` reads them;
    never raises on a bad line."""
    read = read_prediction_lines(Path(path))
    preds = Predictions(lines=read.lines)
    preds.malformed = [(i.line, i.message) for i in read.issues]
    for no, position, rec in read.records:
        if not isinstance(rec, dict):
            preds.malformed.append((no, "not a JSON object"))
            continue
        pid = rec.get("id", rec.get("item_id"))
        if pid is None and "predict" in rec:  # LLaMA-Factory's generated_predictions.jsonl: matched by position
            preds.positional.append((no, position, answer_of(rec), answer_of({"answer": rec.get("label")})))
            continue
        if not isinstance(pid, str) or not pid:
            preds.malformed.append((no, "no string 'id'"))
            continue
        ans = answer_of(rec)
        if ans is None:
            preds.malformed.append((no, f"no answer (one of {', '.join(ANSWER_KEYS)})"))
            continue
        if pid in preds.by_id:
            preds.duplicates.append((no, pid))
            continue
        preds.by_id[pid] = ans
    preds.malformed.sort()
    return preds


@dataclass
class Report:
    """Scores per scenario and group, and the bookkeeping of the predictions file."""

    scores: dict  # scenario -> group -> Scores
    unseen_avg: dict  # scenario -> (EM, PR) mean over the unseen groups present
    missing: dict  # scenario -> count of items without a usable prediction line
    unknown: list
    malformed: list
    duplicates: list
    lines: int
    matched: int = 0  # prediction ids that name an item of the data

    def as_dict(self) -> dict:
        return {
            "scores": {sc: {g: {"EM": s.em * 100, "PR": s.pr * 100, "n": s.n, "unreadable": s.malformed}
                            for g, s in gs.items()} for sc, gs in self.scores.items()},
            "unseen_average": {sc: {"EM": em * 100, "PR": pr * 100} for sc, (em, pr) in self.unseen_avg.items()},
            "missing": self.missing,
            "unknown_ids": self.unknown,
            "malformed_lines": [{"line": n, "reason": r} for n, r in self.malformed],
            "duplicate_lines": [{"line": n, "id": i} for n, i in self.duplicates],
            "lines": self.lines,
        }


def evaluate(data, predictions, *, strict: bool = True) -> Report:
    """Score a predictions file against an export's ground truth."""
    truth = load_truth(data)
    preds = read_predictions(predictions)
    if preds.positional:
        _match_by_position(data, truth, preds)
    buckets: dict = {}
    missing: dict = {}
    for t in truth.values():
        p = preds.by_id.get(t.id)
        if p is None:
            missing[t.scenario] = missing.get(t.scenario, 0) + 1
        b = buckets.setdefault(t.scenario, {}).setdefault(t.group, ([], []))
        b[0].append(p)
        b[1].append(t.actions)
    scores: dict = {}
    avg: dict = {}
    for sc in sorted(buckets, key=lambda x: (x not in _ORDER, _ORDER.index(x) if x in _ORDER else 0, x)):
        groups = buckets[sc]
        order = [g for g in TEST_GROUPS if g in groups] + sorted(g for g in groups if g not in TEST_GROUPS)
        scores[sc] = {g: score(groups[g][0], groups[g][1], strict=strict) for g in order}
        unseen = [scores[sc][g] for g in TEST_GROUPS[1:] if g in scores[sc]]
        if unseen:
            avg[sc] = (sum(s.em for s in unseen) / len(unseen), sum(s.pr for s in unseen) / len(unseen))
    unknown = sorted(set(preds.by_id) - set(truth))
    matched = len(set(preds.by_id) & set(truth))
    return Report(scores, avg, missing, unknown, preds.malformed, preds.duplicates, preds.lines, matched)


def _match_by_position(data, truth: dict, preds: Predictions) -> None:
    """Give id-less lines (LLaMA-Factory predict output) the ids of the data file's items: the
    k-th non-blank line of the file is item k. A line cut short or not an object stays malformed
    and keeps its place, so the lines after it still meet their own items (issue 48, class 5)."""
    files = find_test_splits(data)
    if len(files) != 1:
        raise PredictionError(
            f"{len(preds.positional)} prediction lines have no id (LLaMA-Factory's generated_predictions.jsonl); "
            f"pass --data the one file they were generated from (e.g. <scenario>/sharegpt/test_predict.json), "
            f"not {len(files)} files")
    ids = list(truth)
    if preds.lines != len(ids):
        raise PredictionError(f"{preds.lines} prediction lines ({len(preds.positional)} without id) for "
                              f"{len(ids)} items in {files[0]}: lines without id are matched by position, "
                              f"so the file must hold one line per item")
    for no, position, answer, label in preds.positional:
        tid = ids[position]
        if label is not None and tuple(parse_actions(label) or ()) != truth[tid].actions:
            raise PredictionError(
                f"prediction line {no}: its label ({str(label).strip()[:60]!r}) is not the ground truth of item "
                f"{tid}; the predictions were generated from another file or order than {files[0]}")
        if tid in preds.by_id:
            preds.duplicates.append((no, tid))
        elif answer is None:
            preds.malformed.append((no, "no answer in 'predict'"))
        else:
            preds.by_id[tid] = answer


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def format_table(report: Report) -> str:
    """Table 2's layout: Seen Rule | Unseen Easy, Medium, Hard, Avg. -- EM (%) and PR (%) each."""
    cols = [("Seen Rule", "seen"), ("Easy", "unseen-easy"), ("Medium", "unseen-medium"),
            ("Hard", "unseen-hard"), ("Avg.", None)]
    w = 14
    head1 = "".ljust(w) + "Seen Rule".rjust(14) + "  | " + "Unseen Rule".center(4 * 16 - 4)
    head2 = "Scenario".ljust(w) + "".ljust(16) + "".join(name.rjust(14) + "  " for name, _ in cols[1:])
    head3 = "".ljust(w) + "   EM (%) PR (%)" * len(cols)
    lines = [head1.rstrip(), head2.rstrip(), head3, "-" * (w + 16 * len(cols))]
    for sc, groups in report.scores.items():
        cells = []
        for _, g in cols:
            if g is None:
                em_pr = report.unseen_avg.get(sc)
                cells.append(f"{_pct(em_pr[0]):>9}{_pct(em_pr[1]):>7}" if em_pr else f"{'-':>9}{'-':>7}")
            elif g in groups:
                s: Scores = groups[g]
                cells.append(f"{_pct(s.em):>9}{_pct(s.pr):>7}")
            else:
                cells.append(f"{'-':>9}{'-':>7}")
        lines.append(sc.ljust(w) + "".join(cells))
        n = ", ".join(f"{g}={s.n}" for g, s in groups.items())
        bad = sum(s.malformed for s in groups.values())
        lines.append("".ljust(w) + f"items: {n}; unreadable or missing predictions: {bad} "
                                   f"(missing: {report.missing.get(sc, 0)})")
    lines.append(f"prediction lines: {report.lines}; malformed: {len(report.malformed)}; "
                 f"unknown ids: {len(report.unknown)}; duplicates: {len(report.duplicates)}")
    for no, reason in report.malformed[:10]:
        lines.append(f"  malformed line {no}: {reason}")
    if len(report.malformed) > 10:
        lines.append(f"  ... and {len(report.malformed) - 10} more malformed lines")
    if report.unknown:
        shown = ", ".join(report.unknown[:10]) + (" ..." if len(report.unknown) > 10 else "")
        lines.append(f"  unknown ids: {shown}")
    for no, pid in report.duplicates[:10]:
        lines.append(f"  duplicate line {no}: id {pid} (the first line counts)")
    return "\n".join(lines)
