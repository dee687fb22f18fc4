"""The built-in rule bank and loading extra rules from JSON.

Per scenario there are 30 rules, 10 per difficulty, of which 6 are *seen*
(used for training items) and 4 *unseen* (held out), as in the authors'
setup. Difficulty and semantic types are computed from the logic
(:mod:`.analysis`); the stated difficulty below is checked against it when the
bank is loaded.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from svot.rulemaze import symbols as S
from svot.rulemaze.errors import RuleError, RuleFileError
from svot.rulemaze.rules.analysis import DIFFICULTIES, SEMANTIC_TYPES, TIERS, scenario_of
from svot.rulemaze.rules.parser import parse_formula
from svot.rulemaze.rules.record import SPLITS, Rule

# (id, stated difficulty, split, natural language, logic)
_REGULAR = (
    ("regular-easy-01", "easy", "seen", "Never enter a yellow cell.", 'NOT Zone(t,"yellow")'),
    ("regular-easy-02", "easy", "seen", "Moving into pink zones is strictly prohibited.",
     'NOT Zone(t,"pink")'),
    ("regular-easy-03", "easy", "seen", "You may never move up.", 'NOT Move(t,"up")'),
    ("regular-easy-04", "easy", "seen", "Stay out of blue cells.", 'NOT Zone(t,"blue")'),
    ("regular-easy-05", "easy", "seen", "Never move left.", 'NOT Move(t,"left")'),
    ("regular-easy-06", "easy", "seen", "Orange cells are off limits.", 'NOT Zone(t,"orange")'),
    ("regular-easy-07", "easy", "unseen", "Do not step on any purple cell.", 'NOT Zone(t,"purple")'),
    ("regular-easy-08", "easy", "unseen", "Moving down is not allowed.", 'NOT Move(t,"down")'),
    ("regular-easy-09", "easy", "unseen", "Avoid blue-green cells entirely.",
     'NOT Zone(t,"blue_green")'),
    ("regular-easy-10", "easy", "unseen", "You must never move right.", 'NOT Move(t,"right")'),

    ("regular-medium-01", "medium", "seen", "If you are in a blue cell, your next move must be right.",
     'Zone(t,"blue") -> Move(t,"right")'),
    ("regular-medium-02", "medium", "seen",
     "If you are standing in an orange zone, your next move must be up.",
     'Zone(t,"orange") -> Move(t,"up")'),
    ("regular-medium-03", "medium", "seen", "Never move up twice in a row.",
     'NOT (Move(t-1,"up") AND Move(t,"up"))'),
    ("regular-medium-04", "medium", "seen", "From a pink cell, you may not move down.",
     'Zone(t,"pink") -> NOT Move(t,"down")'),
    ("regular-medium-05", "medium", "seen",
     "If you are in a blue-green zone, the next cell you enter must be yellow.",
     'Zone(t,"blue_green") -> Zone(t+1,"yellow")'),
    ("regular-medium-06", "medium", "seen", "Every move must be either down or right.",
     'Move(t,"down") OR Move(t,"right")'),
    ("regular-medium-07", "medium", "unseen", "You may not enter a yellow cell by moving left.",
     'Move(t-1,"left") -> NOT Zone(t,"yellow")'),
    ("regular-medium-08", "medium", "unseen", "If you are on a purple cell, your next move must be left.",
     'Zone(t,"purple") -> Move(t,"left")'),
    ("regular-medium-09", "medium", "unseen",
     "Right after you leave a pink cell, your next move must not be up.",
     'Zone(t-1,"pink") -> NOT Move(t,"up")'),
    ("regular-medium-10", "medium", "unseen", "Stay out of both yellow and orange cells.",
     'NOT Zone(t,"yellow") AND NOT Zone(t,"orange")'),

    ("regular-hard-01", "hard", "seen",
     "If you moved up into a blue-green cell, your next move must be right.",
     '(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")'),
    ("regular-hard-02", "hard", "seen", "From a blue cell, you must move up or left.",
     'Zone(t,"blue") -> (Move(t,"up") OR Move(t,"left"))'),
    ("regular-hard-03", "hard", "seen", "When standing on a pink or purple cell, never move down.",
     '(Zone(t,"pink") OR Zone(t,"purple")) -> NOT Move(t,"down")'),
    ("regular-hard-04", "hard", "seen",
     "If you entered an orange cell by moving right, your next move must be down.",
     '(Move(t-1,"right") AND Zone(t,"orange")) -> Move(t,"down")'),
    ("regular-hard-05", "hard", "seen",
     "If you are on a yellow cell, you must move right next, and the cell you enter must not be yellow.",
     'Zone(t,"yellow") -> (Move(t,"right") AND NOT Zone(t+1,"yellow"))'),
    ("regular-hard-06", "hard", "seen", "You may not enter a blue or pink cell by moving left.",
     'Move(t-1,"left") -> (NOT Zone(t,"blue") AND NOT Zone(t,"pink"))'),
    ("regular-hard-07", "hard", "unseen",
     "If you are in a blue-green zone, your next move must be down or the next cell you enter "
     "must be yellow.",
     'Zone(t,"blue_green") -> (Move(t,"down") OR Zone(t+1,"yellow"))'),
    ("regular-hard-08", "hard", "unseen",
     "If you entered a purple cell by moving down, you must not move down again.",
     '(Move(t-1,"down") AND Zone(t,"purple")) -> NOT Move(t,"down")'),
    ("regular-hard-09", "hard", "unseen", "From an orange cell, your next move must be left or right.",
     'Zone(t,"orange") -> (Move(t,"left") OR Move(t,"right"))'),
    ("regular-hard-10", "hard", "unseen",
     "If you leave a yellow cell by moving up, your next move must be right.",
     '(Zone(t-1,"yellow") AND Move(t-1,"up")) -> Move(t,"right")'),
)

_QUEST = (
    ("quest-easy-01", "easy", "seen", "You must pick up a key on the way.", 'Seen("Key")'),
    ("quest-easy-02", "easy", "seen", "Do not collect any heart.", 'NOT Seen("Heart")'),
    ("quest-easy-03", "easy", "seen", "To prove his courage, the prince must move left at least once.",
     'Moved("left")'),
    ("quest-easy-04", "easy", "seen", "The prince must never move down.", 'NOT Moved("down")'),
    ("quest-easy-05", "easy", "seen", "Your journey must end at the treasure.", 'TargetIs("Treasure")'),
    ("quest-easy-06", "easy", "seen", "Collect at least two pieces of food.", 'Count("Food",>=,2)'),
    ("quest-easy-07", "easy", "unseen", "Rescue the princess: your journey must end at her cell.",
     'TargetIs("Princess")'),
    ("quest-easy-08", "easy", "unseen", "Pick up at least two items in total.",
     'Count("Total_Items",>=,2)'),
    ("quest-easy-09", "easy", "unseen", "Never touch any food.", 'NOT Seen("Food")'),
    ("quest-easy-10", "easy", "unseen", "You may carry at most one item.", 'Count("Total_Items",<=,1)'),

    ("quest-medium-01", "medium", "seen", "If you pick up a key, you must go to the treasure.",
     'Seen("Key") -> TargetIs("Treasure")'),
    ("quest-medium-02", "medium", "seen", "You may only reach the princess after collecting a heart.",
     'TargetIs("Princess") -> Seen("Heart")'),
    ("quest-medium-03", "medium", "seen", "Pick up a key, and never move up.",
     'Seen("Key") AND NOT Moved("up")'),
    ("quest-medium-04", "medium", "seen", "Collect some food, a heart, or both.",
     'Seen("Food") OR Seen("Heart")'),
    ("quest-medium-05", "medium", "seen", "If you ever move right, you must not collect any food.",
     'Moved("right") -> NOT Seen("Food")'),
    ("quest-medium-06", "medium", "seen", "You may not collect both a heart and food.",
     'NOT (Seen("Heart") AND Seen("Food"))'),
    ("quest-medium-07", "medium", "unseen", "If you collect no key, you must end at the princess.",
     'NOT Seen("Key") -> TargetIs("Princess")'),
    ("quest-medium-08", "medium", "unseen",
     "A journey that ends at the treasure must never include a move to the left.",
     'TargetIs("Treasure") -> NOT Moved("left")'),
    ("quest-medium-09", "medium", "unseen",
     "Either collect at least three items in total or end at the princess.",
     'Count("Total_Items",>=,3) OR TargetIs("Princess")'),
    ("quest-medium-10", "medium", "unseen",
     "If you collect two or more pieces of food, you must end at the treasure.",
     'Count("Food",>=,2) -> TargetIs("Treasure")'),

    ("quest-hard-01", "hard", "seen", "If you collect both a key and a heart, you must end at the princess.",
     '(Seen("Key") AND Seen("Heart")) -> TargetIs("Princess")'),
    ("quest-hard-02", "hard", "seen", "The treasure may only be reached with a key and without any food.",
     'TargetIs("Treasure") -> (Seen("Key") AND NOT Seen("Food"))'),
    ("quest-hard-03", "hard", "seen",
     "If you ever move up or left, you must collect at least two items in total.",
     '(Moved("up") OR Moved("left")) -> Count("Total_Items",>=,2)'),
    ("quest-hard-04", "hard", "seen", "Pick up a key, end at the treasure, and never move down.",
     'Seen("Key") AND TargetIs("Treasure") AND NOT Moved("down")'),
    ("quest-hard-05", "hard", "seen",
     "To end at the princess, you must carry a heart or at least two pieces of food.",
     'TargetIs("Princess") -> (Seen("Heart") OR Count("Food",>=,2))'),
    ("quest-hard-06", "hard", "seen",
     "If you collect no key, you must end at the princess and never move right.",
     'NOT Seen("Key") -> (TargetIs("Princess") AND NOT Moved("right"))'),
    ("quest-hard-07", "hard", "unseen",
     "Collect some food or a heart, and do not end at the treasure.",
     '(Seen("Food") OR Seen("Heart")) AND NOT TargetIs("Treasure")'),
    ("quest-hard-08", "hard", "unseen", "If you move both left and right, you must not pick up a key.",
     '(Moved("left") AND Moved("right")) -> NOT Seen("Key")'),
    ("quest-hard-09", "hard", "unseen",
     "Ending at the treasure requires exactly one key and at least two items in total.",
     'TargetIs("Treasure") -> (Count("Key",==,1) AND Count("Total_Items",>=,2))'),
    ("quest-hard-10", "hard", "unseen",
     "If you collect no food, you must end at the treasure or pick up a heart (or both).",
     'NOT Seen("Food") -> (TargetIs("Treasure") OR Seen("Heart"))'),
)

BANK_SOURCES = {S.REGULAR: _REGULAR, S.QUEST: _QUEST}


@lru_cache(maxsize=None)
def _bank(scenario: str) -> tuple[Rule, ...]:
    out = []
    for rid, stated, split, text, logic in BANK_SOURCES[scenario]:
        rule = Rule.make(rid, text, logic, scenario, split)
        if rule.difficulty != stated:  # guarded by a test too
            raise AssertionError(f"bank rule {rid}: stated {stated}, computed {rule.difficulty}")
        out.append(rule)
    return tuple(out)


def builtin_rules(scenario: str | None = None, *, split: str | None = None,
                  difficulty: str | None = None) -> list[Rule]:
    """Bank rules, optionally filtered by scenario, split and difficulty (bank order)."""
    scenarios = S.SCENARIOS if scenario is None else (S.normalize_scenario(scenario),)
    out = [r for sc in scenarios for r in _bank(sc)]
    if split is not None:
        out = [r for r in out if r.split == split]
    if difficulty is not None:
        out = [r for r in out if r.difficulty == difficulty]
    return out


def rule_by_id(rule_id: str) -> Rule:
    for r in builtin_rules():
        if r.id == rule_id:
            return r
    raise KeyError(rule_id)


# ------------------------------------------------------------------ JSON loading
_REQUIRED = ("natural_language", "logic")
_OPTIONAL = ("id", "scenario", "difficulty", "semantic_type", "split")
#: ``cnf_style`` is the authors' name for ``logic``.
_ALIASES = {"cnf_style": "logic"}
#: Fields of the authors' validator-code entries (the trailing dict of a rule set after
#: their state 3/4): svot compiles the logic itself, so these entries are skipped.
_AUTHORS_CODE_FIELDS = ("generated_code", "function_name", "parameters", "original_code_response")


def _clean_logic(text: str) -> str:
    """Backticks removed (the authors' code strips them too) and surrounding quotes."""
    return text.replace("`", "").strip().strip('"').strip()


def _rule_from_record(rec, path: str, index: int, seen_ids: dict, tiers: str) -> Rule:
    def fail(msg: str, fld: str | None = None):
        raise RuleFileError(msg, path=path, index=index, field=fld)

    if not isinstance(rec, dict):
        fail(f"expected a JSON object, got {type(rec).__name__}")
    for alias, name in _ALIASES.items():
        if alias in rec:
            if name in rec:
                fail(f"give either {name!r} or {alias!r}, not both", alias)
            rec = {(name if k == alias else k): v for k, v in rec.items()}
    for key in rec:
        if key not in _REQUIRED + _OPTIONAL:
            fail(f"unknown field (allowed: {', '.join(_REQUIRED + _OPTIONAL + tuple(_ALIASES))})", key)
    for key in _REQUIRED + ("id", "scenario"):
        if key not in rec:
            if key in _REQUIRED:
                fail("missing field" + (" (or 'cnf_style')" if key == "logic" else ""), key)
            continue
        if not isinstance(rec[key], str) or not rec[key].strip():
            fail(f"expected a non-empty string, got {rec[key]!r}", key)
    logic = _clean_logic(rec["logic"])
    if "scenario" in rec:
        try:
            scenario = S.normalize_scenario(rec["scenario"])
        except ValueError as exc:
            fail(str(exc), "scenario")
    else:  # the authors' files carry no scenario: the predicates tell it
        try:
            scenario = scenario_of(parse_formula(logic))
        except RuleError as exc:
            fail(str(exc), "logic")
        if scenario is None:
            fail("mixes RegularMaze (Zone/Move) and QuestMaze predicates; add a 'scenario' field",
                 "logic")
    rid = rec["id"].strip() if "id" in rec else f"{Path(path).stem}-{index + 1:03d}"
    if rid in seen_ids:
        fail(f"duplicate id {rid!r} (already used by {seen_ids[rid]})", "id")
    split = rec.get("split")
    if split is not None and split not in SPLITS:
        fail(f"expected one of {list(SPLITS)}, got {split!r}", "split")
    try:
        rule = Rule.make(rid, rec["natural_language"].strip().strip('"'), logic, scenario, split)
    except RuleError as exc:
        fail(str(exc), "logic")
    if "difficulty" in rec:
        stated = rec["difficulty"]
        if not isinstance(stated, str) or stated.strip().lower() not in DIFFICULTIES:
            fail(f"expected one of {list(DIFFICULTIES)} (any case), got {stated!r}", "difficulty")
        computed = {t: rule.difficulty_under(t) for t in TIERS}
        if stated.strip().lower() != computed[tiers]:
            other = [t for t in TIERS if t != tiers][0]
            hint = (f"; it is {computed[other]!r} under the {other} tiers, so pass "
                    f"--difficulty-tiers {other} (tiers={other!r})"
                    if stated.strip().lower() == computed[other] else
                    "; fix the label or drop the field (svot computes the difficulty)")
            fail(f"stated {stated!r} but the logic {rule.logic} is {computed[tiers]!r} under the "
                 f"{tiers} tiers ({TIER_RULES[tiers]}){hint}", "difficulty")
    if "semantic_type" in rec:
        st = rec["semantic_type"]
        if isinstance(st, str):
            st = [st]
        if not isinstance(st, list) or any(x not in SEMANTIC_TYPES for x in st):
            fail(f"expected a list drawn from {list(SEMANTIC_TYPES)}, got {rec['semantic_type']!r}",
                 "semantic_type")
        if sorted(set(st)) != sorted(rule.semantic_type):
            fail(f"stated {sorted(set(st))} but the logic gives {list(rule.semantic_type)}",
                 "semantic_type")
    return rule


TIER_RULES = {
    "paper": "easy: no AND/OR/->, medium: one, hard: two or more",
    "authors": "RegularMaze by dimensions 1/2/3+, QuestMaze: target-conditional hard, Count medium, "
               "else easy",
}


def _flatten(data: list, path: str) -> list:
    """Records in file order. The authors' rule-set files are lists of lists (one rule per
    set, possibly followed by a validator-code entry, which is dropped)."""
    out = []
    for k, entry in enumerate(data):
        if not isinstance(entry, list):
            out.append(entry)
            continue
        for rec in entry:
            if isinstance(rec, dict) and "logic" not in rec and "cnf_style" not in rec and \
                    any(f in rec for f in _AUTHORS_CODE_FIELDS):
                continue
            if isinstance(rec, list):
                raise RuleFileError(f"rule set #{k}: expected rule objects, got a nested list",
                                    path=path)
            out.append(rec)
    return out


def load_rules(path: str | os.PathLike, *, check_bank_ids: bool = True,
               tiers: str = "paper") -> list[Rule]:
    """Rules from a JSON file: svot's layout or the RuleMaze authors'.

    The file holds a list of records, ``{"rules": [...]}``, or (the authors'
    rule-set files) a list of lists of records, read in order; entries of a
    rule set that carry only the authors' validator code (``generated_code``,
    ``function_name``...) are skipped, svot compiles the logic itself.

    A record needs ``natural_language`` and ``logic`` (or the authors'
    ``cnf_style``; backticks and surrounding quotes are stripped, as the
    authors' code does). ``id`` defaults to ``<file stem>-<n>`` (n = 1-based
    rule number in the file); ``scenario`` defaults to the one whose
    predicates the logic uses. ``difficulty`` (any case: the authors write
    ``Easy``/``Medium``/``Hard``), ``semantic_type`` and ``split`` are optional
    and, when present, must agree with what the logic gives (difficulty under
    ``tiers``: ``"paper"`` or ``"authors"``, see :mod:`.analysis`). Ids must be
    unique in the file and (with ``check_bank_ids``) distinct from the bank's.

    Raises:
        RuleFileError: naming the file, the 0-based rule index and the field.
    """
    path = os.fspath(path)
    if tiers not in TIERS:
        raise RuleFileError(f"difficulty tiers: expected one of {list(TIERS)}, got {tiers!r}",
                            path=path)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise RuleFileError(f"cannot read: {exc.strerror or exc}", path=path) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RuleFileError(f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}",
                            path=path) from None
    if isinstance(data, dict):
        if set(data) != {"rules"}:
            raise RuleFileError('expected a list of rules or an object {"rules": [...]}', path=path)
        data = data["rules"]
    if not isinstance(data, list):
        raise RuleFileError(f"expected a list of rules, got {type(data).__name__}", path=path)
    seen_ids = {r.id: "the built-in bank" for r in builtin_rules()} if check_bank_ids else {}
    out = []
    for i, rec in enumerate(_flatten(data, path)):
        rule = _rule_from_record(rec, path, i, seen_ids, tiers)
        seen_ids[rule.id] = f"rule #{i}"
        out.append(rule)
    return out


def tier_changes(scenario: str | None = None) -> list[Rule]:
    """Bank rules whose group differs between the paper's and the authors' tiers."""
    return [r for r in builtin_rules(scenario) if r.difficulty != r.difficulty_under("authors")]
