"""English phrases for rule literals, used by the rule sampler's templates.

Each function returns a fragment for one literal (an atom with a polarity)
in one grammatical role:

* ``condition`` -- a clause after "If" (subject "you" or "your ..."):
  ``you are on a blue cell``, ``your last move was up``, ``you pick up a key``;
* ``duty`` -- a verb phrase after "you" carrying its own modal:
  ``must move right next``, ``must never pick up a key``;
* ``bare`` -- the same verb phrase without the modal, for "you must A, B, or both":
  ``move right next``, ``pick up a key``.

Only the literal forms the sampler produces are covered; anything else raises
``ValueError`` so a template can never print an unchecked sentence.
"""

from __future__ import annotations

from svot.rulemaze.rules import ast as A

COLOUR_WORDS = {"blue_green": "blue-green"}
_NOUNS = {"food": ("piece of food", "pieces of food"), "key": ("key", "keys"),
          "heart": ("heart", "hearts"), "total_items": ("item in total", "items in total")}
_QUANT = {">=": "at least", ">": "more than", "<=": "at most", "<": "fewer than", "==": "exactly"}
_NEGATED_OP = {">=": "<", ">": "<=", "<=": ">", "<": ">="}
_NUMBERS = {0: "zero", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def colour(c: str) -> str:
    return COLOUR_WORDS.get(c, c)


def article(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def item_phrase(item: str, negative: bool = False) -> str:
    """``a key``, ``a heart``, ``some food`` (``any food`` in a negative sentence)."""
    if item == "food":
        return "any food" if negative else "some food"
    return article(item)


def _count_phrase(item: str, op: str, value: int) -> str:
    singular, plural = _NOUNS[item]
    noun = singular if value == 1 else plural
    return f"{_QUANT[op]} {_NUMBERS.get(value, str(value))} {noun}"


def _count_literal(atom: A.Count, positive: bool) -> tuple[str, int]:
    op = atom.op
    if not positive:
        if op not in _NEGATED_OP:
            raise ValueError(f"no English for a negated {op!r} count")
        op = _NEGATED_OP[op]
    return op, atom.value


def condition(atom, positive: bool = True) -> str:
    """A clause usable after "If"."""
    if isinstance(atom, A.Zone) and atom.offset == 0:
        return f"you are {'' if positive else 'not '}on {article(colour(atom.colour))} cell"
    if isinstance(atom, A.Zone) and atom.offset == -1:
        return (f"you have just left {article(colour(atom.colour))} cell" if positive
                else f"the cell you just left was not {colour(atom.colour)}")
    if isinstance(atom, A.Move) and atom.offset == -1:
        return f"your last move was {'' if positive else 'not '}{atom.direction}"
    if isinstance(atom, A.Seen):
        return f"you pick up {item_phrase(atom.item)}" if positive else f"you collect no {atom.item}"
    if isinstance(atom, A.Moved):
        return f"you ever move {atom.direction}" if positive else f"you never move {atom.direction}"
    if isinstance(atom, A.Count):
        op, value = _count_literal(atom, positive)
        return f"you collect {_count_phrase(atom.item, op, value)}"
    if isinstance(atom, A.TargetIs):
        return f"your journey {'ends' if positive else 'does not end'} at the {atom.target}"
    raise ValueError(f"no condition phrase for {atom!r}")


def bare(atom, positive: bool = True) -> str:
    """A modal-free verb phrase (positive literals only)."""
    if not positive:
        raise ValueError("bare phrases exist for positive literals only")
    if isinstance(atom, A.Move) and atom.offset == 0:
        return f"move {atom.direction} next"
    if isinstance(atom, A.Zone) and atom.offset == 1:
        return f"step onto {article(colour(atom.colour))} cell next"
    if isinstance(atom, A.Seen):
        return f"pick up {item_phrase(atom.item)}"
    if isinstance(atom, A.Moved):
        return f"move {atom.direction} at least once"
    if isinstance(atom, A.Count):
        return f"collect {_count_phrase(atom.item, atom.op, atom.value)}"
    if isinstance(atom, A.TargetIs):
        return f"end at the {atom.target}"
    raise ValueError(f"no verb phrase for {atom!r}")


def duty(atom, positive: bool = True) -> str:
    """A verb phrase with its modal ("must ..." / "must not ..." / "must never ...")."""
    if positive:
        return "must " + bare(atom)
    if isinstance(atom, A.Move) and atom.offset == 0:
        return f"must not move {atom.direction} next"
    if isinstance(atom, A.Zone) and atom.offset == 1:
        return f"must not step onto {article(colour(atom.colour))} cell next"
    if isinstance(atom, A.Seen):
        return f"must never pick up {item_phrase(atom.item, True)}"
    if isinstance(atom, A.Moved):
        return f"must never move {atom.direction}"
    if isinstance(atom, A.Count):
        op, value = _count_literal(atom, False)
        return f"must collect {_count_phrase(atom.item, op, value)}"
    if isinstance(atom, A.TargetIs):
        return f"must not end at the {atom.target}"
    raise ValueError(f"no verb phrase for {atom!r}")


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def join_and(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return f"{parts[0]} and {parts[1]}"
    return ", ".join(parts[:-1]) + ", and " + parts[-1]
