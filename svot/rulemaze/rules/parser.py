"""Recursive-descent parser for CNF-style rule strings (RuleMaze Table 7).

Grammar (keywords and predicate names are case-insensitive)::

    formula  := disj [ "->" formula ]            right-associative, lowest precedence
    disj     := conj { "OR" conj }               left-associative
    conj     := unary { "AND" unary }            left-associative
    unary    := "NOT" unary | "(" formula ")" | atom
    atom     := Zone "(" time "," value ")"      | Move "(" time "," value ")"
              | Seen "(" value ")"               | Moved "(" value ")"
              | Count "(" value "," cmp "," int ")" | TargetIs "(" value ")"
    time     := "t" | "t" ("+"|"-") int          offsets -1, 0, +1 only
    value    := "quoted string" | bare_word      case-insensitive; "blue-green" = "blue_green"
    cmp      := "<" | "<=" | "==" | ">=" | ">"   (also "≥", "≤")

Unicode ``¬ ∧ ∨ →`` are accepted for ``NOT AND OR ->``. Every error is a
:class:`~svot.rulemaze.errors.RuleError` pointing at the offending column.

Depth is bounded by construction: every node records the height of its
subtree, and a node higher than :data:`MAX_DEPTH` (a flat chain of 500 ANDs
is 500 high) is refused where it is built. Everything downstream (hashing,
printing, compiling, evaluating) recurses over the tree, so this bound is
what keeps them within Python's stack.
"""

from __future__ import annotations

from svot.rulemaze import symbols as S
from svot.rulemaze.errors import RuleError
from svot.rulemaze.rules import ast as A
from svot.rulemaze.rules import lexer as L
from svot.rulemaze.scenario import scenarios

MAX_DEPTH = 100
MAX_OFFSET = 1

PREDICATES = {"zone": "Zone", "move": "Move", "seen": "Seen", "moved": "Moved",
              "count": "Count", "targetis": "TargetIs"}
#: The predicates each scenario's rules may use: those of its rule family.
SCENARIO_PREDICATES = {s.name: tuple(atom.__name__ for atom in A.FAMILIES[s.rule_family]) for s in scenarios()}


class _Parser:
    def __init__(self, text: str, scenario: str | None):
        self.text = text
        self.scenario = scenario
        self.tokens = L.tokenize(text)
        self.i = 0
        self.depth = 0
        self.heights: dict[int, int] = {}  # id(node) -> height of its subtree (atoms are 1)

    def node(self, cls, tok: L.Token, *kids):
        """``cls(*kids)``, refused when the tree would grow higher than MAX_DEPTH."""
        height = 1 + max(self.heights.get(id(k), 1) for k in kids)
        if height > MAX_DEPTH:
            raise self.error(f"formula nested more than {MAX_DEPTH} levels deep (each AND, OR, -> and NOT "
                             f"is a level, also in a flat chain); split the rule", tok)
        made = cls(*kids)
        self.heights[id(made)] = height
        return made

    # helpers -----------------------------------------------------------
    @property
    def tok(self) -> L.Token:
        return self.tokens[self.i]

    def error(self, reason: str, tok: L.Token | None = None) -> RuleError:
        tok = tok or self.tok
        return RuleError(reason, self.text, tok.pos)

    def describe(self, tok: L.Token) -> str:
        return "the end of the rule" if tok.kind == L.END else repr(tok.text)

    def expect(self, kind: str, what: str) -> L.Token:
        tok = self.tok
        if tok.kind != kind:
            raise self.error(f"expected {what} but found {self.describe(tok)}")
        self.i += 1
        return tok

    # grammar -----------------------------------------------------------
    def formula(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"formula nested more than {MAX_DEPTH} levels deep")
        left = self.disjunction()
        if self.tok.kind == L.ARROW:
            op = self.tok
            self.i += 1
            left = self.node(A.Implies, op, left, self.formula())
        self.depth -= 1
        return left

    def disjunction(self):
        node = self.conjunction()
        while self.tok.kind == L.OR:
            op = self.tok
            self.i += 1
            node = self.node(A.Or, op, node, self.conjunction())
        return node

    def conjunction(self):
        node = self.unary()
        while self.tok.kind == L.AND:
            op = self.tok
            self.i += 1
            node = self.node(A.And, op, node, self.unary())
        return node

    def unary(self):
        tok = self.tok
        if tok.kind == L.NOT:
            self.i += 1
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error(f"formula nested more than {MAX_DEPTH} levels deep", tok)
            node = self.node(A.Not, tok, self.unary())
            self.depth -= 1
            return node
        if tok.kind == L.LPAREN:
            self.i += 1
            node = self.formula()
            if self.tok.kind != L.RPAREN:
                raise self.error(f"expected ')' to close the '(' at column {tok.pos + 1} "
                                 f"but found {self.describe(self.tok)}")
            self.i += 1
            return node
        if tok.kind == L.NAME:
            return self.atom()
        raise self.error(f"expected a predicate, NOT or '(' but found {self.describe(tok)}")

    def atom(self):
        tok = self.tok
        name = PREDICATES.get(tok.text.lower())
        if name is None:
            raise self.error(f"unknown predicate {tok.text!r} (expected one of: "
                             f"{', '.join(PREDICATES.values())})")
        if self.scenario is not None and name not in SCENARIO_PREDICATES[self.scenario]:
            raise self.error(f"predicate {name} is not available in {self.scenario} rules "
                             f"(use {', '.join(SCENARIO_PREDICATES[self.scenario])})")
        self.i += 1
        self.expect(L.LPAREN, f"'(' after {name}")
        if name in ("Zone", "Move"):
            offset = self.time()
            self.expect(L.COMMA, "','")
            if name == "Zone":
                node = A.Zone(offset, self.value(S.ZONE_COLOURS, "colour"))
            else:
                node = A.Move(offset, self.value(S.DIRECTIONS, "direction"))
        elif name == "Seen":
            node = A.Seen(self.value(S.ITEMS, "item"))
        elif name == "Moved":
            node = A.Moved(self.value(S.DIRECTIONS, "direction"))
        elif name == "TargetIs":
            node = A.TargetIs(self.value(S.TARGETS, "target"))
        else:
            item = self.value(S.ITEMS + (S.TOTAL_ITEMS,), "item")
            self.expect(L.COMMA, "','")
            op_tok = self.tok
            if op_tok.kind != L.CMP:
                raise self.error(f"expected a comparison operator ({', '.join(S.COMPARISON_OPS)}) "
                                 f"but found {self.describe(op_tok)}")
            if op_tok.value not in S.COMPARISON_OPS:
                raise self.error(f"unknown operator {op_tok.text!r} (expected one of: "
                                 f"{', '.join(S.COMPARISON_OPS)})")
            self.i += 1
            self.expect(L.COMMA, "','")
            num = self.expect(L.INT, "a non-negative integer")
            node = A.Count(item, op_tok.value, num.value)
        self.expect(L.RPAREN, f"')' to close {name}(")
        return node

    def time(self) -> int:
        tok = self.tok
        if tok.kind != L.NAME or tok.text.lower() != "t":
            raise self.error(f"expected the time variable t (t, t-1 or t+1) but found "
                             f"{self.describe(tok)}")
        self.i += 1
        if self.tok.kind != L.SIGN:
            return 0
        sign = self.tok
        self.i += 1
        num = self.expect(L.INT, f"an integer after 't{sign.text}'")
        offset = num.value if sign.text == "+" else -num.value
        if abs(offset) > MAX_OFFSET:
            raise self.error(f"time offset t{sign.text}{num.text} is not supported "
                             f"(use t-1, t or t+1)", tok)
        return offset

    def value(self, allowed: tuple[str, ...], what: str) -> str:
        tok = self.tok
        if tok.kind not in (L.STRING, L.NAME):
            raise self.error(f"expected a quoted {what} but found {self.describe(tok)}")
        raw = tok.value if tok.kind == L.STRING else tok.text
        key = "_".join(raw.strip().lower().replace("-", " ").split())
        if key not in allowed:
            shown = ", ".join(S.DISPLAY.get(a, a) for a in allowed)
            raise self.error(f"unknown {what} {raw!r} (expected one of: {shown})")
        self.i += 1
        return key


def parse_formula(text: str, scenario: str | None = None):
    """Parse a rule string into an AST (:mod:`.ast`).

    Args:
        text: the rule, e.g. ``'Zone(t,"blue") -> Move(t,"right")'``.
        scenario: when given (``"RegularMaze"`` / ``"QuestMaze"``), predicates of
            the other scenario are rejected (Table 7 splits them by scenario).

    Raises:
        RuleError: with the rule, the column and a caret under it.
    """
    if scenario is not None:
        scenario = S.normalize_scenario(scenario)
    p = _Parser(text, scenario)
    if p.tok.kind == L.END:
        raise p.error("empty rule")
    node = p.formula()
    if p.tok.kind != L.END:
        if p.tok.kind == L.RPAREN:
            raise p.error("unbalanced ')'")
        raise p.error(f"unexpected {p.describe(p.tok)} after a complete formula "
                      f"(missing AND / OR / -> ?)")
    return node
