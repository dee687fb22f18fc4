"""Static properties of a rule formula: difficulty and semantic types.

Difficulty
----------
The paper ranks rules "by the number of logical connectives". We count the
*binary* connectives (AND, OR, ->); NOT is a polarity marker on a single
condition and is not counted:

==========  ==================  =====================================================
difficulty  binary connectives  example
==========  ==================  =====================================================
easy        0                   ``NOT Zone(t,"yellow")`` ("Never enter yellow.")
medium      1                   ``Zone(t,"blue") -> Move(t,"right")``
hard        2 or more           ``(Move(t-1,"up") AND Zone(t,"blue_green")) -> Move(t,"right")``
==========  ==================  =====================================================

The authors' tiers (``tiers="authors"``)
----------------------------------------
The authors' rule-generation prompts (state 1 of their pipeline) assign tiers
differently, and their labels are what their rule files carry:

* RegularMaze: "Easy (1 dimension)", "Medium (2 dimensions)", "Hard (3+
  dimensions)", with examples "Never enter yellow" (1), "If in blue, must
  move right" (2), "If moved up into blue_green, must move right next" (3).
  svot counts dimensions as the distinct predicates used (Zone, Move) plus
  the distinct time steps beyond the first (t-1, t, t+1): the three examples
  give 1, 2 and 3. "Never move up twice in a row" (Move at t-1 and t) is
  medium, "Stay out of yellow and orange" (one predicate, one step) easy.
* QuestMaze: "Easy: Seen, Moved or NOT forms", "Medium: Count", "Hard:
  (TargetIs(A) -> ...) AND (TargetIs(B) -> ...)": a rule with an implication
  that involves ``TargetIs`` (target-conditional) is hard, else a rule with
  ``Count`` is medium, else easy.

Semantic types (appendix C.1; not mutually exclusive)
-----------------------------------------------------
* **direction-dependent**: mentions a move direction (a ``Move`` or ``Moved`` atom).
* **history-dependent**: needs information about earlier steps: a ``t-1`` term,
  or ``Seen``, ``Moved`` or ``Count`` (which summarise the path so far).
  ``TargetIs`` is about the end point and does not count.
* **requirement** / **prohibition**: the formula is split into condition and
  constraint by peeling implications (``A -> B``: ``A`` is condition, ``B``
  constraint, recursively; a formula without ``->`` is all constraint). Each
  constraint atom gets a polarity (flipped by NOT). A positive atom is a
  requirement, a negative one a prohibition; ``Count`` with ``<`` or ``<=``
  states a limit, so it counts the other way round, and ``==`` is both.
"""

from __future__ import annotations

from svot.errors import ConfigError
from svot.rulemaze import symbols as S
from svot.rulemaze.rules import ast as A
from svot.rulemaze.scenario import scenarios

DIFFICULTIES = ("easy", "medium", "hard")
#: Difficulty schemes: the paper's connective count, or the authors' prompt tiers.
TIERS = ("paper", "authors")
SEMANTIC_TYPES = ("direction-dependent", "history-dependent", "requirement", "prohibition")


def connective_count(formula) -> int:
    """Number of binary connectives (AND, OR, ->) in ``formula``."""
    return sum(1 for n in A.walk(formula) if isinstance(n, A.BINARY))


def difficulty(formula) -> str:
    """``"easy"`` (0 binary connectives), ``"medium"`` (1) or ``"hard"`` (2+)."""
    k = connective_count(formula)
    return DIFFICULTIES[min(k, 2)]


def dimensions(formula) -> int:
    """The authors' RegularMaze "dimensions": distinct predicates + extra time steps."""
    timed = [a for a in A.atoms(formula) if isinstance(a, A.TIME_ATOMS)]
    kinds = {type(a) for a in timed}
    offsets = {a.offset for a in timed}
    return len(kinds) + max(0, len(offsets) - 1)


def authors_difficulty(formula) -> str:
    """The tier the authors' generation prompts give (see the module docstring)."""
    nodes = A.atoms(formula)
    if any(isinstance(a, A.TIME_ATOMS) for a in nodes):
        return DIFFICULTIES[min(max(dimensions(formula), 1), 3) - 1]
    if any(isinstance(n, A.Implies) and any(isinstance(a, A.TargetIs) for a in A.atoms(n))
           for n in A.walk(formula)):
        return "hard"
    if any(isinstance(a, A.Count) for a in nodes):
        return "medium"
    return "easy"


def difficulty_under(formula, tiers: str = "paper") -> str:
    """``difficulty`` (``tiers="paper"``) or ``authors_difficulty`` (``"authors"``)."""
    if tiers == "paper":
        return difficulty(formula)
    if tiers == "authors":
        return authors_difficulty(formula)
    raise ConfigError(f"difficulty tiers: expected one of {list(TIERS)}, got {tiers!r}")


def _constraint_literals(node, positive: bool, out: list) -> None:
    if isinstance(node, A.Not):
        _constraint_literals(node.operand, not positive, out)
    elif isinstance(node, (A.And, A.Or)):
        _constraint_literals(node.left, positive, out)
        _constraint_literals(node.right, positive, out)
    elif isinstance(node, A.Implies):
        # A nested implication inside a constraint: its consequent still constrains.
        if positive:
            _constraint_literals(node.right, positive, out)
        else:  # NOT (A -> B) == A AND NOT B
            _constraint_literals(node.left, True, out)
            _constraint_literals(node.right, False, out)
    else:
        out.append((node, positive))


def constraint_literals(formula) -> list:
    """``(atom, positive)`` pairs of the constraint part (see module docstring)."""
    node = formula
    while isinstance(node, A.Implies):
        node = node.right
    out: list = []
    _constraint_literals(node, True, out)
    return out


def semantic_types(formula) -> tuple[str, ...]:
    """The semantic types of ``formula``, in :data:`SEMANTIC_TYPES` order."""
    nodes = A.atoms(formula)
    types = []
    if any(isinstance(a, (A.Move, A.Moved)) for a in nodes):
        types.append("direction-dependent")
    if any(isinstance(a, (A.Seen, A.Moved, A.Count)) or (isinstance(a, A.TIME_ATOMS) and a.offset < 0)
           for a in nodes):
        types.append("history-dependent")
    req = pro = False
    for atom, positive in constraint_literals(formula):
        if isinstance(atom, A.Count) and atom.op == "==":
            req = pro = True
        elif isinstance(atom, A.Count) and atom.op in ("<", "<="):
            pro |= positive
            req |= not positive
        else:
            req |= positive
            pro |= not positive
    if req:
        types.append("requirement")
    if pro:
        types.append("prohibition")
    return tuple(types)


def scenario_of(formula) -> str | None:
    """The scenario whose rule family the formula's predicates all belong to, or None when it
    mixes families."""
    nodes = A.atoms(formula)
    for scenario in scenarios():
        if all(isinstance(a, A.FAMILIES[scenario.rule_family]) for a in nodes):
            return scenario.name
    return None


def is_time_indexed(formula) -> bool:
    """Whether the formula has a ``Zone``/``Move`` term (and so holds per step)."""
    return any(isinstance(a, A.TIME_ATOMS) for a in A.atoms(formula))


def referenced_symbols(formula) -> tuple[str, ...]:
    """Colours, items and targets named by the formula (sorted, no ``total_items``)."""
    out = set()
    for a in A.atoms(formula):
        if isinstance(a, A.Zone):
            out.add(a.colour)
        elif isinstance(a, (A.Seen, A.Count)) and a.item != S.TOTAL_ITEMS:
            out.add(a.item)
        elif isinstance(a, A.TargetIs):
            out.add(a.target)
    return tuple(sorted(out))
