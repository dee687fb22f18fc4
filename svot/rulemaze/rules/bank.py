"""The built-in rule bank and loading extra rules from JSON.

Per scenario there are 30 rules, 10 per difficulty, of which 6 are *seen*
(used for training items) and 4 *unseen* (held out), as in the authors'
setup. Difficulty and semantic types are computed from the logic
(:mod:`.analysis`); the stated difficulty below is checked against it when the
bank is loaded.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from svot.jsonl import read_json_file
from svot.rulemaze import symbols as S
from svot.rulemaze.errors import RuleError, RuleFileError
from svot.rulemaze.rules.analysis import DIFFICULTIES, SEMANTIC_TYPES, TIERS, scenario_of
from svot.rulemaze.rules.parser import parse_formula
from svot.rulemaze.rules.record import SPLITS, Rule
from svot.rulemaze.scenario import scenarios

#: Each scenario's bank, (id, stated difficulty, split, natural language, logic) rows written in its
#: domain folder (``svot/domains/<name>/scenario.py``).
BANK_SOURCES = {s.name: s.rule_bank for s in scenarios()}


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
#: Largest rules file read (the authors' files are a few hundred kB).
MAX_RULE_FILE_BYTES = 64 * 1024 * 1024

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
    # regular files only, bounded, UTF-8, any nesting refused as an error (rules 1 and 9)
    data = read_json_file(path, what="a rules file", error=RuleFileError, max_bytes=MAX_RULE_FILE_BYTES)
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
