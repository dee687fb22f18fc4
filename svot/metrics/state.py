"""State reward ``r_z`` (SVoT Eq. 6): exact matches over the fields of an intermediate state.

An intermediate state is ``z_i = <a_i, s_i>``: the action and the state
description, written in the datasets as (``svot.dataset.prompts.z_text``)::

    Action 3: move up
    <Title>, 5x5 grid.
    Player: (1, 0)
    Blocks: (2, 1)
    Goals: (3, 1)
    Walls: (1, 2), (3, 0)

``r_z(ẑ, z) = (1/|P(z)|) Σ_{p ∈ P(z)} [p(ẑ) = p(z)]`` where ``P(z)`` are the
fields of :data:`STATE_FIELDS` for the domain, its spec's ``state_fields``
(or the ``fields`` argument).

**Which fields count.** Only fields that can change from one step to the next:
the action and the dynamic parts of the state. Constant fields (the spec's
``constant_fields``: e.g. walls, holes, goal squares, a start cell, an item
total) are left out by default: they are copied from the prompt, so
they would only dilute the reward (a model that copies the layout and gets the
move wrong would still score 0.75 on a state with player, blocks, goals and walls). Pass ``fields=`` to use
another set, e.g. ``fields=("action", "player")`` or every field of the spec
(:func:`all_fields`).

**Reading a prediction** never raises: the state part goes through the
renderer's lenient reader :func:`svot.render.text.parse_fields` (``Label:
value`` anywhere in a line, any case, the last readable value of a field
wins); the action is the value of the last ``Action:`` / ``Action 3:`` label
that names a direction (:func:`svot.metrics._text.normalize_action`). A field
that cannot be read scores 0.

**Equality** is exact on canonical values: a cell is ``(r, c)``; a list of
cells (blocks, coins) is one field, equal when the *sets* are equal (order and
repeats do not matter); counts are integers; words are compared in lower case;
per-colour item fields such as ``collected`` (``red 1, green 0``) and ``balls`` are equal when they
agree on every colour, a colour left out meaning zero / none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from svot.domains import SPECS, get_spec
from svot.metrics._text import completion_text, normalize_action
from svot.metrics.errors import MetricError
from svot.render.text import parse_fields

__all__ = [
    "CONSTANT_FIELDS",
    "STATE_FIELDS",
    "StateScore",
    "all_fields",
    "canonical",
    "parse_action",
    "parse_state",
    "state_fields",
    "state_reward",
]


class _PerDomain(Mapping):
    """Domain name -> one hook of its spec, over the registered domains (a live view)."""

    def __init__(self, read):
        self._read = read

    def __getitem__(self, domain: str) -> tuple[str, ...]:
        if domain not in SPECS:
            raise KeyError(domain)
        return self._read(SPECS[domain])

    def __iter__(self):
        return iter(SPECS)

    def __len__(self) -> int:
        return len(SPECS)

    def __repr__(self) -> str:
        return repr(dict(self))


#: Fields of ``P(z)`` per domain: the action and every state field that can change (the spec's
#: ``state_fields``; every field for a domain that declares none).
STATE_FIELDS: Mapping[str, tuple[str, ...]] = _PerDomain(lambda spec: state_fields(spec.name))

#: State fields left out of :data:`STATE_FIELDS` because no action changes them (the spec's ``constant_fields``).
CONSTANT_FIELDS: Mapping[str, tuple[str, ...]] = _PerDomain(lambda spec: tuple(spec.constant_fields))

# "Action: move up", "Action 3: move up", "**Action**: up", "action = left"
_ACTION = re.compile(
    r"(?<![a-z0-9_])action(?:\s*(?:#|no\.?)?\s*[0-9]{1,9})?\s*\**\s*[:=]\s*(?P<v>[^\n]*)", re.IGNORECASE
)
# where an action value ends: a separator, a cell, or the next "Label:"
_ACTION_END = re.compile(r"[;,(\[]|\.(?![0-9])|\s[a-z_]+\s*:", re.IGNORECASE)


def _spec(domain):
    if not isinstance(domain, str):
        domain = getattr(domain, "name", domain)
    try:
        return get_spec(domain)
    except Exception as exc:  # ConfigError: unknown domain
        raise MetricError(str(exc)) from None


def all_fields(domain) -> tuple[str, ...]:
    """``("action",)`` plus every field of the domain's state description."""
    return ("action",) + tuple(f.key for f in _spec(domain).fields)


def state_fields(domain) -> tuple[str, ...]:
    """The default ``P(z)`` of a domain (its spec's ``state_fields``; every field when it declares none)."""
    spec = _spec(domain)
    return tuple(spec.state_fields) if spec.state_fields is not None else all_fields(spec.name)


def parse_action(text) -> str | None:
    """The action named by the last ``Action:`` label of ``text`` that reads, canonical; else None."""
    t = completion_text(text)
    out = None
    for m in _ACTION.finditer(t):
        v = m.group("v")
        end = _ACTION_END.search(v)
        a = normalize_action(v[: end.start()] if end else v)
        if a is not None:
            out = a
    return out


def parse_state(domain, text) -> dict:
    """Every field readable in ``text``: the state fields by key, plus ``"action"``. Never raises on ``text``."""
    spec = _spec(domain)
    t = completion_text(text)
    keys = {f.key for f in spec.fields}
    out = {k: v for k, v in parse_fields(spec, t).items() if k in keys}
    a = parse_action(t)
    if a is not None:
        out["action"] = a
    return out


# --------------------------------------------------------------------------- canonical values


def _cell(v):
    if isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return (int(v[0]), int(v[1]))
    raise TypeError


def _count(v) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError
    return int(v)


def canonical(kind: str, value):
    """A hashable canonical form of a field value (see the module docstring); None if malformed."""
    try:
        if kind == "action":
            return normalize_action(value)
        if kind == "cell":
            return _cell(value)
        if kind == "cells":
            return frozenset(_cell(c) for c in value)
        if kind == "int":
            return _count(value)
        if kind == "word":
            return value.strip().lower() if isinstance(value, str) else None
        if kind == "colour_cells":
            return frozenset(
                (str(k).lower(), frozenset(_cell(c) for c in cs)) for k, cs in value.items() if len(cs)
            )
        if kind == "colour_counts":
            return frozenset((str(k).lower(), _count(n)) for k, n in value.items() if _count(n) != 0)
    except Exception:  # noqa: BLE001 - malformed value: no canonical form
        return None
    return None


def _kinds(spec) -> dict[str, str]:
    out = {f.key: f.kind for f in spec.fields}
    out["action"] = "action"
    return out


# --------------------------------------------------------------------------- reward


@dataclass(frozen=True)
class StateScore:
    """Result of :func:`state_reward`.

    Attributes:
        reward: ``r_z``, the fraction of fields matched (0.0 when there are no fields).
        matches: per field of ``P(z)``, whether the prediction got it exactly.
        predicted: the fields read from the prediction (raw values, all fields found).
    """

    reward: float
    matches: dict = field(default_factory=dict)
    predicted: dict = field(default_factory=dict)

    def __float__(self) -> float:
        return self.reward


def _check_fields(spec, fields, kinds) -> tuple[str, ...]:
    if fields is None:
        return tuple(spec.state_fields) if spec.state_fields is not None else tuple(kinds)
    if isinstance(fields, str) or not isinstance(fields, Iterable):
        raise MetricError(f"fields must be a sequence of field names, got {fields!r}")
    fs = tuple(fields)
    unknown = [f for f in fs if f not in kinds]
    if unknown:
        raise MetricError(f"unknown {spec.name} state field(s) {unknown}; known: {', '.join(kinds)}")
    if len(set(fs)) != len(fs):
        raise MetricError(f"fields repeat a name: {list(fs)}")
    return fs


def state_reward(
    prediction,
    truth: Mapping,
    *,
    action: str | None = None,
    domain: str | None = None,
    fields: Sequence[str] | None = None,
) -> StateScore:
    """``r_z`` of a predicted state text against the ground-truth state (Eq. 6).

    Args:
        prediction: the model's text, or a chat completion (a message or a
            list of messages, see :func:`svot.metrics._text.completion_text`);
            anything else scores 0. It may hold the reasoning chain before ``z_i``.
        truth: the ground-truth state dict (``info["state"]``, the dataset's
            ``state`` JSON), or a dict that also holds ``"action"``.
        action: the ground-truth action text (``"move up"``, or
            ``"move up 3"`` where actions take a distance); overrides ``truth["action"]``. When neither gives
            an action, ``"action"`` is dropped from the fields.
        domain: the domain name; default ``truth["domain"]``.
        fields: ``P(z)``; default :func:`state_fields` of the domain.

    Raises :class:`~svot.metrics.MetricError` for a bad ``truth``/``fields``,
    never for the prediction.
    """
    if not isinstance(truth, Mapping):
        raise MetricError(f"truth must be a state dict, got {type(truth).__name__}")
    spec = _spec(domain if domain is not None else truth.get("domain"))
    kinds = _kinds(spec)
    fs = _check_fields(spec, fields, kinds)
    truth_action = action if action is not None else truth.get("action")
    if truth_action is None:
        if fields is not None and "action" in fs:
            raise MetricError("fields include 'action' but no ground-truth action was given")
        fs = tuple(f for f in fs if f != "action")
    want = {}
    for f in fs:
        v = truth_action if f == "action" else truth.get(f, None)
        if f != "action" and f not in truth:
            raise MetricError(f"the ground-truth {spec.name} state has no field {f!r}")
        c = canonical(kinds[f], v)
        if c is None:
            raise MetricError(f"the ground-truth {spec.name} field {f!r} is malformed: {v!r}")
        want[f] = c
    got = parse_state(spec.name, prediction)
    matches = {f: (f in got and canonical(kinds[f], got[f]) == want[f]) for f in fs}
    reward = sum(matches.values()) / len(fs) if fs else 0.0
    return StateScore(float(reward), matches, got)
