"""GRPO reward functions in the calling convention of TRL's ``GRPOTrainer``.

TRL calls every reward function as ``fn(prompts=..., completions=...,
completion_ids=..., **columns)``, where ``columns`` holds every other column
of the training dataset as a list with one entry per completion, and expects
a list of floats back; an entry ``None`` means "this reward does not apply to
this sample" (TRL turns it into NaN and sums the weighted rewards with
``nansum``). So one list of reward functions serves a dataset that mixes
state, visualization and goal predictions::

    from svot.metrics.grpo import make_reward_funcs
    funcs, weights = make_reward_funcs("prm")
    trainer = GRPOTrainer(model, reward_funcs=funcs, args=GRPOConfig(reward_weights=weights, ...),
                          train_dataset=load_dataset("data/", "<domain>-5x5", split="train"))

**Dataset.** A method view of the export (``svot export --view svot``, or
``wo-v``, ``wo-rl-c``, ``mvot``, ``tcot``, ``stepwise``: :mod:`svot.dataset.chat`):
one row per sample, TRL's conversational ``prompt`` with image parts in
prompt order and an ``images`` column (GRPOTrainer refuses the plain-text
prompts of ``--view predictions`` for a vision model). Tested with
TRL's ``GRPOTrainer`` in ``tests/test_training.py``. The columns read:

==========================  ==============================================================
column                      used for
==========================  ==============================================================
``kind``                    ``"state"``, ``"visualization"`` or ``"goal"``: which rewards apply
``domain``                  the domain (state fields, answer format, sprites)
``size``                    the grid size ``n`` (``r_v``'s ``n x n`` cells)
``state``                   JSON of the state after the step: ``r_z``'s ground truth
``keywords``                ``[{"field", "value"}]`` of ``c_i^z``: ``r_c``, and the true action for ``r_z``
``reasoning``               ``c_i^v`` text of visualization rows: ``r_c`` there
``target_image``            the true image ``v_i`` (``{"bytes", "path"}``, PIL image or array): ``r_v``
``goal``                    JSON of the goal fields (goal rows): free-response accuracy
``target_classification``   the correct letter (goal rows): classification accuracy
``choices``                 the four choice texts (goal rows)
==========================  ==============================================================

**Completions** may be strings or conversational lists of messages
(``[{"role": "assistant", "content": ...}]``, content a string or a list of
parts). For ``r_v`` a completion is the generated image: a PIL image, a uint8
array, ``{"bytes": ..., "path": ...}``, PNG bytes, a path to an image file, or
a message whose content has an image part (``{"type": "image", "image": ...}``).
A completion that cannot be read scores 0.0, never an exception; ground-truth
columns that are malformed raise :class:`~svot.metrics.MetricError`.

**Rewards** (SVoT §3, Fig. 4): PRM weights ``0.5 r_c + 0.5 r_z`` on state rows
and ``0.5 r_c + 0.5 r_v`` on visualization rows; ORM drops ``r_c``
(``0.5 r_z`` / ``0.5 r_v``: a constant factor, which GRPO's per-group
normalization removes). Both add the free-response goal accuracy on goal rows.
"""

from __future__ import annotations

import io
import os
from typing import Callable, Sequence

import numpy as np
from PIL import Image

from svot.jsonl import loads
from svot.metrics._text import completion_text, normalize_action
from svot.metrics.errors import MetricError
from svot.metrics.goal import answer_correct, extract_choice
from svot.metrics.reasoning import reasoning_reward, visual_reasoning_reward
from svot.metrics.state import state_reward, parse_action
from svot.metrics.visual import visual_reward

__all__ = [
    "choice_reward_fn",
    "completion_image",
    "goal_reward_fn",
    "make_reward_funcs",
    "make_state_reward_fn",
    "reasoning_reward_fn",
    "state_reward_fn",
    "visual_reward_fn",
]

Reward = list  # list[float | None]


# --------------------------------------------------------------------------- columns


def _column(kwargs: dict, name: str, n: int, required: bool = True) -> list:
    v = kwargs.get(name)
    if v is None:
        if required:
            raise MetricError(f"the reward needs the dataset column {name!r} (svot export --view predictions)")
        return [None] * n
    if isinstance(v, (str, bytes)) or not hasattr(v, "__len__"):
        v = [v] * n  # one value for the whole batch
    v = list(v)
    if len(v) != n:
        raise MetricError(f"column {name!r} has {len(v)} entries for {n} completions")
    return v


def _json(value, what: str):
    if isinstance(value, (dict, list)):
        return value
    if isinstance(value, str):
        try:
            return loads(value)  # any nesting a ValueError
        except ValueError:
            pass
    raise MetricError(f"the {what} column must hold JSON, got {str(value)[:80]!r}")


def _kinds(kwargs: dict, n: int) -> list:
    return _column(kwargs, "kind", n, required=False)


def _applies(kind, want: str) -> bool:
    return kind is None or kind == want


def _truth_action(keywords, target) -> str | None:
    for kw in keywords or ():
        if isinstance(kw, dict) and kw.get("field") == "action":
            return normalize_action(kw.get("value"))
    if isinstance(target, str):
        return parse_action(target)
    return None


# --------------------------------------------------------------------------- text rewards


def make_state_reward_fn(fields: Sequence[str] | dict | None = None, name: str = "state_reward_fn") -> Callable:
    """A ``r_z`` reward function with its own ``P(z)``: a field list, or ``{domain: fields}``."""

    def fn(completions, **kwargs) -> Reward:
        n = len(completions)
        kinds = _kinds(kwargs, n)
        states = _column(kwargs, "state", n)
        domains = _column(kwargs, "domain", n, required=False)
        keywords = _column(kwargs, "keywords", n, required=False)
        targets = _column(kwargs, "target", n, required=False)
        out: Reward = []
        for c, kind, st, d, kw, tg in zip(completions, kinds, states, domains, keywords, targets):
            if not _applies(kind, "state"):
                out.append(None)
                continue
            truth = _json(st, "state")
            dom = d if d is not None else truth.get("domain")
            fs = fields.get(dom) if isinstance(fields, dict) else fields
            out.append(state_reward(completion_text(c), truth, action=_truth_action(kw, tg), domain=dom, fields=fs).reward)
        return out

    fn.__name__ = name
    fn.__qualname__ = name
    return fn


#: ``r_z`` (Eq. 6) on ``kind == "state"`` rows with each domain's default fields; None elsewhere.
state_reward_fn = make_state_reward_fn()
state_reward_fn.__doc__ = "r_z on state rows (columns: state, keywords or target, domain, kind); None on others."


def reasoning_reward_fn(completions, **kwargs) -> Reward:
    """``r_c``: on state rows over ``keywords`` (c^z), on visualization rows over the ``reasoning`` text (c^v).

    A visualization completion may hold the image too (chat content parts);
    its text is scored. Goal rows: None.
    """
    n = len(completions)
    kinds = _kinds(kwargs, n)
    keywords = _column(kwargs, "keywords", n, required=False)
    reasoning = _column(kwargs, "reasoning", n, required=False)
    out: Reward = []
    for c, kind, kw, rs in zip(completions, kinds, keywords, reasoning):
        text = completion_text(c)
        if kind == "visualization":
            out.append(visual_reasoning_reward(text, rs).reward if rs else None)
        elif _applies(kind, "state") and kw:
            out.append(reasoning_reward(text, kw).reward)
        else:
            out.append(None)
    return out


def goal_reward_fn(completions, **kwargs) -> Reward:
    """Free-response goal accuracy (1.0 / 0.0) on goal rows (columns: goal, domain); None elsewhere."""
    n = len(completions)
    kinds = _kinds(kwargs, n)
    goals = _column(kwargs, "goal", n)
    domains = _column(kwargs, "domain", n)
    out: Reward = []
    for c, kind, g, d in zip(completions, kinds, goals, domains):
        if not _applies(kind, "goal") or not g:
            out.append(None)
            continue
        out.append(float(answer_correct(d, completion_text(c), _json(g, "goal"))))
    return out


def choice_reward_fn(completions, **kwargs) -> Reward:
    """Classification goal accuracy on goal rows (columns: target_classification, choices); None elsewhere.

    For training on ``prompt_classification``: map it to ``prompt`` first.
    """
    n = len(completions)
    kinds = _kinds(kwargs, n)
    letters = _column(kwargs, "target_classification", n)
    choices = _column(kwargs, "choices", n, required=False)
    out: Reward = []
    for c, kind, letter, ch in zip(completions, kinds, letters, choices):
        if not _applies(kind, "goal") or not letter:
            out.append(None)
            continue
        out.append(float(extract_choice(c, ch or None) == str(letter).strip().upper()))
    return out


# --------------------------------------------------------------------------- images


def _image_from(value, depth: int = 0) -> np.ndarray | None:
    if value is None or depth > 6:
        return None
    if isinstance(value, Image.Image):
        return np.asarray(value.convert("RGB"))
    if isinstance(value, np.ndarray):
        return value if value.dtype == np.uint8 and value.ndim in (2, 3) else None
    if isinstance(value, (bytes, bytearray, memoryview)):
        with Image.open(io.BytesIO(bytes(value))) as im:
            return np.asarray(im.convert("RGB"))
    if isinstance(value, (str, os.PathLike)):
        p = os.fspath(value)
        if len(p) < 4096 and "\n" not in p and os.path.isfile(p):
            with Image.open(p) as im:
                return np.asarray(im.convert("RGB"))
        return None
    if isinstance(value, dict):
        if value.get("bytes") is not None:
            return _image_from(value["bytes"], depth + 1)
        for key in ("image", "path", "image_url", "url", "content"):
            if value.get(key) is not None:
                got = _image_from(value[key], depth + 1)
                if got is not None:
                    return got
        return None
    if isinstance(value, (list, tuple)):
        for item in value:
            got = _image_from(item, depth + 1)
            if got is not None:
                return got
    return None


def completion_image(completion) -> np.ndarray | None:
    """The image of a completion as a uint8 array (see the module docstring), or None; never raises."""
    try:
        return _image_from(completion)
    except Exception:  # noqa: BLE001 - an unreadable image scores 0
        return None


def visual_reward_fn(completions, **kwargs) -> Reward:
    """``r_v`` (Eq. 7) on visualization rows (columns: target_image, size); None elsewhere."""
    n = len(completions)
    kinds = _kinds(kwargs, n)
    # views without visualizations (svot export --view wo-v) have no target_image column
    draws = any(_applies(k, "visualization") for k in kinds)
    targets = _column(kwargs, "target_image", n, required=draws)
    sizes = _column(kwargs, "size", n, required=draws)
    out: Reward = []
    for c, kind, tgt, size in zip(completions, kinds, targets, sizes):
        if not _applies(kind, "visualization") or tgt is None:
            out.append(None)
            continue
        truth = completion_image(tgt)
        if truth is None:
            raise MetricError("a target_image entry cannot be decoded as an image")
        pred = completion_image(c)
        if pred is None:
            out.append(0.0)
            continue
        try:
            out.append(visual_reward(pred, truth, int(size)).r_v)
        except MetricError:  # e.g. an empty or oddly shaped prediction
            out.append(0.0)
    return out


# --------------------------------------------------------------------------- sets


def make_reward_funcs(mode: str = "prm") -> tuple[list[Callable], list[float]]:
    """``(reward_funcs, reward_weights)`` for ``GRPOTrainer`` / ``GRPOConfig``.

    ``"prm"``: r_c, r_z, r_v, goal with weights 0.5, 0.5, 0.5, 1.0 — state rows
    get ``0.5 r_c + 0.5 r_z``, visualization rows ``0.5 r_c + 0.5 r_v``, goal
    rows the free-response accuracy. ``"orm"``: r_z, r_v, goal with 0.5, 0.5, 1.0.
    """
    if mode == "prm":
        return [reasoning_reward_fn, state_reward_fn, visual_reward_fn, goal_reward_fn], [0.5, 0.5, 0.5, 1.0]
    if mode == "orm":
        return [state_reward_fn, visual_reward_fn, goal_reward_fn], [0.5, 0.5, 1.0]
    raise MetricError(f"unknown reward mode {mode!r}; choose 'prm' or 'orm'")
