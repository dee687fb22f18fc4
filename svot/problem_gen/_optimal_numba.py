"""The compiled parts of :mod:`svot.problem_gen.optimal` (imported only there, so that ``import svot``
never imports Numba): the Held-Karp table and the line-cover A*.

**Held-Karp.** ``dp[mask, j]`` is the shortest walk from the player that reaches the items of
``mask`` first and ends on item ``j``: ``first[j]`` for one item, else the least
``dp[mask - j, i] + dist[i, j]``; ``inf`` where ``j`` is not in ``mask`` or nothing reaches it. The
values are those of the numpy layers in ``optimal.py`` (``tests/problem_gen/test_problem_gen_optimal.py``
holds the two tables equal), computed in another order: masks in blocks of ``2^LOW_BITS`` that share
their high bits. An item among the high bits reads rows of an earlier block in address order, and an
item among the low bits reads rows of the block itself, which stays in cache. Reading each row where
``mask - j`` falls instead costs a cache miss per item once the table (2^k x k int16) outgrows the
cache: 17 ms against 7 ms at 18 items.

**A*.** :func:`line_cover_search` is ``optimal.line_cover_plan``'s search over ``(cell, items left)``
as one int64, with the same heap order, so the same plan.
"""

import heapq

import numpy as np
from numba import njit, types
from numba.typed import Dict

LOW_BITS = 9  # a block: 512 masks x 18 items x 2 bytes, 18 KB


@njit(cache=True, inline="always")
def _least(row, col, inf):
    """min over i of row[i] + col[i], at most ``inf`` (int32 sums: two infs do not wrap)."""
    best = np.int32(inf)
    for i in range(row.shape[0]):
        v = np.int32(row[i]) + np.int32(col[i])
        if v < best:
            best = v
    return best


@njit(cache=True)
def held_karp_table(first, dist, inf):
    k = first.shape[0]
    n = 1 << k
    low = min(k, LOW_BITS)
    dp = np.full((n, k), inf, np.int16)
    dist_t = np.ascontiguousarray(dist.T)  # dist_t[j] = dist[:, j], contiguous
    for j in range(k):
        dp[1 << j, j] = first[j]
    for base in range(0, n, 1 << low):
        for j in range(low, k):  # items among the high bits: rows of block base - j, in order
            if (base >> j) & 1:
                src = base ^ (1 << j)
                for lo in range(1 << low):
                    mask = base | lo
                    if mask & (mask - 1):  # more than one item
                        dp[mask, j] = _least(dp[src | lo], dist_t[j], inf)
        for lo in range(1, 1 << low):  # items among the low bits: rows of this block, smaller masks first
            mask = base | lo
            if mask & (mask - 1):
                for j in range(low):
                    if (lo >> j) & 1:
                        dp[mask, j] = _least(dp[mask ^ (1 << j)], dist_t[j], inf)
    return dp


@njit(cache=True)
def _line_cover(mask, size):
    """Fewest rows and columns covering the cells of ``mask``: every set of rows, then the columns of
    the cells they leave (the same count as optimal.py's matching, by König's theorem)."""
    full_row = (1 << size) - 1
    best = size
    for chosen in range(1 << size):
        cols = 0
        n = 0
        for r in range(size):
            if (chosen >> r) & 1:
                n += 1
            else:
                cols |= (mask >> (r * size)) & full_row
        while cols:
            cols &= cols - 1
            n += 1
        if n < best:
            best = n
    return best


@njit(cache=True)
def line_cover_search(start, shift, size, move_start, move_action, move_dest, move_swept, max_states):
    """optimal.line_cover_plan's A*, step for step: a state is ``items left << shift | cell``; heap
    entries ``(f, -g, push count, state)`` pop in the order of the interpreted search's packed ints.
    Returns the plan's actions, or one -1 past ``max_states`` or without a plan."""
    cell_of = (1 << shift) - 1
    far = np.int64(1) << 62
    h_cache = Dict.empty(key_type=types.int64, value_type=types.int64)
    best = Dict.empty(key_type=types.int64, value_type=types.int64)
    parent = Dict.empty(key_type=types.int64, value_type=types.int64)  # state -> previous state << 8 | action
    best[start] = 0
    parent[start] = -1
    hv = _line_cover(start >> shift, size)
    h_cache[start >> shift] = hv
    heap = [(np.int64(hv), np.int64(0), np.int64(0), np.int64(start))]
    tick = 0
    while len(heap):
        _f, neg_g, _t, state = heapq.heappop(heap)
        g = -neg_g
        if g > best[state]:
            continue
        mask = state >> shift
        if mask == 0:
            n = 0
            s = state
            while parent[s] >= 0:
                n += 1
                s = parent[s] >> 8
            plan = np.empty(n, np.int64)
            s = state
            for i in range(n - 1, -1, -1):
                plan[i] = parent[s] & 255
                s = parent[s] >> 8
            return plan
        g1 = g + 1
        cell = state & cell_of
        for m in range(move_start[cell], move_start[cell + 1]):
            left = mask & ~move_swept[m]
            nxt = left << shift | move_dest[m]
            if g1 < best.get(nxt, far):
                best[nxt] = g1
                parent[nxt] = state << 8 | move_action[m]
                tick += 1
                hv = h_cache.get(left, -1)
                if hv < 0:
                    hv = _line_cover(left, size)
                    h_cache[left] = hv
                heapq.heappush(heap, (np.int64(g1 + hv), np.int64(-g1), np.int64(tick), np.int64(nxt)))
        if len(best) > max_states:
            return np.full(1, -1, np.int64)
    return np.full(1, -1, np.int64)
