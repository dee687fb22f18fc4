"""Tokenizer for rule strings.

Besides the ASCII spelling (``NOT``, ``AND``, ``OR``, ``->``, ``>=``...) it
accepts the logic symbols an LLM or a paper may use: ``¬ ∧ ∨ → ≥ ≤``.
"""

from __future__ import annotations

from dataclasses import dataclass

from svot.rulemaze.errors import RuleError

# kinds
NAME, STRING, INT, LPAREN, RPAREN, COMMA, CMP, ARROW, SIGN, NOT, AND, OR, END = (
    "name", "string", "int", "(", ")", ",", "comparison", "->", "sign", "NOT", "AND", "OR", "end")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    pos: int
    value: object = None


_SYMBOLS = {"¬": NOT, "∧": AND, "∨": OR, "→": ARROW}
_KEYWORDS = {"not": NOT, "and": AND, "or": OR}
_CMP_CHARS = "<>=!≥≤"


_DIGITS = frozenset("0123456789")
_MAX_DIGITS = 9  # counts and step offsets are small; longer runs are typos (and int() caps at 4,300 digits)


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens, ending with an ``END`` token; raises :class:`RuleError`."""
    if not isinstance(text, str):
        raise RuleError(f"a rule must be a string, got {type(text).__name__}", "", 0)
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "(":
            out.append(Token(LPAREN, ch, i)); i += 1
        elif ch == ")":
            out.append(Token(RPAREN, ch, i)); i += 1
        elif ch == ",":
            out.append(Token(COMMA, ch, i)); i += 1
        elif ch in _SYMBOLS:
            out.append(Token(_SYMBOLS[ch], ch, i)); i += 1
        elif text.startswith("->", i):
            out.append(Token(ARROW, "->", i)); i += 2
        elif ch in _CMP_CHARS:
            j = i + 1
            while j < n and text[j] in _CMP_CHARS and j - i < 2:
                j += 1
            raw = text[i:j]
            out.append(Token(CMP, raw, i, {"≥": ">=", "≤": "<="}.get(raw, raw))); i = j
        elif ch in "+-":
            out.append(Token(SIGN, ch, i)); i += 1
        elif ch in "\"'“”‘’":
            close = {"“": "”", "‘": "’"}.get(ch, ch)
            if ch in "”’":
                close = ch
            j = text.find(close, i + 1)
            if j < 0:
                raise RuleError("unterminated string", text, i)
            out.append(Token(STRING, text[i:j + 1], i, text[i + 1:j])); i = j + 1
        elif ch in _DIGITS:  # ASCII only: str.isdigit() also accepts '²', which int() refuses
            j = i
            while j < n and text[j] in _DIGITS:
                j += 1
            if j < n and (text[j].isalpha() or text[j] == "_" or text[j].isdigit()):
                raise RuleError(f"malformed number {text[i:j + 1]!r}", text, i)
            if j - i > _MAX_DIGITS:
                raise RuleError(f"number too long ({j - i} digits; at most {_MAX_DIGITS})", text, i)
            out.append(Token(INT, text[i:j], i, int(text[i:j]))); i = j
        elif ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            out.append(Token(_KEYWORDS.get(word.lower(), NAME), word, i)); i = j
        else:
            raise RuleError(f"unexpected character {ch!r}", text, i)
    out.append(Token(END, "", n))
    return out
