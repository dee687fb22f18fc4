"""Four-choice goal questions (SVoT A.7): the truth and three valid, nearby distractors.

A choice is a goal configuration (the fields of :meth:`DomainSpec.goal_fields
<svot.kernel.DomainSpec.goal_fields>`). This module draws and checks; what is
a valid, nearby or partially correct distractor of one domain is that domain's
(``svot/domains/<name>/wording.py``, through the spec's ``distractor_pools``,
``is_partial`` and ``choice_problems``; a domain registered from outside gets
the field-by-field rules of :mod:`svot.kernel.distractors`).
Rules, checked by :func:`check_choices` and the tests:

* exactly one choice equals the truth; no two choices are equal (as dicts or as text);
* **distance**: every coordinate of a distractor lies within Manhattan distance 2
  of the true coordinate it stands for (the player's of the player; a
  ``cells`` field: some one-to-one pairing of distractor and true cells, each
  pair within 2);
* **validity**: positions inside the grid and not on a wall; a ``cells``
  field's cells distinct, never under the player; counts in ``0..total`` (a
  ``colour_counts`` field: per colour); a ``word`` field (a tile) takes one of
  its ``word_values`` and, where possible, the word the map really has at that
  position;
* **one partially correct distractor** (at least one): it agrees with the truth
  on one answer field and differs on another: right position and wrong count
  (or blocks, or tile), or wrong position and right count (blocks, tile).
  A domain whose answer is a position only gets a partially correct distractor
  that keeps one coordinate (same row or same column). So does a tile-answer
  domain's when no cell
  within distance 2 has the truth's tile (the player on the start, the goal
  or a lone hole): "right position, wrong tile" would contradict the map.
* **reachable** (where ``DomainSpec.reachable_distractors`` is set; a preference,
  not a rule): when the caller
  passes ``reachable``, distractors that some action sequence reaches are
  drawn first and unreachable ones only when too few reachable ones exist.

Position distractors are drawn from the cells at distance 1–2; counts from
the values within ±2 of the truth. When no valid set exists (a player
boxed in by walls with fewer than three free cells within distance 2),
:func:`build_choices` returns None and the caller draws another action sequence.
"""

from __future__ import annotations

import numpy as np

from svot.dataset.wording import answer_text, goal_fields
from svot.domains import get_spec
from svot.kernel.distractors import (  # noqa: F401 - re-exported: the distractors' building blocks moved down
    MAX_DISTANCE,
    cells_near,
    manhattan,
    near_cells,
    near_counts,
    same_line,
)

LETTERS = "ABCD"


def _candidates(domain: str, truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct pool, other pool) of valid distractors, in a deterministic order."""
    return get_spec(domain).distractor_pools(truth, initial)


def _prefer(pool: list[dict], reachable) -> list[dict]:
    """``pool`` with the reachable candidates first (order otherwise kept)."""
    if reachable is None:
        return pool
    return [c for c in pool if reachable(c)] + [c for c in pool if not reachable(c)]


def build_choices(
    domain: str, truth: dict, initial: dict, correct: int, rng: np.random.Generator, reachable=None
) -> list[dict] | None:
    """Four goal configurations with the truth at index ``correct``; None if impossible.

    One distractor is drawn from the partially correct pool (for domains with
    two answer fields: first which field stays right, each with equal chance,
    then the value), two from the others (topped up from the partial pool when
    the others run short); the three go to the remaining letters in random order.

    ``reachable`` (optional, a predicate on a goal configuration): candidates
    it accepts are preferred at every draw; the others fill in only when a pool
    has too few reachable ones.
    """
    partial, other = _candidates(domain, truth, initial)
    if not partial:
        return None
    if reachable is not None:
        ok = [c for c in partial if reachable(c)]
        partial = ok or partial
    fields = goal_fields(domain)
    if len(fields) == 2:
        a, b = fields
        keep_a = [c for c in partial if c[a] == truth[a]]
        keep_b = [c for c in partial if c[b] == truth[b]]
        groups = [g for g in (keep_a, keep_b) if g]
        group = groups[int(rng.integers(len(groups)))] if groups else partial  # no candidate keeps a field: one coordinate
    else:
        group = partial
    first = group[int(rng.integers(len(group)))]
    chosen = [first]
    rest = [c for c in partial if c is not first]
    for pool in (other, rest):
        if len(chosen) == 3:
            break
        shuffled = [pool[int(i)] for i in rng.permutation(len(pool))] if pool else []
        for c in _prefer(shuffled, reachable):
            if len(chosen) == 3:
                break
            chosen.append(c)
    if len(chosen) < 3:
        return None
    slots = [i for i in range(4) if i != correct]
    slot_order = rng.permutation(3)
    out: list = [None] * 4
    out[correct] = truth
    for k, j in enumerate(slot_order):
        out[slots[int(j)]] = chosen[k]
    return out


def choice_texts(domain: str, choices: list[dict]) -> list[str]:
    return [answer_text(domain, c) for c in choices]


def format_choices(domain: str, choices: list[dict]) -> str:
    return "\n".join(f"{LETTERS[i]}. {t}" for i, t in enumerate(choice_texts(domain, choices)))


# --------------------------------------------------------------------------- checking


def is_partial(domain: str, truth: dict, choice: dict, initial: dict | None = None) -> bool:
    """Agrees with the truth on at least one answer field (position only: one coordinate), not the truth.

    A tile answer with ``initial`` given: when no cell within distance 2 has the
    truth's tile, keeping one coordinate counts (see the module docstring).
    """
    if choice == truth:
        return False
    return get_spec(domain).is_partial(truth, choice, initial)


def check_choices(domain: str, truth: dict, initial: dict, choices: list[dict], correct: int) -> list[str]:
    """Every way ``choices`` breaks A.7's rules (empty when it satisfies them)."""
    spec = get_spec(domain)
    problems = []
    size = int(initial["size"])
    walls = [list(w) for w in initial.get("walls", [])]
    if len(choices) != 4:
        problems.append(f"{len(choices)} choices, not 4")
    if sum(1 for c in choices if c == truth) != 1 or choices[correct] != truth:
        problems.append("the truth is not exactly once, at the correct letter")
    texts = choice_texts(domain, choices)
    if len(set(texts)) != len(texts):
        problems.append("duplicate choices")
    distractors = [c for i, c in enumerate(choices) if i != correct]
    if not any(is_partial(domain, truth, c, initial) for c in distractors):
        problems.append("no partially correct distractor")

    def cell_ok(q) -> bool:
        return 0 <= q[0] < size and 0 <= q[1] < size and list(q) not in walls

    for c in distractors:
        if set(c) != set(truth):
            problems.append(f"choice {c} has fields {sorted(c)}, not {sorted(truth)}")
            continue
        if not cell_ok(c["player"]) or manhattan(c["player"], truth["player"]) > MAX_DISTANCE:
            problems.append(f"player {c['player']} invalid or farther than {MAX_DISTANCE} from {truth['player']}")
        problems += spec.choice_problems(truth, c, initial)
    return problems
