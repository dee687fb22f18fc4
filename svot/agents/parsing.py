"""Reading actions out of a model's text: the env's own wording and RAGEN's answer tags.

Two formats (``EpisodeConfig.answer_format``):

* ``"plain"``: the whole text is the actions, e.g. ``"move left 3"`` or ``"up, up, right"``.
* ``"tags"``: ``<think>…</think><answer>…</answer>`` (RAGEN / VAGEN); the actions are inside
  ``<answer>``. A text without exactly one answer block is malformed.
* ``"either"`` (default): tags when an ``<answer>`` block is present, else plain.

Inside the actions text, actions are separated by ``||`` (RAGEN's separator), commas, semicolons or new
lines. Whether the text is well formed (the format reward) is reported beside the actions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ANSWER_FORMATS = ("plain", "tags", "either")
_ANSWER = re.compile(r"<answer>(.*?)</answer>", re.S | re.I)
_THINK = re.compile(r"^\s*<think>.*?</think>\s*<answer>.*?</answer>\s*$", re.S | re.I)
_SEPARATORS = re.compile(r"\|\||[,;\n]")


@dataclass(frozen=True)
class ParsedTurn:
    """The action texts found in one turn's text, and whether the text followed the format."""

    actions: tuple[str, ...]
    well_formed: bool
    error: str | None = None


def split_actions(text: str) -> tuple[str, ...]:
    """``"up || up, right"`` -> ``("up", "up", "right")`` (empty pieces dropped)."""
    return tuple(p.strip() for p in _SEPARATORS.split(text) if p.strip())


def parse_turn(text: str, answer_format: str = "either") -> ParsedTurn:
    """The actions of one turn; ``error`` says why none could be read."""
    blocks = _ANSWER.findall(text)
    if answer_format == "plain" or (answer_format == "either" and not blocks):
        actions = split_actions(text)
        return ParsedTurn(actions, bool(actions), None if actions else "no action in the text")
    if len(blocks) != 1:
        return ParsedTurn((), False, f"expected one <answer>…</answer> block, found {len(blocks)}")
    actions = split_actions(blocks[0])
    well_formed = bool(_THINK.match(text)) and bool(actions)
    return ParsedTurn(actions, well_formed, None if actions else "the <answer> block holds no action")
