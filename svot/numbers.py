"""The one rule for a number written in text svot reads: ASCII digits only.

``str.isdigit()`` is true for ``'²'`` and other digits ``int()`` refuses, and ``int()``
itself accepts any Unicode decimal digit (``int('٣') == 3``), underscores (``'1_0'``) and
surrounding whitespace. So a check made with one and a conversion made with the other
disagree, and the disagreement became an internal error (``--maps-per-split ²``,
a distance in ``move up ²``). Every parser of a count, a size, a seed, a cell index or a
distance in user text (command-line options included: :mod:`svot.cli` registers
:func:`argparse_int` for ``type=int``) decides with :func:`is_ascii_digits` or converts
with :func:`parse_int`.
"""

from __future__ import annotations

from svot.errors import ConfigError, SvotError

__all__ = ["argparse_float", "argparse_int", "is_ascii_digits", "parse_int", "small_int"]


def is_ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of ``0123456789`` and nothing else."""
    return isinstance(text, str) and text.isascii() and text.isdigit()


def small_int(text: str, max_digits: int = 9) -> int | None:
    """The value of ``text`` if it is 1..``max_digits`` ASCII digits, else None (for lenient readers of
    cell indices, distances and counts: a 5,000-digit number is as unreadable as a word)."""
    return int(text) if is_ascii_digits(text) and len(text) <= max_digits else None


def parse_int(text: str, *, what: str = "value", error: type[Exception] = ConfigError, signed: bool = True) -> int:
    """The integer ``text`` writes in ASCII digits (an optional sign when ``signed``; spaces around
    are ignored); else ``error`` naming ``what`` and the text."""
    t = str(text).strip()
    body = t[1:] if signed and t[:1] in ("+", "-") else t
    if not is_ascii_digits(body):
        raise error(f"{what}: {text!r} is not an integer (ASCII digits expected)")
    try:
        return int(t)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        raise error(f"{what}: {len(body)} digits is too many for an integer") from None


def argparse_int(text: str) -> int:
    """``type=int`` for argparse by this module's rule (argparse turns the ValueError into its usage error)."""
    try:
        return parse_int(text)
    except SvotError:
        raise ValueError(text) from None


def argparse_float(text: str) -> float:
    """``type=float`` for argparse: ASCII text only (``float('١.٥')`` is 1.5)."""
    if not str(text).isascii():
        raise ValueError(text)
    return float(text)
