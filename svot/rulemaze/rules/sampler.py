"""Compose new well-formed rules of a requested difficulty, with English from templates.

Every rule is built from a *shape* (a template with slots) and literals
drawn from the scenario's vocabulary; the same shape produces both the logic
and the sentence, so they say the same thing:

RegularMaze
    easy    ``NOT Zone(t,c)``                "Never enter a c cell."
            ``NOT Move(t,d)``                "Never move d."
            ``Move(t,d)``                    "Every move must be d."
            (only these 14 easy rules exist: a single literal allows little else)
    medium  ``C -> K``                       "If <C>, you <K>."
            ``NOT Zone(t,c1) AND NOT Zone(t,c2)``  "Never enter a cell that is c1 or c2."
            ``Move(t,d1) OR Move(t,d2)``     "Every move must be d1 or d2."
            ``NOT (Move(t-1,d) AND Move(t,d))``  "Never move d twice in a row."
    hard    ``(C1 AND C2) -> K``, ``(C1 OR C2) -> K``, ``C -> (K1 AND K2)``,
            ``C -> (K1 OR K2)``, three forbidden colours.

QuestMaze
    easy    one literal                      "You <K>."
    medium  ``C -> K``, ``K1 AND K2``, ``K1 OR K2``
    hard    ``(C1 AND C2) -> K``, ``(C1 OR C2) -> K``, ``C -> (K1 AND K2)``,
            ``C -> (K1 OR K2)``, ``K1 AND K2 AND K3``

Conditions ``C`` are about the current or previous step (RegularMaze:
``Zone(t)``, ``Zone(t-1)``, ``Move(t-1)``) or the whole journey (QuestMaze);
constraints ``K`` about the next step (``Move(t)``, ``Zone(t+1)``) or the
whole journey. Phrases come from :mod:`.english`.

A candidate is kept only when its atoms are distinct and, on a fixed set of
probe trajectories, it is neither always true nor always false (so no
tautologies or contradictions). Sampling uses only the given
``numpy.random.Generator``.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

import numpy as np

from svot.rulemaze import symbols as S
from svot.rulemaze.rules import ast as A
from svot.rulemaze.rules import english as E
from svot.rulemaze.rules.analysis import DIFFICULTIES, difficulty as _difficulty
from svot.rulemaze.rules.compiler import compile_rule
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.rules.printer import format_formula
from svot.rulemaze.scenario import get_scenario
from svot.rulemaze.trajectory import Trajectory

_COUNTS = (("food", ">=", 2), ("food", ">=", 3), ("key", ">=", 2), ("heart", ">=", 2),
           ("total_items", ">=", 2), ("total_items", ">=", 3), ("total_items", "<=", 1),
           ("total_items", "<=", 2), ("food", "<=", 1), ("key", "==", 1), ("heart", "==", 1),
           ("total_items", "==", 2))


def _pick(rng: np.random.Generator, seq):
    return seq[int(rng.integers(len(seq)))]


def _lit(atom, positive: bool):
    return atom if positive else A.Not(atom)


# ----------------------------------------------------------------- time-indexed rules (RegularMaze)
def _timed_condition(rng, kind: int | None = None):
    """0: ``Zone(t,c)``, 1: ``Zone(t-1,c)``, 2: ``Move(t-1,d)``."""
    kind = int(rng.integers(3)) if kind is None else kind
    if kind == 0:
        return A.Zone(0, _pick(rng, S.COLOURS))
    if kind == 1:
        return A.Zone(-1, _pick(rng, S.COLOURS))
    return A.Move(-1, _pick(rng, S.DIRECTIONS))


def _timed_constraint(rng, kind: int | None = None):
    kind = int(rng.integers(2)) if kind is None else kind
    if kind == 0:
        return A.Move(0, _pick(rng, S.DIRECTIONS))
    return A.Zone(1, _pick(rng, S.COLOURS))


def _if_sentence(cond_text: str, then_text: str) -> str:
    return E.sentence(f"if {cond_text}, {then_text}")


def _timed_rule(difficulty: str, rng) -> tuple[object, str]:
    if difficulty == "easy":
        shape = int(rng.integers(5))
        if shape < 3:
            c = _pick(rng, S.COLOURS)
            return A.Not(A.Zone(0, c)), E.sentence(f"never enter {E.article(E.colour(c))} cell")
        d = _pick(rng, S.DIRECTIONS)
        if shape == 3:
            return A.Not(A.Move(0, d)), E.sentence(f"never move {d}")
        return A.Move(0, d), E.sentence(f"every move must be {d}")
    if difficulty == "medium":
        shape = int(rng.integers(4))
        if shape == 0:
            c, k, pos = _timed_condition(rng), _timed_constraint(rng), bool(rng.random() < 0.5)
            return A.Implies(c, _lit(k, pos)), _if_sentence(E.condition(c), "you " + E.duty(k, pos))
        if shape == 1:
            c1, c2 = (S.COLOURS[int(i)] for i in rng.choice(len(S.COLOURS), 2, replace=False))
            return (A.And(A.Not(A.Zone(0, c1)), A.Not(A.Zone(0, c2))),
                    E.sentence(f"never enter a cell that is {E.colour(c1)} or {E.colour(c2)}"))
        if shape == 2:
            d1, d2 = (S.DIRECTIONS[int(i)] for i in rng.choice(4, 2, replace=False))
            return A.Or(A.Move(0, d1), A.Move(0, d2)), E.sentence(f"every move must be {d1} or {d2}")
        d = _pick(rng, S.DIRECTIONS)
        return (A.Not(A.And(A.Move(-1, d), A.Move(0, d))),
                E.sentence(f"never move {d} twice in a row"))
    shape = int(rng.integers(5))
    if shape == 0:  # (C1 AND C2) -> K
        kinds = sorted(int(i) for i in rng.choice(3, 2, replace=False))
        conds = [_timed_condition(rng, kind) for kind in kinds]
        k, pos = _timed_constraint(rng), bool(rng.random() < 0.5)
        c1, c2 = conds
        if kinds == [0, 2]:  # Zone(t) with Move(t-1): "entered a c cell by moving d"
            c1, c2 = c2, c1
            cond_text = f"you have just entered {E.article(E.colour(c2.colour))} cell by moving {c1.direction}"
        elif kinds == [1, 2]:
            cond_text = f"you have just left {E.article(E.colour(c1.colour))} cell by moving {c2.direction}"
        else:
            cond_text = f"{E.condition(c1)} and {E.condition(c2)}"
        return A.Implies(A.And(c1, c2), _lit(k, pos)), _if_sentence(cond_text, "you " + E.duty(k, pos))
    if shape == 1:  # (C1 OR C2) -> K with two current colours
        c1, c2 = (S.COLOURS[int(i)] for i in rng.choice(len(S.COLOURS), 2, replace=False))
        k, pos = _timed_constraint(rng), bool(rng.random() < 0.5)
        cond_text = f"you are on {E.article(E.colour(c1))} or {E.colour(c2)} cell"
        return (A.Implies(A.Or(A.Zone(0, c1), A.Zone(0, c2)), _lit(k, pos)),
                _if_sentence(cond_text, "you " + E.duty(k, pos)))
    if shape == 2:  # C -> (K1 AND K2), one move and one next-zone constraint
        c = _timed_condition(rng)
        order = [0, 1] if rng.random() < 0.5 else [1, 0]
        ks = [(_timed_constraint(rng, kind), bool(rng.random() < 0.5)) for kind in order]
        text = "you " + E.join_and([E.duty(k, p) for k, p in ks])
        return (A.Implies(c, A.And(_lit(*ks[0]), _lit(*ks[1]))),
                _if_sentence(E.condition(c), text))
    if shape == 3:  # C -> (K1 OR K2), positive constraints
        c = _timed_condition(rng)
        if rng.random() < 0.5:
            d1, d2 = (S.DIRECTIONS[int(i)] for i in rng.choice(4, 2, replace=False))
            return (A.Implies(c, A.Or(A.Move(0, d1), A.Move(0, d2))),
                    _if_sentence(E.condition(c), f"your next move must be {d1} or {d2}"))
        k1, k2 = _timed_constraint(rng, 0), _timed_constraint(rng, 1)
        return (A.Implies(c, A.Or(k1, k2)),
                _if_sentence(E.condition(c), f"you must {E.bare(k1)}, {E.bare(k2)}, or both"))
    cols = [S.COLOURS[int(i)] for i in rng.choice(len(S.COLOURS), 3, replace=False)]
    f = A.And(A.And(A.Not(A.Zone(0, cols[0])), A.Not(A.Zone(0, cols[1]))), A.Not(A.Zone(0, cols[2])))
    words = [E.colour(c) for c in cols]
    return f, E.sentence(f"never enter a cell that is {words[0]}, {words[1]}, or {words[2]}")


# ----------------------------------------------------------------- history rules (QuestMaze)
def _history_atom(rng):
    kind = int(rng.integers(4))
    if kind == 0:
        return A.Seen(_pick(rng, S.ITEMS))
    if kind == 1:
        return A.Moved(_pick(rng, S.DIRECTIONS))
    if kind == 2:
        return A.Count(*_pick(rng, _COUNTS))
    return A.TargetIs(_pick(rng, S.TARGETS))


def _history_literal(rng, positive_only: bool = False):
    atom = _history_atom(rng)
    positive = True if positive_only or (isinstance(atom, A.Count) and atom.op == "==") \
        else bool(rng.random() < 0.6)
    return atom, positive


def _history_rule(difficulty: str, rng) -> tuple[object, str]:
    if difficulty == "easy":
        k, p = _history_literal(rng)
        return _lit(k, p), E.sentence("you " + E.duty(k, p))
    if difficulty == "medium":
        shape = int(rng.integers(3))
        if shape == 0:
            (c, cp), (k, kp) = _history_literal(rng), _history_literal(rng)
            return (A.Implies(_lit(c, cp), _lit(k, kp)),
                    _if_sentence(E.condition(c, cp), "you " + E.duty(k, kp)))
        if shape == 1:
            (k1, p1), (k2, p2) = _history_literal(rng), _history_literal(rng)
            return (A.And(_lit(k1, p1), _lit(k2, p2)),
                    E.sentence("you " + E.join_and([E.duty(k1, p1), E.duty(k2, p2)])))
        (k1, _), (k2, _) = _history_literal(rng, True), _history_literal(rng, True)
        return A.Or(k1, k2), E.sentence(f"you must {E.bare(k1)}, {E.bare(k2)}, or both")
    shape = int(rng.integers(5))
    if shape in (0, 1):
        (c1, p1), (c2, p2), (k, kp) = (_history_literal(rng) for _ in range(3))
        node, word = (A.And, "and") if shape == 0 else (A.Or, "or")
        return (A.Implies(node(_lit(c1, p1), _lit(c2, p2)), _lit(k, kp)),
                _if_sentence(f"{E.condition(c1, p1)} {word} {E.condition(c2, p2)}",
                             "you " + E.duty(k, kp)))
    if shape == 2:
        (c, cp), (k1, p1), (k2, p2) = (_history_literal(rng) for _ in range(3))
        return (A.Implies(_lit(c, cp), A.And(_lit(k1, p1), _lit(k2, p2))),
                _if_sentence(E.condition(c, cp), "you " + E.join_and([E.duty(k1, p1), E.duty(k2, p2)])))
    if shape == 3:
        (c, cp) = _history_literal(rng)
        (k1, _), (k2, _) = _history_literal(rng, True), _history_literal(rng, True)
        return (A.Implies(_lit(c, cp), A.Or(k1, k2)),
                _if_sentence(E.condition(c, cp), f"you must {E.bare(k1)}, {E.bare(k2)}, or both"))
    lits = [_history_literal(rng) for _ in range(3)]
    f = A.And(A.And(_lit(*lits[0]), _lit(*lits[1])), _lit(*lits[2]))
    return f, E.sentence("you " + E.join_and([E.duty(k, p) for k, p in lits]))


#: A rule family (:data:`svot.rulemaze.rules.ast.FAMILIES`) -> the composer of its rules.
FAMILY_BUILDERS = {"time-indexed": _timed_rule, "history": _history_rule}


# ----------------------------------------------------------------- checks
@lru_cache(maxsize=None)
def _probes(scenario: str) -> tuple[Trajectory, ...]:
    kind = get_scenario(scenario)
    rng = np.random.default_rng(20240607)
    out = []
    for _ in range(600):
        length = int(rng.integers(2, 9))
        actions = tuple(_pick(rng, S.DIRECTIONS) for _ in range(length))
        # plain cells (twice as likely) or painted ones on the way, and a goal at the end
        inner = (S.NORMAL, S.NORMAL) + kind.paint_symbols
        middle = tuple(_pick(rng, inner) for _ in range(length - 1))
        goals = kind.goal_symbols
        end = goals[0] if len(goals) == 1 else _pick(rng, goals)  # (a draw only when there is a choice)
        out.append(Trajectory((kind.start_symbol,) + middle + (end,), actions))
    return tuple(out)


def _topic(atom):
    if isinstance(atom, (A.Seen, A.Count)):
        return ("item", atom.item)
    if isinstance(atom, A.TargetIs):
        return ("target",)
    return atom


def is_well_formed(formula, scenario: str) -> bool:
    """Each atom about a different thing (one atom per item kind, per direction
    of ``Moved``, one ``TargetIs``; time-indexed atoms distinct), and neither
    always true nor always false on the probe trajectories."""
    topics = [_topic(a) for a in A.atoms(formula)]
    if len(set(topics)) != len(topics):
        return False
    v = compile_rule(formula)
    verdicts = set()
    for t in _probes(S.normalize_scenario(scenario)):
        verdicts.add(v.check(t))
        if len(verdicts) == 2:
            return True
    return False


def _rule_id(scenario: str, difficulty: str, logic: str) -> str:
    short = get_scenario(scenario).rule_id_prefix
    return f"sampled-{short}-{difficulty}-{hashlib.sha1(logic.encode()).hexdigest()[:10]}"


def sample_rule(scenario: str, difficulty: str, rng: np.random.Generator, *,
                max_tries: int = 1000) -> Rule:
    """One new well-formed rule of ``difficulty`` for ``scenario``."""
    scenario = S.normalize_scenario(scenario)
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"difficulty must be one of {DIFFICULTIES}, got {difficulty!r}")
    build = FAMILY_BUILDERS[get_scenario(scenario).rule_family]
    for _ in range(max_tries):
        formula, text = build(difficulty, rng)
        if _difficulty(formula) != difficulty or not is_well_formed(formula, scenario):
            continue
        logic = format_formula(formula)
        rule = Rule.make(_rule_id(scenario, difficulty, logic), text, logic, scenario)
        return rule
    raise ValueError(f"could not sample a well-formed {difficulty} {scenario} rule "
                     f"in {max_tries} draws")


def sample_rules(scenario: str, difficulty: str, n: int, rng: np.random.Generator, *,
                 exclude=()) -> list[Rule]:
    """``n`` distinct sampled rules whose logic differs from each other and from
    the rules (or logic strings) in ``exclude``."""
    scenario = S.normalize_scenario(scenario)
    taken = {getattr(r, "logic", r) for r in exclude}
    out: list[Rule] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 200 * (n + 1):
            raise ValueError(f"only {len(out)} distinct new {difficulty} {scenario} rules found "
                             f"after {tries - 1} draws; asked for {n}")
        rule = sample_rule(scenario, difficulty, rng)
        if rule.logic not in taken:
            taken.add(rule.logic)
            out.append(rule)
    return out
