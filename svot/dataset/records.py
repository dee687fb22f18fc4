"""Rows: instances and predictions as flat records, their Arrow schema and Hugging Face features.

One feature description (:data:`INSTANCE_FEATURES`, :data:`PREDICTION_FEATURES`)
gives both the Arrow schema the Parquet files are written with and the
``{"info": {"features": ...}}`` JSON stored under the schema metadata key
``huggingface``, so ``datasets.load_dataset("parquet", ...)`` restores the
``Image`` columns (struct ``{bytes, path}``, PNG bytes) and decodes them.

State dicts, goals and generator parameters are JSON strings: the schema is
then the same for every domain and size, and splits of different domains
concatenate.

**Instance record** (``--view instances``, one row per instance): see
:data:`INSTANCE_FEATURES`; ``steps`` is a list of per-step structs (action,
state, texts, reasoning chains c^z and c^v, keywords, labels) and
``step_images`` the images v_1..v_n in step order. The images live beside
the structs, not in them: a struct holding both an ``Image`` and a nested
list (``labels``) breaks ``datasets``' numpy / torch / pandas formatting
("truth value of an array is ambiguous"), while this layout formats in all
three.

**Prediction record** (``--view predictions``, one row per prediction as
Table 5 counts them): per step a ``state`` record (Eq. 3: prompt = task +
ground-truth prefix z_<i, v_<i; target = c_i^z then z_i) and a
``visualization`` record (Eq. 4: the same prefix plus z_i; target = c_i^v then
the image v_i in ``target_image``); per instance one ``goal`` record (Eq. 5)
that carries both goal forms: ``prompt``/``target`` free-response and
``prompt_classification``/``target_classification`` four-choice. Table 5 counts
one goal prediction per instance, so the record count is instances + 2 × steps,
the summary's predictions column. ``images`` lists the prompt's images in the
order of its ``<image>`` placeholders.
"""

from __future__ import annotations

import functools
import hashlib
import json

import pyarrow as pa

from svot.dataset import prompts
from svot.domains import get_spec
from svot.pddl import load_domain
from svot.problem_gen.common import layout_json
from svot.dataset.choices import LETTERS, choice_texts
from svot.render.image import render_state
from svot.render.png import encode_png


# --------------------------------------------------------------------------- features


class _V:
    def __init__(self, dtype: str):
        self.dtype = dtype


class _Img:
    pass


IMAGE = _Img()
STR, I32, BOOL = _V("string"), _V("int32"), _V("bool")

_ARROW = {"string": pa.string(), "int32": pa.int32(), "bool": pa.bool_()}

KEYWORD = {"field": STR, "value": STR}
STEP = {
    "step": I32,
    "action": I32,
    "action_text": STR,
    "applicable": BOOL,
    "state": STR,
    "state_text": STR,
    "z_text": STR,
    "reasoning": STR,
    "reasoning_visual": STR,
    "keywords": [KEYWORD],
    "labels": [[STR]],
}

INSTANCE_FEATURES = {
    "id": STR,
    "domain": STR,
    "size": I32,
    "split": STR,
    "distribution": STR,
    "map_index": I32,
    "seq_index": I32,
    "sequence_kind": STR,
    "problem_name": STR,
    "problem_pddl": STR,
    "initial_state": STR,
    "initial_state_text": STR,
    "image": IMAGE,
    "initial_labels": [[STR]],
    "actions": [I32],
    "action_texts": [STR],
    "n_steps": I32,
    "ended_early": BOOL,
    "steps": [STEP],
    "step_images": [IMAGE],
    "final_state": STR,
    "goal": STR,
    "answer": STR,
    "choices": [STR],
    "choice_goals": STR,
    "correct_choice": STR,
    "task": STR,
    "prompt": STR,
    "prompt_classification": STR,
    "generator_params": STR,
}

PREDICTION_FEATURES = {
    "id": STR,
    "instance_id": STR,
    "domain": STR,
    "size": I32,
    "split": STR,
    "distribution": STR,
    "kind": STR,  # state | visualization | goal
    "step": I32,  # 1-based; 0 for the goal record
    "prompt": STR,
    "images": [IMAGE],
    "target": STR,
    "target_image": IMAGE,
    "reasoning": STR,
    "keywords": [KEYWORD],
    "state": STR,
    "prompt_classification": STR,
    "target_classification": STR,
    "choices": [STR],
    "answer": STR,
    "goal": STR,
}


def hf_features(desc) -> object:
    """The Hugging Face ``Features.to_dict()``-style JSON of a description."""
    if isinstance(desc, _V):
        return {"dtype": desc.dtype, "_type": "Value"}
    if isinstance(desc, _Img):
        return {"_type": "Image"}
    if isinstance(desc, list):
        return [hf_features(desc[0])]
    return {k: hf_features(v) for k, v in desc.items()}


def arrow_type(desc) -> pa.DataType:
    if isinstance(desc, _V):
        return _ARROW[desc.dtype]
    if isinstance(desc, _Img):
        return pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    if isinstance(desc, list):
        return pa.list_(arrow_type(desc[0]))
    return pa.struct([(k, arrow_type(v)) for k, v in desc.items()])


def arrow_schema(features: dict) -> pa.Schema:
    meta = {"info": {"features": hf_features(features)}}
    return pa.schema([(k, arrow_type(v)) for k, v in features.items()]).with_metadata(
        {"huggingface": json.dumps(meta, separators=(",", ":"))}
    )


INSTANCE_SCHEMA = arrow_schema(INSTANCE_FEATURES)
PREDICTION_SCHEMA = arrow_schema(PREDICTION_FEATURES)


def schema_for(view: str) -> pa.Schema:
    return INSTANCE_SCHEMA if view == "instances" else PREDICTION_SCHEMA


# --------------------------------------------------------------------------- images


class PngCache:
    """PNG bytes per state (a map's sequences share states: v0, no-op steps)."""

    def __init__(self, image_size: int = 256):
        self.image_size = image_size
        self._cache: dict[str, bytes] = {}
        self.encoded = 0

    def get(self, domain: str, state: dict, key: str | None = None) -> bytes:
        """``key``: the state's ``_j`` text when the caller has it already (the rows store it)."""
        if key is None:
            key = _j(state)
        out = self._cache.get(key)
        if out is None:
            out = encode_png(render_state(get_spec(domain), state, self.image_size))
            self._cache[key] = out
            self.encoded += 1
        return out


def image_value(png: bytes | None) -> dict | None:
    return None if png is None else {"bytes": png, "path": None}


def png_name(png: bytes) -> str:
    """Content-addressed file name of an image (ImageFolder layout)."""
    return hashlib.sha256(png).hexdigest()[:20] + ".png"


# --------------------------------------------------------------------------- rows


def _j(obj) -> str:
    """``json.dumps(obj, sort_keys=True, separators=(",", ":"))``, through the kept encoder (no encoder per call)."""
    return layout_json(obj)


@functools.lru_cache(maxsize=64)
def problem_pddl(problem, pddl: str) -> str:
    """Standard PDDL text of ``problem`` (a map's instances share one problem: written once, not per instance)."""
    return problem.to_pddl(domain=load_domain(pddl))


def instance_record(inst, pngs: PngCache) -> dict:
    d = inst.domain
    free_q = prompts.free_question(d)
    choice_q = prompts.choice_question(d, inst.choices)
    initial = _j(inst.initial_state)
    states = [_j(s.state) for s in inst.steps]
    steps = []
    for s, state in zip(inst.steps, states):
        steps.append(
            {
                "step": s.index,
                "action": s.action,
                "action_text": s.action_text,
                "applicable": s.applicable,
                "state": state,
                "state_text": s.state_text,
                "z_text": s.z_text,
                "reasoning": s.reasoning,
                "reasoning_visual": s.reasoning_visual,
                "keywords": s.keywords,
                "labels": s.labels,
            }
        )
    return {
        "id": inst.id,
        "domain": d,
        "size": inst.size,
        "split": inst.split,
        "distribution": inst.distribution,
        "map_index": inst.map_index,
        "seq_index": inst.seq_index,
        "sequence_kind": inst.sequence_kind,
        "problem_name": inst.problem.name,
        # standard PDDL: planners ground it with the domain file as shipped (action atoms in :init)
        "problem_pddl": problem_pddl(inst.problem, get_spec(d).pddl),
        "initial_state": initial,
        "initial_state_text": inst.initial_text,
        "image": image_value(pngs.get(d, inst.initial_state, initial)),
        "initial_labels": inst.initial_labels,
        "actions": list(inst.actions),
        "action_texts": list(inst.action_texts),
        "n_steps": inst.n_steps,
        "ended_early": inst.ended_early,
        "steps": steps,
        "step_images": [image_value(pngs.get(d, s.state, k)) for s, k in zip(inst.steps, states)],
        "final_state": states[-1] if states else initial,
        "goal": _j(inst.goal),
        "answer": inst.answer,
        "choices": choice_texts(d, inst.choices),
        "choice_goals": _j(inst.choices),
        "correct_choice": inst.correct_letter,
        "task": inst.task,
        "prompt": prompts.instance_prompt(inst.task, free_q),
        "prompt_classification": prompts.instance_prompt(inst.task, choice_q),
        "generator_params": _j(inst.generator_params),
    }


def prediction_records(inst, pngs: PngCache) -> list[dict]:
    """Per step a state and a visualization record, then one goal record (both goal forms)."""
    d = inst.domain
    v0 = image_value(pngs.get(d, inst.initial_state))
    base = {
        "instance_id": inst.id,
        "domain": d,
        "size": inst.size,
        "split": inst.split,
        "distribution": inst.distribution,
    }
    empty = {
        "target_image": None,
        "reasoning": "",
        "keywords": [],
        "state": "",
        "prompt_classification": "",
        "target_classification": "",
        "choices": [],
        "answer": "",
        "goal": "",
    }
    out = []
    zs: list[str] = []
    images = [v0]
    for s in inst.steps:
        state = _j(s.state)
        vi = image_value(pngs.get(d, s.state, state))
        out.append(
            {
                **base,
                **empty,
                "id": f"{inst.id}/state/{s.index}",
                "kind": "state",
                "step": s.index,
                "prompt": prompts.state_prompt(inst.task, zs, s.index, s.action_text),
                "images": list(images),
                "target": f"{s.reasoning}\n{s.z_text}",
                "reasoning": s.reasoning,
                "keywords": s.keywords,
                "state": state,
            }
        )
        out.append(
            {
                **base,
                **empty,
                "id": f"{inst.id}/visualization/{s.index}",
                "kind": "visualization",
                "step": s.index,
                "prompt": prompts.visual_prompt(inst.task, zs, s.index, s.z_text),
                "images": list(images),
                "target": s.reasoning_visual,
                "target_image": vi,
                "reasoning": s.reasoning_visual,
                "state": state,
            }
        )
        zs.append(s.z_text)
        images.append(vi)
    out.append(
        {
            **base,
            **empty,
            "id": f"{inst.id}/goal",
            "kind": "goal",
            "step": 0,
            "prompt": prompts.goal_prompt(inst.task, zs, prompts.free_question(d)),
            "images": list(images),
            "target": inst.answer,
            "state": _j(inst.final_state),
            "prompt_classification": prompts.goal_prompt(inst.task, zs, prompts.choice_question(d, inst.choices)),
            "target_classification": LETTERS[inst.correct],
            "choices": choice_texts(d, inst.choices),
            "answer": inst.answer,
            "goal": _j(inst.goal),
        }
    )
    return out


def records_for(inst, pngs: PngCache, view: str) -> list[dict]:
    return [instance_record(inst, pngs)] if view == "instances" else prediction_records(inst, pngs)
