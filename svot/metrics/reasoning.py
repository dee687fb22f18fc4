"""Reasoning reward ``r_c`` (SVoT Eq. 6 over the keywords of a transition reasoning chain).

The datasets store, for every step, the chain ``c_i^z`` as text and the
keyword fields it was built from (``svot.dataset.transitions``): a list of
``{"field": ..., "value": ...}``. :func:`extract_keywords` is the inverse of
that builder: it reads the same fields back from any text, by the phrases the
builder writes, and never raises. ``r_c`` is then the fraction of the ground
truth's fields whose extracted value equals the truth exactly (Eq. 6).

Phrases read (case-insensitive; ``(r, c)`` also as ``[r, c]``; ``→`` also ``->``):

=====================  ======================================================  ====================
field                  phrase                                                  value
=====================  ======================================================  ====================
``player_before``      ``player is at (r, c)`` (first)                          ``(r, c)``
``action``             ``the action is move up [k]`` (first that names one)    ``move up [k]``
``applicable``         ``not applicable`` / ``inapplicable``, else ``applies`` ``not applicable`` / ``applies``
``blocked_by``         the clause before ``, so the action is not applicable``  ``edge``, ``wall``, ``block``,
                       (after its last ``, but``), by its words                ``hole``, ``goal``, ``coin``, ``ball``
``blocked_cell``       the first cell of that clause                           ``(r, c)``
``player_after``       ``player position changes to`` / ``remains (r, c)``    ``(r, c)``
``block_pushed_from``  ``block positions change: (a) → (b)``                   ``(a)``
``block_pushed_to``    same                                                    ``(b)``
``blocks``             ``block positions remain the same``                     ``remain the same``
``tile_after``         ``tile: <word>`` (first)                                ``frozen``...
``status_after``       ``status: <word>`` (first)                              ``running``...
``coin_eaten_at``      ``the coin at (r, c) is eaten``                         ``(r, c)``
``coin_eaten``         ``no coin is eaten``                                    ``no coin``
``collected_after``    ``collected coins: <n>`` (first)                        ``<n>``
``balls_collected``    the paper's ``collects 1 red ball and 1 blue ball``     ``1 red ball and 1 blue
                       (``collects no ball``), or ``collected by this move:    ball`` (colours in
                       red 1, green 0``                                        R, G, B, Y order)
``collected_X``        ``collected so far: red 2, green 0``                    ``red 2`` per colour
``pre <obj> (r, c)``   a precondition about an object on a cell:               ``is not a wall``,
                       ``(r, c) is not a wall``, ``(r, c) has no block``,       ``has no block``,
                       ``(r, c) holds a block``, ... or, relative to the        ``holds a block``, ...
                       cell before it, the paper's ``with no block above it``
``<label>_after``      after the player's clause, ``; <label>: <value>`` (the    ``<value>``
                       default effect clause of a domain registered from
                       outside, e.g. ``lit: (1, 2), (1, 3)``)
=====================  ======================================================  ====================

**Preconditions count** (SVoT §3: "P(c_i) contains keywords extracted from
action preconditions and effects (e.g., 'with no block above it' for
preconditions, and 'block position(s) remain the same' for effects in
[a block-pushing domain])"). The ground truth lists one ``pre <object> (r, c)`` field per object
precondition its chain states (walls, blocks, holes, the goal, coins; see
:data:`svot.dataset.wording.PRECONDITION_WORDS`), so a chain that states a false
precondition, or skips them, loses those fields. A precondition phrase belongs
to the last cell written before it in the same clause (clauses end at ``.``,
``;``, a line break, ``, so`` and ``, but``); followed by ``above`` / ``below`` /
``left of`` / ``right of`` ``it`` (or ``the player``) it is about that
neighbour of the cell instead (of the player's cell when the clause names none).

"First" means the first occurrence in the text, so a completion holding the
chain followed by ``z_i`` (whose ``Tile:``/``Collected coins:`` lines repeat
those values) reads the chain's.

The visualization chain ``c_i^v`` ("Drawing the image after action 2 (move
up): (1, 0): the player arrives; (2, 0): the player leaves. Every other cell
stays as it was.") has no stored keywords; :func:`visual_chain_fields` reads one
field per changed cell (value: its sorted events) or ``changes = none``, from
the truth and the prediction alike, and :func:`visual_reasoning_reward` is
Eq. 6 over the truth's fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from svot.kernel.keywords import PRECONDITION_WORDS, collection_phrase, precondition_field
from svot.kernel.phrases import effect_field
from svot.metrics._text import CELL, CELL_RE, completion_text, fmt_cell, norm_words, normalize_action
from svot.metrics.errors import MetricError

__all__ = [
    "ReasoningScore",
    "extract_keywords",
    "field_group",
    "keyword_dict",
    "reasoning_reward",
    "visual_chain_fields",
    "visual_reasoning_reward",
]

_I = re.IGNORECASE
_PLAYER_BEFORE = re.compile(r"player\s+is\s+at\s*" + CELL, _I)
_ACTION_IS = re.compile(r"\baction\s+is\s+([^.;\n]*)", _I)
_NOT_APPLICABLE = re.compile(r"\bnot\s+applicable\b|\binapplicable\b|\bcannot\s+be\s+applied\b|\bdoes\s+not\s+apply\b", _I)
_APPLIES = re.compile(r"\bapplies\b|\bis\s+applicable\b", _I)
_SO_NA = re.compile(r",?\s*so\s+the\s+action\s+is\s+not\s+applicable", _I)
_BLOCKED_BY = re.compile(r"\bblocked\s+by\s+([^.;\n]*)", _I)
_PLAYER_AFTER = re.compile(r"player\s+position\s+(?:changes\s+to|remains|becomes|is\s+now|is)\s*" + CELL, _I)
_PUSH_SEGMENT = re.compile(r"block\s+positions?\s+changes?\s*:?([^.;\n]*)", _I)
_PUSH_PAIR = re.compile(CELL + r"\s*(?:→|->|-->|=>|\bto\b)\s*" + CELL, _I)
_BLOCKS_SAME = re.compile(r"block\s+position(?:s|\(s\))?\s+(?:remains?|stays?)\s+(?:the\s+same|unchanged)", _I)
_TILE = re.compile(r"\btile\s*:\s*([a-z]+)", _I)
_STATUS = re.compile(r"\bstatus\s*:\s*([a-z]+)", _I)
_COIN_AT = re.compile(r"\bcoin\s+at\s*" + CELL + r"\s*is\s+eaten", _I)
_NO_COIN = re.compile(r"\bno\s+coin\s+is\s+eaten", _I)
_COINS = re.compile(r"\bcollected\s+coins\s*:\s*([0-9]{1,9})(?![0-9])", _I)
_BY_MOVE = re.compile(r"collected\s+by\s+this\s+move\s*:([^;.\n]*)", _I)
_SO_FAR = re.compile(r"collected\s+so\s+far\s*:([^;.\n]*)", _I)
_COLOUR_COUNT = re.compile(r"([a-z][a-z_]*)\s*:?\s+([0-9]{1,9})(?![0-9])", _I)
# the paper's wording of a collecting move's per-colour items: "collects 1 red ball and 1 blue ball"
_COLLECTS = re.compile(r"\bcollects?\s+((?:(?:and\s+|,\s*)?[0-9]{1,9}\s+[a-z][a-z_]*\s+balls?\b\s*)+)", _I)
_COLLECTS_ITEM = re.compile(r"([0-9]{1,9})\s+([a-z][a-z_]*)\s+balls?", _I)
_COLLECTS_NONE = re.compile(r"\bcollects?\s+no\s+balls?\b|\bno\s+balls?\s+(?:is|are)\s+collected\b", _I)
# fallbacks for chains that never write "the action is" / "Player position changes to"
_MOVES = re.compile(r"\b(?:player\s+)?(?:moves?|walks?|goes)\s+(up|down|left|right)\b(?:\s+([0-9]{1,9})\s+(?:steps?|cells?))?", _I)
_ENDS_AT = re.compile(
    r"\b(?:moves?|walks?|goes|arrives|ends\s+up)\b[^.;\n]*?\b(?:to|at)\s*" + CELL
    + r"|\b(?:stays|remains)\s+(?:at\s*)?" + CELL,
    _I,
)
_GENERIC_PRED = re.compile(r"\b([a-z_][a-z0-9_-]*)\s+(?:does\s+not\s+hold|holds)\s+for\b", _I)

# failure reasons by the words of the clause, checked in this order
_REASONS = (
    ("edge", re.compile(r"\bedge\b|outside\s+the\s+grid|off\s+the\s+grid|leave\s+the\s+grid", _I)),
    ("wall", re.compile(r"\bwall\b", _I)),
    ("hole", re.compile(r"\bhole\b", _I)),
    ("goal", re.compile(r"\bgoal\b", _I)),
    ("block", re.compile(r"\bblock\b", _I)),
    ("coin", re.compile(r"\bcoin\b", _I)),
    ("ball", re.compile(r"\bball\b", _I)),
    ("unknown", re.compile(r"\bno\s+operator\b", _I)),
)


# precondition phrases: (object, present pattern, absent pattern), canonical words from the dataset
def _pre_patterns(obj: str, article: str) -> tuple[re.Pattern, re.Pattern]:
    absent = (
        rf"\b(?:is\s+not|isn't|not)\s+{article}\s+{obj}\b"
        rf"|\b(?:with|has|holds|contains|there\s+is)\s+no\s+{obj}s?\b"
        rf"|\bwithout\s+{article}\s+{obj}\b"
        rf"|\b(?:and|,)\s+no\s+{obj}s?(?=\s+(?:above|below|left|right|to\s+the))"
    )
    present = rf"\b(?:is|holds|has|contains|with|there\s+is)\s+{article}\s+{obj}\b"
    return re.compile(present, _I), re.compile(absent, _I)


_PRE = {obj: _pre_patterns(obj, r"(?:an?|the)") for obj in PRECONDITION_WORDS}
_OWN_CLAUSES = (_PUSH_SEGMENT, _BLOCKS_SAME, _TILE, _STATUS, _COIN_AT, _NO_COIN, _COINS, _SO_FAR, _BY_MOVE, _COLLECTS,
                _COLLECTS_NONE)
_CLAUSE_END = re.compile(r"[.;\n]|,\s*(?:so|but)\b", _I)
_RELATIVE = re.compile(r"\s*(above|below|(?:to\s+the\s+)?left\s+of|(?:to\s+the\s+)?right\s+of)\s+(?:it|the\s+player|him|her)\b", _I)
_OFFSETS = {"above": (-1, 0), "below": (1, 0), "left": (0, -1), "right": (0, 1)}


def _preconditions(t: str, player) -> dict[str, str]:
    """``{"pre <obj> (r, c)": canonical words}`` read from a chain, first statement per field."""
    cells = [(m.start(), m.end(), (int(m.group(1)), int(m.group(2)))) for m in CELL_RE.finditer(t)]
    ends = [m.start() for m in _CLAUSE_END.finditer(t)]
    found: list[tuple[int, str, str]] = []
    for obj, (present, absent) in _PRE.items():
        for pat, words in ((present, PRECONDITION_WORDS[obj][0]), (absent, PRECONDITION_WORDS[obj][1])):
            for m in pat.finditer(t):
                start = max((e for e in ends if e < m.start()), default=-1)
                ref = next((c for a, b, c in reversed(cells) if start < a and b <= m.start()), None)
                rel = _RELATIVE.match(t, m.end())
                if rel is not None:
                    ref = ref if ref is not None else player
                    if ref is None:
                        continue
                    rel_words = rel.group(1).lower().split()
                    dr, dc = _OFFSETS[rel_words[-2] if rel_words[-1] == "of" else rel_words[-1]]
                    ref = (ref[0] + dr, ref[1] + dc)
                if ref is None:
                    continue
                found.append((m.start(), precondition_field(obj, fmt_cell(ref)), words))
    out: dict[str, str] = {}
    for _pos, name, words in sorted(found):
        out.setdefault(name, words)
    return out


def _cell_text(m: re.Match, i: int = 1) -> str:
    return fmt_cell((int(m.group(i)), int(m.group(i + 1))))


def _failure_clause(text: str) -> str | None:
    """The clause that says why the action is not applicable, or None."""
    m = _SO_NA.search(text)
    if m is not None:
        head = text[: m.start()]
        start = max(head.rfind(". "), head.rfind(".\n"), head.rfind("\n"))
        sentence = head[start + 1 :] if start >= 0 else head
        cut = [mm.end() for mm in re.finditer(r",\s*but\s+", sentence, _I)]
        return sentence[cut[-1] :] if cut else sentence
    m = _BLOCKED_BY.search(text)
    return m.group(1) if m else None


def _reason(clause: str) -> str | None:
    for name, pat in _REASONS:
        if pat.search(clause):
            return name
    m = _GENERIC_PRED.search(clause)
    return m.group(1).lower() if m else None


def extract_keywords(text) -> dict[str, list[str]]:
    """Keyword fields read from a reasoning text: ``{field: [value, ...]}``; never raises.

    Values are in the dataset's canonical spelling (cells ``(r, c)``, lower
    case words); most fields have one value, ``block_pushed_from`` /
    ``block_pushed_to`` one per pushed block. Fields not found are absent.
    """
    try:
        return _extract(completion_text(text))
    except Exception:  # noqa: BLE001 - contract: never raises (the tests fuzz _extract itself)
        return {}


def _extract(t: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}

    def put(name: str, value: str | None) -> None:
        if value is not None and name not in out:
            out[name] = [value]

    m = _PLAYER_BEFORE.search(t)
    put("player_before", _cell_text(m) if m else None)
    player = (int(m.group(1)), int(m.group(2))) if m else None
    for m in _ACTION_IS.finditer(t):
        a = normalize_action(m.group(1))
        if a is not None:
            put("action", a)
            break
    if "action" not in out:
        m = _MOVES.search(t)
        if m is not None:
            put("action", f"move {m.group(1).lower()}" + (f" {int(m.group(2))}" if m.group(2) else ""))
    if _NOT_APPLICABLE.search(t):
        put("applicable", "not applicable")
        clause = _failure_clause(t)
        if clause is not None:
            put("blocked_by", _reason(clause))
            cm = CELL_RE.search(clause)
            put("blocked_cell", _cell_text(cm) if cm else None)
    elif _APPLIES.search(t):
        put("applicable", "applies")
    m = _PLAYER_AFTER.search(t)
    if m is not None:
        put("player_after", _cell_text(m))
    else:
        m = _ENDS_AT.search(t)
        if m is not None:
            put("player_after", _cell_text(m, 1) if m.group(1) is not None else _cell_text(m, 3))
    if "applicable" not in out and "player_after" in out and player is not None and out["player_after"][0] != fmt_cell(player):
        put("applicable", "applies")  # "the player moves up to (1,3)": a move that happened applied
    for name, words in _preconditions(t, player).items():
        put(name, words)
    m = _PUSH_SEGMENT.search(t)
    if m is not None:
        pairs = list(_PUSH_PAIR.finditer(m.group(1)))
        if pairs:
            out["block_pushed_from"] = [_cell_text(p, 1) for p in pairs]
            out["block_pushed_to"] = [_cell_text(p, 3) for p in pairs]
    if _BLOCKS_SAME.search(t):
        put("blocks", "remain the same")
    m = _TILE.search(t)
    put("tile_after", m.group(1).lower() if m else None)
    m = _STATUS.search(t)
    put("status_after", m.group(1).lower() if m else None)
    m = _COIN_AT.search(t)
    put("coin_eaten_at", _cell_text(m) if m else None)
    if _NO_COIN.search(t):
        put("coin_eaten", "no coin")
    m = _COINS.search(t)
    put("collected_after", str(int(m.group(1))) if m else None)
    m = _SO_FAR.search(t)
    if m is not None:
        for cm in _COLOUR_COUNT.finditer(m.group(1)):
            colour = cm.group(1).lower()
            put("collected_" + colour, f"{colour} {int(cm.group(2))}")
    m = _BY_MOVE.search(t)  # svot's earlier wording: "collected by this move: red 1, green 0"
    if m is not None:
        counts = {cm.group(1).lower(): int(cm.group(2)) for cm in _COLOUR_COUNT.finditer(m.group(1))}
        put("balls_collected", collection_phrase(counts))
    if "balls_collected" not in out:
        m = _COLLECTS.search(t)
        if m is not None:
            items = [(cm.group(2).lower(), int(cm.group(1))) for cm in _COLLECTS_ITEM.finditer(m.group(1))]
            put("balls_collected", collection_phrase(dict(items)))
        elif _COLLECTS_NONE.search(t):
            put("balls_collected", collection_phrase({}))
    _effect_fields(t, put)
    return out


_CLAUSE_END = re.compile(r"\.(?![0-9])|\n")
_EFFECT_LABEL = re.compile(r"^[a-z][a-z ]*$")


def _effect_fields(t: str, put) -> None:
    """The generic effect clauses after the player's (``DomainSpec.effect_clauses``' default):
    ``Player position changes to (1, 3); lit: (1, 2), (1, 3).`` -> ``lit_after``. A clause that one
    of the rules above reads (``tile: frozen``, ``block positions change: ...``) is theirs."""
    m = _PLAYER_AFTER.search(t)
    if m is None:
        return
    sentence = _CLAUSE_END.split(t[m.end():], maxsplit=1)[0]
    for clause in sentence.split(";")[1:]:
        label, colon, value = clause.partition(":")
        label = " ".join(label.lower().split())
        if colon and value.strip() and _EFFECT_LABEL.match(label) and not any(r.search(clause) for r in _OWN_CLAUSES):
            put(effect_field(label), norm_words(value))


# --------------------------------------------------------------------------- truth


def keyword_dict(keywords) -> dict[str, list[str]]:
    """The ground truth's keywords grouped by field: ``{field: [value, ...]}``, values normalized.

    Accepts the dataset's list of ``{"field", "value"}`` dicts (or
    ``(field, value)`` pairs), or a mapping ``field -> value`` / ``field ->
    [values]``. Raises :class:`~svot.metrics.MetricError` when malformed.
    """
    items: list[tuple[str, str]] = []
    if isinstance(keywords, Mapping):
        for k, v in keywords.items():
            for x in v if isinstance(v, (list, tuple)) else [v]:
                items.append((k, x))
    elif isinstance(keywords, Iterable) and not isinstance(keywords, (str, bytes)):
        for kw in keywords:
            if isinstance(kw, Mapping) and "field" in kw and "value" in kw:
                items.append((kw["field"], kw["value"]))
            elif isinstance(kw, (list, tuple)) and len(kw) == 2:
                items.append((kw[0], kw[1]))
            else:
                raise MetricError(f"a keyword must be {{'field': ..., 'value': ...}}, got {kw!r}")
    else:
        raise MetricError(f"keywords must be a list of {{'field', 'value'}} dicts or a mapping, got {type(keywords).__name__}")
    out: dict[str, list[str]] = {}
    for k, v in items:
        if not isinstance(k, str) or not isinstance(v, (str, int)) or isinstance(v, bool):
            raise MetricError(f"keyword field names and values must be strings, got {k!r}: {v!r}")
        out.setdefault(k, []).append(_norm_value(k, str(v)))
    return out


def _norm_value(name: str, value: str) -> str:
    if name == "action":
        return normalize_action(value) or norm_words(value)
    return norm_words(value)


# --------------------------------------------------------------------------- reward


@dataclass(frozen=True)
class ReasoningScore:
    """Result of :func:`reasoning_reward` / :func:`visual_reasoning_reward`.

    Attributes:
        reward: ``r_c``, the fraction of the truth's fields matched exactly.
        matches: per field of ``P(c)``, whether the prediction got it.
        predicted: the fields read from the prediction.
    """

    reward: float
    matches: dict = field(default_factory=dict)
    predicted: dict = field(default_factory=dict)

    def __float__(self) -> float:
        return self.reward


def _same(pred: list[str] | None, truth: list[str]) -> bool:
    """Equal as multisets (extracted values are already canonical)."""
    return pred is not None and sorted(pred) == sorted(truth)


def reasoning_reward(prediction, keywords, *, fields: Sequence[str] | None = None) -> ReasoningScore:
    """``r_c`` of a predicted reasoning text against the ground truth's keywords (Eq. 6).

    ``fields`` restricts ``P(c)`` to those of the truth's fields (e.g.
    ``("player_before", "player_after")``); default: all of them. A field
    holding several values (a push of several blocks) matches when the
    multisets of values are equal.
    """
    truth = keyword_dict(keywords)
    if fields is not None:
        if isinstance(fields, str) or not isinstance(fields, Iterable):
            raise MetricError(f"fields must be a sequence of field names, got {fields!r}")
        fs = tuple(fields)
        missing = [f for f in fs if f not in truth]
        if missing:
            raise MetricError(f"the ground truth has no keyword field(s) {missing}; it has {', '.join(truth)}")
    else:
        fs = tuple(truth)
    if not fs:
        raise MetricError("the ground truth has no keyword fields to score")
    got = extract_keywords(prediction)
    matches = {f: _same(got.get(f), truth[f]) for f in fs}
    return ReasoningScore(sum(matches.values()) / len(fs), matches, got)


def field_group(name: str) -> str:
    """The column a keyword field is reported under in per-field tables.

    Object preconditions (``pre block (1, 3)``...) go under ``preconditions``;
    per-colour running totals of collected items under one column
    (``collected``: right when every colour is), a pushed-block effect under
    ``blocks`` and an eaten-coin effect under ``coin_eaten``.
    """
    if name.startswith("pre "):
        return "preconditions"
    if name.startswith("balls_collected_"):
        return "balls_collected"
    if name.startswith("collected_") and name != "collected_after":
        return "collected"
    if name in ("block_pushed_from", "block_pushed_to"):
        return "blocks"
    if name == "coin_eaten_at":
        return "coin_eaten"
    return name


# --------------------------------------------------------------------------- c^v

_CHANGE = re.compile(CELL + r"\s*:\s*([^;.\n]*)", _I)
# an event is "<object> <verb>": the verb is found first and the object is the text since the last
# event. A lazy "(.+?)\s+verb" retried from every start would be quadratic on a long segment; the
# look-behind makes a whitespace run match only from its first character, so each search is linear.
_EVENT_VERB = re.compile(r"(?<!\s)\s+(leaves|arrives|appears|disappears)\b", _I)
_NO_CHANGE = re.compile(r"\bno\s+cells?\s+changes?\b|\bnothing\s+changes\b|\bimage\s+is\s+the\s+same\b", _I)


def visual_chain_fields(text) -> dict[str, str]:
    """Fields of a visualization chain: ``{"(r, c)": "a red ball leaves; the player arrives"}``; never raises.

    Each changed cell is one field whose value is its events (``<object>
    leaves`` / ``<object> arrives``) sorted; a chain that says no cell changes
    gives ``{"changes": "none"}``.
    """
    try:
        return _visual_fields(completion_text(text))
    except Exception:  # noqa: BLE001 - contract: never raises (the tests fuzz _visual_fields itself)
        return {}


def _events(segment: str):
    """``(object, verb)`` pairs of a change segment, left to right, in one pass."""
    pos = 0
    while True:
        k = _EVENT_VERB.search(segment, pos + 1)  # the object is at least one character
        if k is None:
            return
        yield segment[pos:k.start()], k.group(1)
        pos = k.end()


def _visual_fields(t: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _CHANGE.finditer(t):
        events = sorted(f"{norm_words(obj)} {verb.lower()}" for obj, verb in _events(m.group(3)))
        if events:
            out.setdefault(_cell_text(m), "; ".join(events))
    if not out and _NO_CHANGE.search(t):
        out["changes"] = "none"
    return out


def visual_reasoning_reward(prediction, truth_text: str) -> ReasoningScore:
    """``r_c`` of a predicted visualization chain ``c_i^v`` against the ground-truth chain text."""
    if not isinstance(truth_text, str):
        raise MetricError(f"the ground-truth chain must be a string, got {type(truth_text).__name__}")
    truth = visual_chain_fields(truth_text)
    if not truth:
        raise MetricError(f"no cell changes can be read from the ground-truth chain {truth_text[:80]!r}")
    got = visual_chain_fields(prediction)
    matches = {f: got.get(f) == v for f, v in truth.items()}
    return ReasoningScore(sum(matches.values()) / len(truth), matches, got)
