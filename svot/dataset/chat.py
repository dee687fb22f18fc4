"""Conversational records, as TRL's trainers take them: ``prompt`` / ``completion`` messages and ``images``.

TRL's dataset formats (``trl`` docs, "Dataset formats and types"): a
*conversational prompt-completion* record has ``prompt`` (a list of messages,
here one ``user`` message) and ``completion`` (one ``assistant`` message);
a vision record adds an ``images`` column and marks where each image goes by
a ``{"type": "image"}`` part in the content, in the same order as ``images``
(TRL's ``prepare_multimodal_messages`` fills the parts from the column one for
one; without parts it would put every image before the text). So the prompt
text of a sample is cut at its ``<image>`` placeholders into text and image
parts: no placeholder is left in any text.

Views without images (``wo-v``) use plain string contents and have no
``images`` column, the text-only conversational form. Every other view uses
content parts ``{"type", "text"}`` (``text`` is null on image parts).

Beside ``prompt`` / ``completion`` / ``images`` every record carries the
columns :mod:`svot.metrics.grpo`'s reward functions read (``kind``,
``domain``, ``size``, ``state``, ``keywords``, ``reasoning``, ``target``,
``target_image``, ``goal``, ``choices``, ``target_classification``), so a
``GRPOTrainer`` takes an exported split with ``make_reward_funcs`` as is.

In memory::

    from svot.dataset import build_instance, to_messages
    for rec in to_messages(inst, "svot"):       # PIL images in rec["images"]
        rec["prompt"], rec["completion"], rec["images"]
"""

from __future__ import annotations

import json

from PIL import Image

from svot.dataset import records
from svot.dataset.methods import (
    DRAWS,
    METHODS,
    TEXT_ONLY,
    Sample,
    check_method,
    goal_choices,
    goal_letter,
    method_samples,
)
from svot.dataset.prompts import IMAGE
from svot.dataset.records import I32, KEYWORD, STR, arrow_schema, image_value
from svot.dataset.records import IMAGE as IMAGE_FEATURE

PART = {"type": STR, "text": STR}
MESSAGE_PARTS = {"role": STR, "content": [PART]}
MESSAGE_TEXT = {"role": STR, "content": STR}


def content_parts(text: str) -> list[dict]:
    """``text`` cut at its ``<image>`` placeholders: text parts and ``{"type": "image"}`` parts, in order."""
    parts: list[dict] = []
    pieces = text.split(IMAGE)
    for k, piece in enumerate(pieces):
        if piece:
            parts.append({"type": "text", "text": piece})
        if k < len(pieces) - 1:
            parts.append({"type": "image", "text": None})
    return parts


def _message(role: str, text: str, parts: bool) -> list[dict]:
    return [{"role": role, "content": content_parts(text) if parts else text}]


def features(method: str) -> dict:
    """The feature description of a method view's records (see :mod:`svot.dataset.records`)."""
    check_method(method)
    msg = MESSAGE_TEXT if method in TEXT_ONLY else MESSAGE_PARTS
    out = {
        "id": STR,
        "instance_id": STR,
        "domain": STR,
        "size": I32,
        "split": STR,
        "distribution": STR,
        "method": STR,
        "kind": STR,
        "step": I32,
        "prompt": [msg],
        "completion": [msg],
    }
    if method not in TEXT_ONLY:
        out["images"] = [IMAGE_FEATURE]
    if method in DRAWS:
        out["target_image"] = IMAGE_FEATURE
    out.update({
        "target": STR,
        "reasoning": STR,
        "keywords": [KEYWORD],
        "state": STR,
        "goal": STR,
        "answer": STR,
        "choices": [STR],
        "target_classification": STR,
        "prompt_classification": [msg],
    })
    return out


_SCHEMAS: dict = {}


def schema(method: str):
    if method not in _SCHEMAS:
        _SCHEMAS[method] = arrow_schema(features(method))
    return _SCHEMAS[method]


def _j(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def sample_record(inst, sample: Sample, method: str, image_of) -> dict:
    """One record; ``image_of(i)`` gives the column value of the image of state i (0 = v0)."""
    parts = method not in TEXT_ONLY
    goal = sample.kind == "goal"
    rec = {
        "id": sample.id,
        "instance_id": inst.id,
        "domain": inst.domain,
        "size": inst.size,
        "split": inst.split,
        "distribution": inst.distribution,
        "method": method,
        "kind": sample.kind,
        "step": sample.step,
        "prompt": _message("user", sample.prompt, parts),
        "completion": _message("assistant", sample.completion, parts),
    }
    if parts:
        rec["images"] = [image_of(i) for i in sample.images]
    if method in DRAWS:
        rec["target_image"] = None if sample.target_image is None else image_of(sample.target_image)
    rec.update({
        "target": sample.completion,
        "reasoning": sample.reasoning,
        "keywords": list(sample.keywords),
        "state": _j(sample.state) if sample.state is not None else "",
        "goal": _j(inst.goal) if goal else "",
        "answer": inst.answer if goal else "",
        "choices": goal_choices(inst) if goal else [],
        "target_classification": goal_letter(inst) if goal else "",
        "prompt_classification": _message("user", sample.prompt_classification, parts) if goal else [],
    })
    return rec


def method_records(inst, pngs, method: str) -> list[dict]:
    """The export rows of one instance under a method view (images as PNG ``{bytes, path}`` structs)."""
    states = inst.states
    return [sample_record(inst, s, method, lambda i: image_value(pngs.get(inst.domain, states[i])))
            for s in method_samples(inst, method)]


def to_messages(inst, method: str = "svot", image_size: int = 256) -> list[dict]:
    """The conversational records of one instance in memory, images as PIL images (RGB).

    Same records as ``svot export --view <method>`` writes, ready for TRL's
    ``SFTTrainer`` / ``GRPOTrainer`` (e.g. ``datasets.Dataset.from_list``).
    """
    cache: dict = {}

    def image_of(i: int):
        if i not in cache:
            cache[i] = Image.fromarray(inst.image(i, image_size))
        return cache[i]

    return [sample_record(inst, s, method, image_of) for s in method_samples(inst, method)]


def as_classification(record: dict) -> dict:
    """A goal record in its four-choice form (Table 1's "C"): ``prompt_classification`` as the prompt
    and the correct letter as the completion; other records unchanged. ``ds.map(as_classification)``
    turns a split into the classification task; ``choice_reward_fn`` scores it."""
    if record.get("kind") != "goal" or not record.get("target_classification"):
        return record
    letter = record["target_classification"]
    parts = not isinstance(record["completion"][0]["content"], str)
    content = [{"type": "text", "text": letter}] if parts else letter
    return {**record, "prompt": record["prompt_classification"], "target": letter,
            "completion": [{"role": "assistant", "content": content}]}


def as_messages(record: dict) -> list[dict]:
    """A prompt-completion record as one conversation (TRL's *conversational language modeling* form)."""
    return list(record["prompt"]) + list(record["completion"])


# --------------------------------------------------------------------------- view dispatch (the exporter's)

ROW_VIEWS = ("instances", "predictions")
#: Every ``svot export --view``: the two row views of :mod:`svot.dataset.records`, then the method views.
VIEWS = ROW_VIEWS + METHODS


def view_schema(view: str):
    return records.schema_for(view) if view in ROW_VIEWS else schema(view)


def view_records(inst, pngs, view: str) -> list[dict]:
    return records.records_for(inst, pngs, view) if view in ROW_VIEWS else method_records(inst, pngs, view)
