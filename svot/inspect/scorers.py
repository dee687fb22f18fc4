"""Inspect scorers over svot's metrics; every score's metadata carries what the tables need.

* :func:`goal_scorer`: Table 1's C (:func:`svot.metrics.extract_choice` equals the
  correct letter) and F (:func:`svot.metrics.answer_correct`: every goal field exact).
* :func:`state_scorer` / :func:`reasoning_scorer`: Table 2's z_i fields and r_z
  (:func:`svot.metrics.state_reward`, Eq. 6), c_i columns and r_c
  (:func:`svot.metrics.reasoning_reward`, columns by :func:`svot.metrics.field_group`).
* :func:`episode_scorer`: the interactive task (success, steps over the plan, inapplicable moves).
* :func:`rulemaze_scorer`: EM and PR (RuleMaze Eq. 2-3, :mod:`svot.rulemaze.metrics`), grouped.
"""

from __future__ import annotations

import re

import math

from inspect_ai.scorer import (CORRECT, INCORRECT, Metric, SampleScore, Score, Target, accuracy, mean, metric,
                               scorer, stderr)
from inspect_ai.solver import TaskState

from svot.metrics.goal import answer_correct, extract_choice
from svot.metrics.reasoning import field_group, reasoning_reward
from svot.metrics.state import state_reward
from svot.rulemaze.metrics import exact_match, parse_actions, precision_rate

_ANSWER_LABEL = re.compile(r"answer\s*[:=]", re.IGNORECASE)


def _where(meta: dict) -> dict:
    return {k: meta[k] for k in ("domain", "size", "split", "instance_id") if k in meta}


@scorer(metrics=[accuracy(), stderr()])
def goal_scorer():
    async def score(state: TaskState, target: Target) -> Score:
        m = state.metadata
        text = state.output.completion
        if m["form"] == "C":
            letter = extract_choice(text, m["choices"], domain=m["domain"])
            ok = letter == m["correct"]
            extra = {"letter": letter, "unreadable": letter is None}
        else:
            ok = answer_correct(m["domain"], text, m["goal"])
            extra = {}
        return Score(value=CORRECT if ok else INCORRECT, answer=text[-200:], explanation=None,
                     metadata={"kind": "goal", "form": m["form"], **_where(m), **extra})

    return score


@scorer(metrics=[mean(), stderr()])
def state_scorer():
    """r_z of the predicted z_i (fields P(z) of the domain; ``action`` counts when the step has one)."""

    async def score(state: TaskState, target: Target) -> Score:
        m = state.metadata
        s = state_reward(state.output.completion, m["state"], action=m["action_text"], domain=m["domain"],
                         fields=m["fields"])
        return Score(value=s.reward, metadata={"kind": "state", **_where(m), "step": m["step"],
                                               "matches": {k: bool(v) for k, v in s.matches.items()}})

    return score


@scorer(metrics=[mean(), stderr()])
def reasoning_scorer():
    """r_c of the predicted c_i^z against the step's keywords; per-column matches for Table 2."""

    async def score(state: TaskState, target: Target) -> Score:
        m = state.metadata
        if not m["keywords"]:
            return Score(value=0.0, metadata={"kind": "reasoning", **_where(m), "scored": False})
        r = reasoning_reward(state.output.completion, m["keywords"])
        columns: dict[str, bool] = {}
        for f, ok in r.matches.items():
            col = field_group(f)
            columns[col] = columns.get(col, True) and bool(ok)
        return Score(value=r.reward, metadata={"kind": "reasoning", **_where(m), "step": m["step"], "scored": True,
                                               "columns": columns})

    return score


def answer_text(completion: str) -> str:
    """The text after the last ``answer:`` label (the whole completion without one)."""
    labels = list(_ANSWER_LABEL.finditer(completion))
    return completion[labels[-1].end():].strip() if labels else completion.strip()


@scorer(metrics={"em": [mean(), stderr()], "pr": [mean()]})
def rulemaze_scorer(strict: bool = True):
    """EM (the text's reading of Eq. 2 unless ``strict=False``) and PR (Eq. 3) of the final move list."""

    async def score(state: TaskState, target: Target) -> Score:
        m = state.metadata
        pred = parse_actions(answer_text(state.output.completion))
        truth = list(m["ground_truth"])
        em = exact_match(pred, truth, strict=strict) if pred is not None else 0.0
        pr = precision_rate(pred, truth) if pred is not None else 0.0
        return Score(value={"em": em, "pr": pr}, answer=", ".join(pred) if pred is not None else None,
                     metadata={"kind": "rulemaze", "scenario": m["scenario"], "group": m["group"],
                               "malformed": pred is None, "id": m["id"]})

    return score


@metric
def mean_finite() -> Metric:
    """Mean over the scores that are numbers (steps over the plan counts successful episodes only)."""

    def compute(scores: list[SampleScore]) -> float:
        vals = [float(s.score.as_float()) for s in scores if not math.isnan(float(s.score.as_float()))]
        return sum(vals) / len(vals) if vals else float("nan")

    return compute


@scorer(metrics={"success": [mean(), stderr()], "steps_over_plan": [mean_finite()], "inapplicable": [mean()]})
def episode_scorer():
    """Success (the goal reached), steps taken minus the plan's length (successful episodes), inapplicable moves."""

    async def score(state: TaskState, target: Target) -> Score:
        m = state.metadata
        ep = state.store.get("svot_episode", {}) or {}
        success = bool(ep.get("success"))
        moves = int(ep.get("moves", 0))
        plan_len = len(m["truth"]["plan"])
        over = moves - plan_len if success else float("nan")
        return Score(value={"success": float(success), "steps_over_plan": over,
                            "inapplicable": float(ep.get("inapplicable", 0))},
                     answer=", ".join(ep.get("actions", [])),
                     metadata={"kind": "episode", **_where(m), "moves": moves, "plan_length": plan_len,
                               "plan_optimal": m.get("plan_optimal"), "failed": bool(ep.get("failed"))})

    return score
