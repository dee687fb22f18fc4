"""Shortest plans for collect-everything domains, derived from the engine.

Plain breadth-first search over the engine's states is exact but too slow
here: a 6×6 board with 18 coins has millions of (cell, coins left) states, and
a 6×6 OOD board whose moves sweep whole lines took 213 s to search (1.07 M states). Such domains have one
shape: an agent action moves the player and removes the items (coins, balls) on
the cells it sweeps, and items never block a move. So the search runs on a
*move table* instead: for every cell and agent action, the destination and the
swept cells, read off the compiled engine by probing (one step from a board
full of items and one from an empty board, built by the spec's
``item_layout`` hook and read back by ``item_cells``; the two must agree on the
destination, which checks that items do not block). Nothing about the rules is
written here; what the table cannot express raises :class:`ProblemError`.

- :func:`held_karp_plan`: for domains whose moves each sweep exactly their
  destination (one-cell moves), a plan is a walk and its length is the sum of
  shortest-path distances between the items in the order they are first
  reached; the Held-Karp dynamic programme over item subsets finds the best
  order exactly (2^k × k cells; compiled with Numba, on numpy where
  ``SVOT_JIT=0``). :func:`walk_floor` bounds that length from below (a minimum
  spanning tree over the same distances) at a small fraction of the cost, so a
  caller that only wants short plans can skip the rest.
- :func:`line_cover_plan`: for domains whose moves sweep cells of one row or
  one column (multi-cell moves), A* over (cell, items left) with an admissible,
  consistent heuristic: at least as many moves remain as the minimum number of
  rows and columns covering the remaining items (a minimum vertex cover of the
  row/column bipartite graph, by König's theorem its maximum matching).
  Compiled with Numba, the same search step for step; interpreted where
  ``SVOT_JIT=0``.

Both return ``None`` beyond their limits (more items than ``MAX_ITEMS``, more
than ``max_states`` A* states); callers then fall back to a greedy plan labelled
``plan_optimal=False``. The domains' solvers (``svot/domains/<name>/solver.py``)
call them; ``tests/problem_gen/test_problem_gen_optimal.py`` checks the lengths
against a brute-force breadth-first search over the engine's own step function.
"""

from __future__ import annotations

import functools
import heapq
import logging
import os
from collections import deque

import numpy as np

from svot.kernel import DomainSpec
from svot.kernel.grid import Cell, cells
from svot.errors import ProblemError
from svot.problem_gen.grounding import shared_grounding

log = logging.getLogger(__name__)

# whether the Held-Karp table and the line-cover A* may run compiled (SVOT_JIT=0 in the environment at
# import turns it off, as it does the region search's: svot.engine.region_kernel). Both paths stay: the
# numpy/Python one is the compiled one's reference in the tests and runs where Numba cannot.
JIT = os.environ.get("SVOT_JIT", "1") != "0"
_kernels = None  # svot.problem_gen._optimal_numba, once loaded (False: unavailable in this process)

MAX_ITEMS = 20  # Held-Karp holds 2^k × k distances: 20 items is 21 M int16 (42 MB)
MIN_PLUS_ITEMS = 12  # from here a layer as one min-plus product beats an indexed read per item (same values)

@functools.lru_cache(maxsize=None)
def move_table(spec: DomainSpec, size: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell index (row-major): ``(action, destination index, swept-cells bitmask)`` for the
    actions that apply, in action order; read off the compiled engine."""
    grounding = shared_grounding(spec, size)
    stepper = grounding.stepper
    n_actions = spec.n_actions(size)
    all_cells = cells(size)
    index = {c: i for i, c in enumerate(all_cells)}
    table = []
    for here in all_cells:
        others = [c for c in all_cells if c != here]
        full = grounding.bind(spec.problem_from_state(spec.item_layout(size, here, others), "probe-full"))
        empty = grounding.bind(spec.problem_from_state(spec.item_layout(size, here, []), "probe-empty"))
        row = []
        for a in range(n_actions):
            s_full, ok_full = stepper.step(full.init, a)
            s_empty, ok_empty = stepper.step(empty.init, a)
            if ok_full != ok_empty:
                raise ProblemError(f"{spec.name} {size}x{size}: items decide whether action {a} applies at {here}")
            if not ok_full:
                continue
            after_full, after_empty = full.state_dict(s_full), empty.state_dict(s_empty)
            dest = tuple(after_full["player"])
            if dest != tuple(after_empty["player"]):
                raise ProblemError(f"{spec.name} {size}x{size}: items change where action {a} leads from {here}")
            swept = set(others) - set(spec.item_cells(after_full))
            row.append((a, index[dest], sum(1 << index[c] for c in swept)))
        table.append(tuple(row))
    return tuple(table)


def _items_mask(items, size: int) -> int:
    return sum(1 << (r * size + c) for r, c in {tuple(x) for x in items})


def _cell_paths(table, start: int) -> dict[int, tuple[int, int | None, int | None]]:
    """Breadth-first search over the move table's cell graph: cell → (distance, parent, action)."""
    out = {start: (0, None, None)}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for a, dest, _swept in table[cur]:
            if dest not in out:
                out[dest] = (out[cur][0] + 1, cur, a)
                queue.append(dest)
    return out


@functools.lru_cache(maxsize=None)
def _sweeps_destination(spec: DomainSpec, size: int) -> bool:
    return all(swept == 1 << dest for row in move_table(spec, size) for _a, dest, swept in row)


def _check_sweeps_destination(spec: DomainSpec, size: int, caller: str) -> None:
    if not _sweeps_destination(spec, size):
        raise ProblemError(f"{spec.name}: {caller} needs moves that sweep exactly their destination")


@functools.lru_cache(maxsize=None)
def cell_distances(spec: DomainSpec, size: int) -> tuple[tuple[int, ...], ...]:
    """Fewest moves from cell to cell (row-major indices) over the move table; -1 where unreachable."""
    table = move_table(spec, size)
    out = []
    for start in range(size * size):
        tree = _cell_paths(table, start)
        out.append(tuple(tree[c][0] if c in tree else -1 for c in range(size * size)))
    return tuple(out)


def walk_floor(spec: DomainSpec, size: int, player: Cell, items) -> int:
    """A lower bound on :func:`held_karp_plan`'s length, far cheaper than the plan: the weight of a
    minimum spanning tree over the player's cell and the items' (move-table distances, Prim).

    A plan there is a walk from the player through every item, so the distances between cells in the
    order the walk first reaches them add up to at most its length, and that order is a spanning
    path: a spanning tree, no lighter than the minimum one. 0 when an item is out of reach.
    """
    _check_sweeps_destination(spec, size, "walk_floor")
    dist = cell_distances(spec, size)
    nodes = [player[0] * size + player[1]] + sorted({r * size + c for r, c in (tuple(x) for x in items)})
    # Prim: nearest[i] = distance from the tree to node i
    nearest = {n: dist[nodes[0]][n] for n in nodes[1:]}
    if any(d < 0 for d in nearest.values()):
        return 0
    total = 0
    while nearest:
        node = min(nearest, key=nearest.__getitem__)
        total += nearest.pop(node)
        row = dist[node]
        for other, d in nearest.items():
            if 0 <= row[other] < d:
                nearest[other] = row[other]
    return total


def held_karp_plan(spec: DomainSpec, size: int, player: Cell, items) -> list[int] | None:
    """A shortest plan sweeping every item (Held-Karp over the items), or None beyond ``MAX_ITEMS``."""
    table = move_table(spec, size)
    _check_sweeps_destination(spec, size, "held_karp_plan")
    start = player[0] * size + player[1]
    targets = sorted({r * size + c for r, c in (tuple(x) for x in items)} - {start})
    k = len(targets)
    if k == 0:
        return []
    if k > MAX_ITEMS:
        return None
    trees = {p: _cell_paths(table, p) for p in [start] + targets}
    # int16 halves the memory traffic of the DP; walks here are far below 2^14 / 2 moves
    inf = np.int16(8000)
    dist = np.full((k, k), inf, dtype=np.int16)
    first = np.full(k, inf, dtype=np.int16)
    for i, p in enumerate(targets):
        first[i] = trees[start].get(p, (inf,))[0]
        for j, q in enumerate(targets):
            dist[i, j] = trees[p].get(q, (inf,))[0]
    if (first >= inf).any():
        return None  # an item out of reach: no plan
    # dp[mask, j]: shortest walk from the player reaching the items of mask first, ending on item j
    full = (1 << k) - 1
    dp = held_karp_table(first, dist, inf)
    # walk back the best order (lowest index on ties: deterministic)
    order = []
    mask, j = full, int(np.argmin(dp[full]))
    while True:
        order.append(j)
        prev = mask & ~(1 << j)
        if prev == 0:
            break
        cand = dp[prev] + dist[:, j]
        cand[[(prev >> i) & 1 == 0 for i in range(k)]] = inf
        mask, j = prev, int(np.argmin(cand))
    plan: list[int] = []
    here = start
    for j in reversed(order):
        target = targets[j]
        tree = trees[here]
        steps = []
        cur = target
        while tree[cur][1] is not None:
            steps.append(tree[cur][2])
            cur = tree[cur][1]
        plan.extend(reversed(steps))
        here = target
    return plan


def held_karp_table(first: np.ndarray, dist: np.ndarray, inf: np.int16) -> np.ndarray:
    """``dp[mask, j]``: the shortest walk from the player reaching the items of ``mask`` first and
    ending on item ``j`` (``first``: the player's distances to the items; ``dist[i, j]``: item to
    item; ``inf`` where unreachable). Compiled (:mod:`svot.problem_gen._optimal_numba`) unless
    ``SVOT_JIT=0`` or Numba is not importable; :func:`_held_karp_layers` otherwise, with the same values."""
    compiled = _compiled("held_karp_table")
    return _held_karp_layers(first, dist, inf) if compiled is None else compiled(first, dist, inf)


def _compiled(name: str):
    """A kernel of :mod:`svot.problem_gen._optimal_numba`, or None where ``SVOT_JIT=0`` or Numba is not
    importable (logged once)."""
    global _kernels
    if not JIT:
        return None
    if _kernels is None:
        try:
            from svot.problem_gen import _optimal_numba as kernels  # imports Numba
        except ImportError as exc:
            log.info("svot: Numba unavailable (%s); shortest plans are searched interpreted", exc)
            _kernels = False
        else:
            _kernels = kernels
    return getattr(_kernels, name) if _kernels else None


def _held_karp_layers(first: np.ndarray, dist: np.ndarray, inf: np.int16) -> np.ndarray:
    """:func:`held_karp_table` on numpy, one layer of masks (items reached so far) at a time."""
    k = first.shape[0]
    dp = np.full((1 << k, k), inf, dtype=np.int16)
    bit = 1 << np.arange(k)
    dp[bit, np.arange(k)] = first
    masks = np.arange(1 << k)
    popcount = np.zeros(1 << k, dtype=np.int8)
    for j in range(k):
        popcount += ((masks >> j) & 1).astype(np.int8)
    for p in range(1, k):
        layer = masks[popcount == p]
        if k < MIN_PLUS_ITEMS:
            for j in range(k):
                src = layer[(layer >> j) & 1 == 0]
                if src.size:
                    dp[src | (1 << j), j] = np.minimum((dp[src] + dist[:, j][None, :]).min(axis=1), inf)
            continue
        # reach[s, j] = min over i of dp[s, i] + dist[i, j] for the whole layer at once (a min-plus
        # product, row by row of dist: contiguous, no per-j indexed read); non-members of s are inf there
        rows = dp[layer]
        reach = rows[:, 0:1] + dist[0][None, :]
        for i in range(1, k):
            np.minimum(reach, rows[:, i : i + 1] + dist[i][None, :], out=reach)
        np.minimum(reach, inf, out=reach)
        for j in range(k):
            without = (layer >> j) & 1 == 0
            if without.any():
                dp[layer[without] | (1 << j), j] = reach[without, j]
    return dp


def _row_patterns(mask: int, size: int) -> tuple[int, ...]:
    """The non-empty rows of ``mask`` as column bitmasks, sorted: the line cover depends on nothing else."""
    full_row = (1 << size) - 1
    return tuple(sorted([p for p in [(mask >> s) & full_row for s in _row_shifts(size)] if p]))


@functools.lru_cache(maxsize=None)
def _row_shifts(size: int) -> tuple[int, ...]:
    return tuple(r * size for r in range(size))


@functools.lru_cache(maxsize=1 << 16)
def _rows_line_cover(rows: tuple[int, ...]) -> int:
    """Fewest rows and columns covering cells given as row bitmasks (maximum bipartite matching)."""
    match_col: dict[int, int] = {}

    def augment(r: int, seen: list[int]) -> bool:
        free = rows[r] & ~seen[0]
        while free:
            low = free & -free
            free ^= low
            seen[0] |= low
            c = low.bit_length() - 1
            if c not in match_col or augment(match_col[c], seen):
                match_col[c] = r
                return True
        return False

    return sum(1 for r in range(len(rows)) if augment(r, [0]))


def _min_line_cover(mask: int, size: int) -> int:
    """Fewest rows and columns covering the cells of ``mask`` (maximum bipartite matching)."""
    return _rows_line_cover(_row_patterns(mask, size))


@functools.lru_cache(maxsize=None)
def _sweeps_one_line(spec: DomainSpec, size: int) -> bool:
    row_of = [(1 << size) - 1 << (r * size) for r in range(size)]
    col_of = [sum(1 << (r * size + c) for r in range(size)) for c in range(size)]
    return all(
        not swept or any(swept & ~line == 0 for line in row_of + col_of)
        for row in move_table(spec, size)
        for _a, _dest, swept in row
    )


@functools.lru_cache(maxsize=None)
def _move_arrays(spec: DomainSpec, size: int) -> tuple[np.ndarray, ...] | None:
    """:func:`move_table` as arrays for the compiled search: cell c's moves are entries
    ``start[c]`` to ``start[c + 1]`` of ``(action, destination, swept)``; None where an action
    number does not fit the byte the search keeps it in."""
    table = move_table(spec, size)
    moves = [m for row in table for m in row]
    if any(a >= 256 for a, _dest, _swept in moves):
        return None
    start = np.cumsum([0] + [len(row) for row in table]).astype(np.int64)
    return start, *(np.array([m[i] for m in moves], np.int64) for i in range(3))


def line_cover_plan(spec: DomainSpec, size: int, player: Cell, items, max_states: int = 2_000_000) -> list[int] | None:
    """A plan with the fewest agent moves sweeping every item (A*), or None past ``max_states``."""
    table = move_table(spec, size)
    if not _sweeps_one_line(spec, size):
        raise ProblemError(f"{spec.name}: line_cover_plan needs moves that sweep cells of one row or one column")
    # a state (cell, items left) is one int: items-left mask above the cell index
    shift = (size * size - 1).bit_length()
    cell_of = (1 << shift) - 1
    start_mask = _items_mask(items, size)
    start = start_mask << shift | (player[0] * size + player[1])
    search = _compiled("line_cover_search")
    # the compiled search's int64 holds a state and an action byte above it
    arrays = _move_arrays(spec, size) if search is not None and shift + size * size + 8 <= 62 else None
    if arrays is not None:
        plan = search(start, shift, size, *arrays, max_states)
        return None if len(plan) == 1 and plan[0] < 0 else plan.tolist()
    h_cache: dict[int, int] = {}  # items-left mask -> its line cover (the heuristic)

    def h(mask: int) -> int:  # the heuristic of a mask not in h_cache yet (the loop reads the cache itself)
        v = h_cache[mask] = _rows_line_cover(_row_patterns(mask, size))
        return v

    # A heap entry is one int ordered as the tuple (f, -g, tick, state) would be, which is cheaper to
    # push and compare. From the top: f, then g_top - g in g_bits bits (g <= max_states + 1: a path of
    # g moves meets g + 1 states), the push count in 64 bits, the state in state_bits. Ties: deeper
    # first (fewer re-expansions), then insertion order (deterministic).
    state_bits = shift + size * size
    g_bits = (2 * max_states + 2 * size * size + 2).bit_length()
    g_top = (1 << g_bits) - 1
    tick_at, g_at = state_bits, state_bits + 64
    f_at = g_at + g_bits
    state_of, g_of = (1 << state_bits) - 1, g_top << g_at
    best = {start: 0}
    parent: dict[int, tuple[int, int] | None] = {start: None}
    tick = 0
    heap = [h(start_mask) << f_at | g_top << g_at | start]
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        entry = pop(heap)
        state = entry & state_of
        g = g_top - ((entry & g_of) >> g_at)
        if g > best[state]:
            continue
        mask = state >> shift
        if mask == 0:
            plan = []
            while parent[state] is not None:
                state, a = parent[state]
                plan.append(a)
            return plan[::-1]
        g1 = g + 1
        g1_field = (g_top - g1) << g_at
        for a, dest, swept in table[state & cell_of]:
            left = mask & ~swept
            nxt = left << shift | dest
            if g1 < best.get(nxt, g_top):
                best[nxt] = g1
                parent[nxt] = (state, a)
                tick += 1
                hv = h_cache.get(left)
                if hv is None:
                    hv = h(left)
                push(heap, (g1 + hv) << f_at | g1_field | tick << tick_at | nxt)
        if len(best) > max_states:
            return None
    return None


__all__ = ["MAX_ITEMS", "cell_distances", "held_karp_plan", "line_cover_plan", "move_table", "walk_floor"]
