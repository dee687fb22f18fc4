"""The rule record ``{id, natural_language, logic, difficulty, scenario, semantic_type}``."""

from __future__ import annotations

from dataclasses import dataclass, field

from svot.rulemaze import symbols as S
from svot.rulemaze.rules.analysis import difficulty as _difficulty, difficulty_under, semantic_types
from svot.rulemaze.rules.parser import parse_formula
from svot.rulemaze.rules.printer import format_formula

SPLITS = ("seen", "unseen")


@dataclass(frozen=True)
class Rule:
    """One rule: its English text, its logic and what is derived from the logic.

    Attributes:
        id: unique identifier.
        natural_language: the sentence shown to the model.
        logic: canonical rule text (:func:`~.printer.format_formula`).
        difficulty: ``easy`` / ``medium`` / ``hard`` (computed, :mod:`.analysis`).
        scenario: ``RegularMaze`` or ``QuestMaze``.
        semantic_type: computed semantic types (:data:`~.analysis.SEMANTIC_TYPES`).
        split: ``seen`` / ``unseen`` for bank rules, else None.
        formula: the parsed AST (not part of the dict form).
    """

    id: str
    natural_language: str
    logic: str
    difficulty: str
    scenario: str
    semantic_type: tuple[str, ...]
    split: str | None = None
    formula: object = field(default=None, compare=False, repr=False)

    @classmethod
    def make(cls, id: str, natural_language: str, logic: str, scenario: str,
             split: str | None = None) -> "Rule":
        """Parse ``logic`` (restricted to ``scenario``'s predicates) and derive the rest.

        Raises :class:`~svot.rulemaze.errors.RuleError` on malformed logic.
        """
        scenario = S.normalize_scenario(scenario)
        formula = parse_formula(logic, scenario)
        if split is not None and split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        return cls(id=id, natural_language=natural_language, logic=format_formula(formula),
                   difficulty=_difficulty(formula), scenario=scenario,
                   semantic_type=semantic_types(formula), split=split, formula=formula)

    def difficulty_under(self, tiers: str = "paper") -> str:
        """The difficulty under the paper's connective count (``"paper"``, = ``difficulty``)
        or the authors' prompt tiers (``"authors"``, :func:`~.analysis.authors_difficulty`)."""
        return self.difficulty if tiers == "paper" else difficulty_under(self.formula, tiers)

    def to_dict(self) -> dict:
        out = {"id": self.id, "natural_language": self.natural_language, "logic": self.logic,
               "difficulty": self.difficulty, "scenario": self.scenario,
               "semantic_type": list(self.semantic_type)}
        if self.split is not None:
            out["split"] = self.split
        return out
