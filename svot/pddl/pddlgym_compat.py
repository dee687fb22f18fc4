"""PDDLGym, the reference that runs the PDDL: imported quietly, lazily, and only on request.

PDDLGym 0.0.7 is an optional extra (``pip install "svot[pddlgym]"``): it pins
``pillow<10`` and old ``gym``, which have no wheels past Python 3.11, and
``import pddlgym`` prints gym's "unmaintained" banner and costs about two
seconds. svot parses and steps the shipped domains without it; it is imported
here only for ``engine="pddlgym"``, a domain beyond the compiled engine's
fragment, and the differential tests.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import sys
import warnings
from pathlib import Path

from svot.errors import ConfigError
from svot.pddl.domain import Domain, Operator

INSTALL_HINT = (
    "PDDLGym is not installed; it is the optional reference engine. Install it with "
    "'pip install \"svot[pddlgym]\"' (Python 3.10 or 3.11 only: PDDLGym 0.0.7 needs pillow<10, "
    "which has no wheels for newer Pythons)"
)


def pddlgym_available() -> bool:
    """Whether PDDLGym can be imported here (without importing it)."""
    return importlib.util.find_spec("pddlgym") is not None


@functools.lru_cache(maxsize=None)
def import_pddlgym_core():
    """``pddlgym.core``, imported with gym's banner and warnings silenced; a clear error if missing."""
    if not pddlgym_available():
        raise ConfigError(INSTALL_HINT)
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        import pddlgym.core as core  # optional: the 'pddlgym' extra
    return core


def quiet_gym_import() -> None:
    """Import old ``gym`` (if installed) with its banner silenced.

    Stable-Baselines3 imports ``gym`` when it is installed, and gym 0.26 then
    prints its "unmaintained" banner; importing it quietly first leaves it in
    ``sys.modules`` so that the banner never reaches the user. Only the
    ``pddlgym`` extra brings ``gym``.
    """
    if "gym" in sys.modules:
        return
    if importlib.util.find_spec("gym") is None:
        return
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        import gym  # noqa: F401  (optional: brought by the 'pddlgym' extra)


def load_domain_via_pddlgym(path: str | Path):
    """The :class:`~svot.pddl.domain.Domain` PDDLGym's parser makes of ``path``.

    svot parses with its own reader; this is the outside check that both
    readings agree (tests compare the two on every shipped domain).
    """
    import_pddlgym_core()
    from pddlgym.parser import PDDLDomainParser  # optional: the 'pddlgym' extra
    from pddlgym.structs import Literal, LiteralConjunction

    parsed = PDDLDomainParser(str(path), expect_action_preds=True, operators_as_actions=False)

    def lifted(lit):
        return (lit.predicate.name, tuple(str(v.name) for v in lit.variables))

    def flatten(struct):
        return list(struct.literals) if isinstance(struct, LiteralConjunction) else [struct]

    actions = tuple(sorted(parsed.actions))
    operators = []
    for name in sorted(parsed.operators):
        op = parsed.operators[name]
        action, pos, neg, add, delete = None, [], [], [], []
        for lit in flatten(op.preconds):
            if not isinstance(lit, Literal):
                raise ValueError(f"operator {name!r}: PDDLGym parsed a {type(lit).__name__}")
            if lit.predicate.name in actions:
                action = lifted(lit)
            elif lit.is_negative:
                neg.append(lifted(lit.positive))
            else:
                pos.append(lifted(lit))
        for lit in flatten(op.effects):
            (delete.append(lifted(lit.inverted_anti)) if lit.is_anti else add.append(lifted(lit)))
        operators.append(Operator(
            name=name, params=tuple((str(p.name), str(p.var_type)) for p in op.params), action=action,
            pre_pos=tuple(pos), pre_neg=tuple(neg), add=tuple(add), delete=tuple(delete),
        ))
    return Domain(
        name=parsed.domain_name,
        source=str(path),
        types=tuple(sorted(str(t) for t in parsed.types)),
        predicates={n: tuple(str(t) for t in p.var_types) for n, p in sorted(parsed.predicates.items())},
        action_predicates=actions,
        operators=tuple(operators),
    )
