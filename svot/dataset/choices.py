"""Four-choice goal questions (SVoT A.7): the truth and three valid, nearby distractors.

A choice is a goal configuration (the fields of :data:`svot.dataset.wording.GOAL_FIELDS`).
Rules, checked by :func:`check_choices` and the tests:

* exactly one choice equals the truth; no two choices are equal (as dicts or as text);
* **distance**: every coordinate of a distractor lies within Manhattan distance 2
  of the true coordinate it stands for (the player's of the player; Sokoban
  blocks: some one-to-one pairing of distractor and true blocks, each pair
  within 2);
* **validity**: positions inside the grid and not on a wall; Sokoban blocks on
  distinct cells, never under the player; counts in ``0..total`` (Gather: per
  colour); FrozenLake tiles are one of start/frozen/hole/goal and, where
  possible, the tile the map really has at that position;
* **one partially correct distractor** (at least one): it agrees with the truth
  on one answer field and differs on another: right position and wrong count
  (or blocks, or tile), or wrong position and right count (blocks, tile).
  Maze asks for a position only; there a partially correct distractor keeps
  one coordinate (same row or same column). So does FrozenLake's when no cell
  within distance 2 has the truth's tile (the player on the start, the goal
  or a lone hole): "right position, wrong tile" would contradict the map.
* **reachable** (Pacman, Gather; a preference, not a rule): when the caller
  passes ``reachable``, distractors that some action sequence reaches are
  drawn first and unreachable ones only when too few reachable ones exist.

Position distractors are drawn from the cells at distance 1–2; counts from
the values within ±2 of the truth. When no valid set exists (a Maze player
boxed in by walls with fewer than three free cells within distance 2),
:func:`build_choices` returns None and the caller draws another action sequence.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from svot.dataset.wording import GOAL_FIELDS, answer_text

LETTERS = "ABCD"
MAX_DISTANCE = 2
TILES = ("start", "frozen", "hole", "goal")


def manhattan(a, b) -> int:
    return abs(int(a[0]) - int(b[0])) + abs(int(a[1]) - int(b[1]))


def near_cells(cell, size: int, blocked=frozenset(), dmax: int = MAX_DISTANCE) -> list[list[int]]:
    """Cells at Manhattan distance 1..dmax from ``cell``, inside the grid and not blocked, row-major."""
    out = []
    r0, c0 = int(cell[0]), int(cell[1])
    for r in range(max(0, r0 - dmax), min(size, r0 + dmax + 1)):
        for c in range(max(0, c0 - dmax), min(size, c0 + dmax + 1)):
            d = abs(r - r0) + abs(c - c0)
            if 1 <= d <= dmax and (r, c) not in blocked:
                out.append([r, c])
    return out


def _tile_at(initial: dict, cell) -> str:
    cell = list(cell)
    if cell in initial["holes"]:
        return "hole"
    if cell == initial["goal"]:
        return "goal"
    if cell == initial.get("start", initial["player"]):
        return "start"
    return "frozen"


def _totals(domain: str, initial: dict) -> dict | int:
    if domain == "pacman":
        return int(initial["total"])
    if domain == "gather":
        return {c: len(initial["balls"][c]) + int(initial["collected"].get(c, 0)) for c in initial["balls"]}
    return 0


def _near_counts(value: int, total: int) -> list[int]:
    return [v for v in range(max(0, value - MAX_DISTANCE), min(total, value + MAX_DISTANCE) + 1) if v != value]


def _candidates(domain: str, truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
    """(partially correct pool, other pool) of valid distractors, in a deterministic order."""
    size = int(initial["size"])
    walls = {tuple(w) for w in initial.get("walls", [])}
    p = truth["player"]
    partial: list[dict] = []
    other: list[dict] = []
    if domain == "maze":
        for q in near_cells(p, size, walls):
            (partial if (q[0] == p[0] or q[1] == p[1]) else other).append({"player": q})
    elif domain == "frozenlake":
        t = truth["tile"]
        for q in near_cells(p, size):
            tq = _tile_at(initial, q)
            (partial if tq == t else other).append({"player": q, "tile": tq})
        if not partial:
            # A.7 "require all candidates to be valid": "right position, wrong tile"
            # contradicts the map, so the partially correct distractor keeps one
            # coordinate instead (as in Maze), with the tile its cell really has.
            keep = [c for c in other if c["player"][0] == p[0] or c["player"][1] == p[1]]
            partial = keep
            other = [c for c in other if c not in keep]
    elif domain == "sokoban":
        blocks = [list(b) for b in truth["blocks"]]
        bset = {tuple(b) for b in blocks}
        players = near_cells(p, size, walls | bset)
        block_sets = []
        for i, b in enumerate(blocks):
            for q in near_cells(b, size, walls | bset):
                new = sorted(blocks[:i] + [q] + blocks[i + 1 :])
                block_sets.append(new)
        for bs in block_sets:
            if list(p) not in bs:
                partial.append({"player": list(p), "blocks": bs})
        for q in players:
            partial.append({"player": q, "blocks": blocks})
        for q in players:
            for bs in block_sets:
                if q not in bs:
                    other.append({"player": q, "blocks": bs})
    elif domain == "pacman":
        total = _totals(domain, initial)
        values = _near_counts(int(truth["collected"]), total)
        cells = near_cells(p, size)
        partial = [{"collected": v, "player": list(p)} for v in values]
        partial += [{"collected": truth["collected"], "player": q} for q in cells]
        other = [{"collected": v, "player": q} for q in cells for v in values]
    elif domain == "gather":
        totals = _totals(domain, initial)
        values = []
        for colour, n in truth["collected"].items():
            for v in _near_counts(int(n), totals.get(colour, 0)):
                values.append({**truth["collected"], colour: v})
        cells = near_cells(p, size)
        partial = [{"collected": v, "player": list(p)} for v in values]
        partial += [{"collected": dict(truth["collected"]), "player": q} for q in cells]
        other = [{"collected": v, "player": q} for q in cells for v in values]
    else:
        raise KeyError(domain)
    return partial, other


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
    fields = GOAL_FIELDS[domain]
    if len(fields) == 2:
        a, b = fields
        keep_a = [c for c in partial if c[a] == truth[a]]
        keep_b = [c for c in partial if c[b] == truth[b]]
        groups = [g for g in (keep_a, keep_b) if g]
        group = groups[int(rng.integers(len(groups)))] if groups else partial  # FrozenLake: one coordinate
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


def _blocks_near(truth_blocks, blocks) -> bool:
    if len(truth_blocks) != len(blocks):
        return False
    return any(all(manhattan(t, b) <= MAX_DISTANCE for t, b in zip(truth_blocks, perm)) for perm in permutations(blocks))


def _same_line(truth: dict, choice: dict) -> bool:
    return choice["player"][0] == truth["player"][0] or choice["player"][1] == truth["player"][1]


def is_partial(domain: str, truth: dict, choice: dict, initial: dict | None = None) -> bool:
    """Agrees with the truth on at least one answer field (Maze: one coordinate) and is not the truth.

    FrozenLake with ``initial`` given: when no cell within distance 2 has the
    truth's tile, keeping one coordinate counts (see the module docstring).
    """
    if choice == truth:
        return False
    if domain == "maze":
        return _same_line(truth, choice)
    if any(choice[f] == truth[f] for f in GOAL_FIELDS[domain]):
        return True
    if domain == "frozenlake" and initial is not None:
        lone = all(_tile_at(initial, q) != truth["tile"] for q in near_cells(truth["player"], int(initial["size"])))
        return lone and _same_line(truth, choice)
    return False


def check_choices(domain: str, truth: dict, initial: dict, choices: list[dict], correct: int) -> list[str]:
    """Every way ``choices`` breaks A.7's rules (empty when it satisfies them)."""
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
    totals = _totals(domain, initial)

    def cell_ok(q) -> bool:
        return 0 <= q[0] < size and 0 <= q[1] < size and list(q) not in walls

    for c in distractors:
        if set(c) != set(truth):
            problems.append(f"choice {c} has fields {sorted(c)}, not {sorted(truth)}")
            continue
        if not cell_ok(c["player"]) or manhattan(c["player"], truth["player"]) > MAX_DISTANCE:
            problems.append(f"player {c['player']} invalid or farther than {MAX_DISTANCE} from {truth['player']}")
        if domain == "sokoban":
            bs = c["blocks"]
            if any(not cell_ok(b) for b in bs) or len({tuple(b) for b in bs}) != len(bs) or c["player"] in bs:
                problems.append(f"blocks {bs} invalid")
            if not _blocks_near(truth["blocks"], bs):
                problems.append(f"blocks {bs} not within {MAX_DISTANCE} of {truth['blocks']}")
        if domain == "frozenlake" and c["tile"] != _tile_at(initial, c["player"]):
            problems.append(f"tile {c['tile']!r} at {c['player']} contradicts the map ({_tile_at(initial, c['player'])})")
        if domain == "pacman" and not 0 <= int(c["collected"]) <= totals:
            problems.append(f"count {c['collected']} outside 0..{totals}")
        if domain == "gather":
            if set(c["collected"]) != set(truth["collected"]):
                problems.append(f"colours {sorted(c['collected'])} differ")
            for colour, n in c["collected"].items():
                if not 0 <= int(n) <= totals.get(colour, 0):
                    problems.append(f"{colour} count {n} outside 0..{totals.get(colour, 0)}")
    return problems
