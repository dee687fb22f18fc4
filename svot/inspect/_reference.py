"""The reference models' answers: the oracle (planner and ground truth) and random (the floor).

Both read only the sample's truth (:mod:`svot.inspect._truth`) and the
conversation so far; :mod:`svot.inspect.providers` wraps them as Inspect model
providers. Random draws are seeded by the model's ``seed`` and the prompt, so
a run repeats exactly.
"""

from __future__ import annotations

import hashlib

import numpy as np
from inspect_ai.model import ChatMessage, ChatMessageTool, ModelOutput

from svot.rulemaze import symbols as S

STOP_WORDS = ("episode is over", "no moves left")


def _tool_messages(messages: list[ChatMessage]) -> list[ChatMessageTool]:
    return [m for m in messages if isinstance(m, ChatMessageTool)]


def _rng(seed: int, messages: list[ChatMessage]) -> np.random.Generator:
    first = messages[0].text if messages else ""
    key = f"{seed}/{len(messages)}/{first}".encode()
    return np.random.default_rng(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))


def oracle_output(model: str, truth: dict, messages: list[ChatMessage]) -> ModelOutput:
    done = _tool_messages(messages)
    if "plan" in truth:  # interactive: the plan, one move per turn
        k = len(done)
        if k < len(truth["plan"]):
            return ModelOutput.for_tool_call(model, "move", {"action": truth["plan"][k]})
        return ModelOutput.from_content(model, "Done: the goal is reached.")
    calls = truth.get("calls") or []
    if len(done) < len(calls):  # DMP: the dataset's tool trace, one call per turn
        c = calls[len(done)]
        return ModelOutput.for_tool_call(model, c["tool"], c["arguments"])
    return ModelOutput.from_content(model, str(truth.get("answer", "")))


def random_output(model: str, truth: dict, messages: list[ChatMessage], seed: int = 0) -> ModelOutput:
    rng = _rng(seed, messages)
    if "plan" in truth:  # interactive: uniform random actions until the episode is over
        done = _tool_messages(messages)
        over = bool(done) and any(w in done[-1].text.lower() for w in STOP_WORDS)
        if over or len(done) >= int(truth.get("max_moves", 0)):
            return ModelOutput.from_content(model, "Done.")
        pool = truth["random"]
        return ModelOutput.for_tool_call(model, "move", {"action": pool[int(rng.integers(len(pool)))]})
    if "moves" in truth:  # RuleMaze: as many uniform random moves as the ground truth has
        moves = [S.DIRECTIONS[int(i)] for i in rng.integers(len(S.DIRECTIONS), size=int(truth["moves"]))]
        return ModelOutput.from_content(model, "Final answer: " + ", ".join(moves))
    pool = truth.get("random") or [""]
    return ModelOutput.from_content(model, str(pool[int(rng.integers(len(pool)))]))
