"""Words for the datasets: how preconditions, effects, answers and domains are phrased.

The transition reasoning chains (:mod:`svot.dataset.transitions`) are built
generically from the PDDL operators' preconditions; the words each domain uses
for them, its description, goal question and answer format live in the domain's
folder (``svot/domains/<name>/wording.py``) and are read here through the hooks
of its :class:`~svot.kernel.DomainSpec` (section "the dataset"). A domain
registered from outside gets generic words derived from its PDDL predicate names,
kinds and fields. Nothing here decides what happens: the engine does.

Phrase templates take the ground atom's arguments, formatted: cells as
``(r, c)``, directions as words, distances ``k3`` as ``3``. Unbound
arguments (a precondition that failed while joining) are never referenced by a
failure template.
"""

from __future__ import annotations

from svot.domains import get_spec
from svot.kernel.keywords import (  # noqa: F401 - re-exported: the chain builder's vocabulary
    COLOUR_ORDER,
    PRECONDITION_WORDS,
    collection_phrase,
    colour_rank,
    precondition_field,
)
from svot.kernel.phrases import (  # noqa: F401 - re-exported: the phrase type and formats moved down
    ADJ,
    BESIDE,
    RAY,
    WALL,
    Phrase,
    cells_word,
    fmt_arg,
    fmt_cell,
    generic_phrase,
)


def phrase(domain: str, pred: str) -> Phrase:
    """How ``pred`` reads as a precondition of ``domain`` (its table's phrase, else a generic one)."""
    found = get_spec(domain).phrases.get(pred)
    return generic_phrase(pred) if found is None else found


def dataset_action_text(domain: str, action: int, size: int) -> str:
    """How the datasets write an action (an action with a distance: the paper's "move down 4 steps", §4)."""
    return get_spec(domain).dataset_action_text(action, size)


def kind_word(domain: str, kind: str) -> str:
    return get_spec(domain).kind_word(kind)


# --------------------------------------------------------------------------- answers


def goal_fields(domain: str) -> tuple[str, ...]:
    """Which state fields the goal g asks for (SVoT §4's task definitions)."""
    return get_spec(domain).goal_fields()


def goal_of(domain: str, state: dict) -> dict:
    """The goal configuration g: the fields of the final state the task asks for."""
    out = {}
    for key in goal_fields(domain):
        v = state[key]
        if isinstance(v, list):
            v = [list(x) if isinstance(x, list) else x for x in v]
        elif isinstance(v, dict):
            v = dict(v)
        out[key] = v
    return out


def answer_text(domain: str, goal: dict) -> str:
    """The free-response answer, e.g. ``Player: (1, 2); blocks: (2, 2), (3, 3)``."""
    return get_spec(domain).answer_text(goal)


def answer_format(domain: str) -> str:
    return get_spec(domain).answer_format()


def question(domain: str) -> str:
    return get_spec(domain).question()


# --------------------------------------------------------------------------- descriptions


def describe_domain(domain: str, size: int, colours: tuple[str, ...] = ()) -> str:
    """The domain description d: objects, actions, preconditions and effects."""
    return get_spec(domain).describe(size, colours)
