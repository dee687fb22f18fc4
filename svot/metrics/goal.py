"""Goal accuracy: classification (a letter A–D) and free response (the final state's goal fields).

**Classification.** :func:`extract_choice` finds the chosen letter in free text,
trying in order (the first rule that gives exactly one letter wins):

1. the whole answer is a letter: ``B``, ``(b)``, ``C.``, ``**D**``;
2. an explicit statement, the *last* one in the text: ``The answer is (B)``,
   ``Answer: C``, ``correct option is D``, ``I choose A``;
3. lines that start with a letter label (``B. Player: ...``, ``(C) ...``), if
   they all name the same letter;
4. letters in parentheses ``(B)``, if only one letter is named so;
5. standalone capital letters A–D, if only one letter occurs;
6. with ``choices`` given: the text contains exactly one choice's text (spacing
   and case ignored), or (with ``domain``) parses to exactly one choice's goal.

Otherwise the answer has no letter (None) and counts as wrong.

**Free response.** :func:`parse_answer` reads the goal fields from text in the
datasets' answer format (``Player: (1, 2); blocks: (2, 2), (3, 3)``,
``Collected coins: 3; player: (1, 2)``, ``Collected balls: red 1, green 0;
player: (0, 3)``, ``Player: (1, 0); tile: frozen``) with the renderer's
lenient reader (labels in any case and order, the last value of a field
wins); :func:`answer_correct` is the exact match of *every* goal field, with
the same canonical equality as :mod:`svot.metrics.state` (cell sets for
blocks; colours left out count as zero).
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from svot.metrics._text import completion_text
from svot.metrics.errors import MetricError
from svot.metrics.state import _kinds, _spec, canonical
from svot.render.text import parse_fields

__all__ = ["LETTERS", "answer_correct", "answer_matches", "choice_correct", "extract_choice", "parse_answer"]

LETTERS = "ABCD"

_MARKUP = re.compile(r"[*_`#>]+")
_ONLY = re.compile(r"^\s*(?:option\s*|choice\s*)?[\(\[]?\s*([A-Da-d])\s*[\)\]]?\s*[.:!]?\s*$", re.IGNORECASE)
_STATEMENT = re.compile(
    r"(?i:\b(?:answer|choice|option|pick|choose|select|selected|chosen)\b)"
    r"(?i:\s*(?:is|would\s+be|will\s+be|:|=|-)?\s*(?:the\s+)?(?:option|choice|letter)?)\s*"
    r"(?:[\(\[]\s*([A-Da-d])\s*[\)\]]|([A-D])(?![A-Za-z0-9']))"
)
_LINE_LABEL = re.compile(r"^\s*[\(\[]?([A-D])\s*[\)\].:]", re.MULTILINE)
_PAREN = re.compile(r"[\(\[]\s*([A-D])\s*[\)\]]")
_SPACE_RUN = re.compile(r"\s+")
_BARE = re.compile(r"(?<![A-Za-z0-9'])([A-D])(?![A-Za-z0-9'])")


def _one(letters) -> str | None:
    s = {x.upper() for x in letters}
    return s.pop() if len(s) == 1 else None


def _squash(text: str) -> str:
    return "".join(text.lower().split()).strip(".;")


def extract_choice(text, choices: Sequence | None = None, *, domain: str | None = None) -> str | None:
    """The letter (``"A"``..``"D"``) chosen in ``text`` (a string or a chat completion), or None.

    ``choices``: the four choice texts (``choices`` column) to recognise an
    answer that repeats a choice instead of naming its letter (whitespace and
    case ignored). With ``domain``, the answer is also parsed and compared
    with each choice's goal (choices may then be goal dicts, ``choice_goals``),
    so a restatement in another order or spacing is recognised too. Never
    raises on ``text``.
    """
    try:
        return _extract_choice(completion_text(text), choices, domain)
    except MetricError:
        raise
    except Exception:  # noqa: BLE001 - contract: never raises on the text
        return None


def _collapse_space(text: str) -> str:
    """Each whitespace run as one character (a newline if it holds one).

    The letter patterns put ``\\s*`` next to ``^`` and to each other; on a long
    whitespace run a regex engine retries such a run from every start, which is
    quadratic. One character per run keeps every pattern's meaning and makes
    each retry O(1); ``\\s+`` on its own is matched in one linear pass.
    """
    return _SPACE_RUN.sub(lambda m: "\n" if "\n" in m.group() else " ", text)


def _extract_choice(text: str, choices, domain) -> str | None:
    t = _collapse_space(_MARKUP.sub(" ", text))
    m = _ONLY.match(t)
    if m:
        return m.group(1).upper()
    found = [(mm.group(1) or mm.group(2)) for mm in _STATEMENT.finditer(t)]
    if found:
        return found[-1].upper()
    for pat in (_LINE_LABEL, _PAREN, _BARE):
        letters = pat.findall(t)
        if letters:
            one = _one(letters)
            if one is not None:
                return one
            if pat is _LINE_LABEL:  # a list of labelled lines: not a single answer
                continue
    if choices:
        return _match_choices(t, list(choices), domain)
    return None


def _match_choices(text: str, choices: list, domain) -> str | None:
    if len(choices) > len(LETTERS):
        raise MetricError(f"at most {len(LETTERS)} choices, got {len(choices)}")
    squashed = _squash(text)
    hits = [i for i, c in enumerate(choices) if isinstance(c, str) and _squash(c) and _squash(c) in squashed]
    if len(hits) == 1:
        return LETTERS[hits[0]]
    if domain is not None:
        goals = [c if isinstance(c, Mapping) else parse_answer(domain, c) if isinstance(c, str) else None for c in choices]
        hits = [i for i, g in enumerate(goals) if g and answer_correct(domain, text, g)]
        if len(hits) == 1:
            return LETTERS[hits[0]]
    return None


def choice_correct(text, correct: str, choices: Sequence | None = None, *, domain: str | None = None) -> bool:
    """Whether the letter chosen in ``text`` is ``correct``."""
    if not isinstance(correct, str) or correct.strip().upper() not in LETTERS or not correct.strip():
        raise MetricError(f"the correct choice must be one of A, B, C, D, got {correct!r}")
    return extract_choice(text, choices, domain=domain) == correct.strip().upper()


# --------------------------------------------------------------------------- free response


def parse_answer(domain, text, fields: Sequence[str] | None = None) -> dict:
    """The goal fields readable in a free-response answer (raw values); never raises on ``text``.

    ``fields``: which state fields to keep (default: all the domain's fields).
    """
    spec = _spec(domain)
    got = parse_fields(spec, completion_text(text))
    keys = [f.key for f in spec.fields] if fields is None else list(fields)
    return {k: got[k] for k in keys if k in got}


def answer_matches(domain, text, goal: Mapping) -> dict[str, bool]:
    """Per goal field (the keys of ``goal``, e.g. the dataset's ``goal`` JSON), whether ``text`` gets it exactly."""
    spec = _spec(domain)
    kinds = _kinds(spec)
    if not isinstance(goal, Mapping) or not goal:
        raise MetricError(f"goal must be a non-empty dict of goal fields, got {goal!r}")
    unknown = [k for k in goal if k not in kinds or k == "action"]
    if unknown:
        raise MetricError(f"unknown {spec.name} goal field(s) {unknown}")
    want = {}
    for k, v in goal.items():
        c = canonical(kinds[k], v)
        if c is None:
            raise MetricError(f"the ground-truth goal field {k!r} is malformed: {v!r}")
        want[k] = c
    got = parse_answer(spec.name, text, list(goal))
    return {k: (k in got and canonical(kinds[k], got[k]) == want[k]) for k in goal}


def answer_correct(domain, text, goal: Mapping) -> bool:
    """Free-response accuracy: every goal field of ``goal`` read from ``text`` and exactly equal."""
    return all(answer_matches(domain, text, goal).values())
