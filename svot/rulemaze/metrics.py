"""Exact Match (EM) and Precision Rate (PR), RuleMaze paper Eq. 2-3.

For a sample with ground truth ``v_1..v_n`` and prediction ``v̂``:

* Eq. 3, ``PR = (1/n) * sum_{j=1..n} prod_{k<=j} [v̂_k == v_k]``: the length of
  the longest correct *prefix* (capped at ``n``) divided by ``n``; one wrong
  step zeroes every later step, even if they happen to agree again.
* Eq. 2 as printed, ``EM = prod_{j=1..n} [v̂_j == v_j]``, only looks at the
  first ``n`` predicted steps, while the text says EM "measures whether the
  complete trajectory exactly matches". We follow the text by default
  (``strict=True``: the prediction must equal the ground truth, no extra
  moves); ``strict=False`` gives the literal Eq. 2 (extra trailing moves are
  ignored). A prediction shorter than ``n`` fails either way (a missing step
  is not equal).

Predictions may be action lists or free text; :func:`parse_actions` reads
them leniently but never guesses: anything that is not a clean sequence of
up/down/left/right is *malformed*, scores 0 on both metrics and is counted,
never raised.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from svot.rulemaze import symbols as S

_SPLIT = re.compile(r"[\s,;|>\-→]+")
_STRIP = "[](){}'\"`."


def parse_actions(prediction) -> list[str] | None:
    """The action list in ``prediction``, or None when it is malformed.

    Accepted: a list/tuple of direction strings; a JSON list of them; or text
    such as ``"up, right, down"``, ``"up -> right"``, ``"['up', 'right']"``,
    optionally after an ``Answer:`` / ``Actions:`` label. Case is ignored.
    An empty list (``[]``) is a valid, empty answer; empty text is malformed.
    """
    if prediction is None:
        return None
    if isinstance(prediction, (list, tuple)):
        items = list(prediction)
    elif isinstance(prediction, str):
        text = prediction.strip()
        if not text:
            return None
        text = re.sub(r"^\s*(final\s+)?(answer|actions?|moves?|path|plan)\s*[:=]\s*", "", text,
                      flags=re.IGNORECASE)
        try:
            loaded = json.loads(text)
        except (ValueError, RecursionError):
            loaded = None
        if isinstance(loaded, list):
            items = loaded
        else:
            items = [tok.strip(_STRIP) for tok in _SPLIT.split(text.strip(_STRIP + " \n"))]
            items = [tok for tok in items if tok]
            if not items:  # only punctuation: not an answer ("[]" was handled as JSON)
                return None
    else:
        return None
    out = []
    for item in items:
        if not isinstance(item, str):
            return None
        word = item.strip().strip(_STRIP).lower()
        if word not in S.DIRECTIONS:
            return None
        out.append(word)
    return out


def correct_prefix(predicted: Sequence[str], truth: Sequence[str]) -> int:
    """Number of leading steps where the prediction equals the ground truth."""
    k = 0
    for p, g in zip(predicted, truth):
        if p != g:
            break
        k += 1
    return k


def exact_match(predicted: Sequence[str], truth: Sequence[str], *, strict: bool = True) -> float:
    """EM of one sample (1.0 or 0.0), see the module docstring for ``strict``."""
    predicted, truth = list(predicted), list(truth)
    if strict:
        return 1.0 if predicted == truth else 0.0
    return 1.0 if correct_prefix(predicted, truth) == len(truth) else 0.0


def precision_rate(predicted: Sequence[str], truth: Sequence[str]) -> float:
    """PR of one sample (Eq. 3). An empty ground truth scores 1 only for an empty prediction."""
    truth = list(truth)
    if not truth:
        return 1.0 if len(predicted) == 0 else 0.0
    return correct_prefix(predicted, truth) / len(truth)


@dataclass(frozen=True)
class Scores:
    """Mean EM and PR (fractions in [0, 1]) over ``n`` samples, ``malformed`` of which
    could not be read (scored 0)."""

    em: float
    pr: float
    n: int
    malformed: int

    def as_percent(self) -> dict:
        return {"EM": round(100 * self.em, 1), "PR": round(100 * self.pr, 1), "n": self.n,
                "malformed": self.malformed}


def score(predictions: Iterable, truths: Iterable[Sequence[str]], *, strict: bool = True) -> Scores:
    """EM/PR averaged over paired predictions and ground truths.

    Predictions are parsed with :func:`parse_actions`; malformed ones (and
    ``None`` for a missing prediction) count as 0 and in ``malformed``.
    """
    predictions, truths = list(predictions), [list(t) for t in truths]
    if len(predictions) != len(truths):
        raise ValueError(f"{len(predictions)} predictions for {len(truths)} ground truths")
    em = pr = 0.0
    bad = 0
    for raw, truth in zip(predictions, truths):
        pred = parse_actions(raw)
        if pred is None:
            bad += 1
            continue
        em += exact_match(pred, truth, strict=strict)
        pr += precision_rate(pred, truth)
    n = len(truths)
    return Scores(em / n if n else 0.0, pr / n if n else 0.0, n, bad)


def score_by_group(predictions: Iterable, truths: Iterable[Sequence[str]], groups: Iterable[str],
                   *, strict: bool = True) -> dict[str, Scores]:
    """:func:`score` per group label (e.g. ``seen``, ``unseen-easy``), groups in first-seen order."""
    buckets: dict[str, tuple[list, list]] = {}
    for p, t, g in zip(predictions, truths, groups, strict=True):
        b = buckets.setdefault(g, ([], []))
        b[0].append(p)
        b[1].append(t)
    return {g: score(p, t, strict=strict) for g, (p, t) in buckets.items()}
