"""The compiled body of :mod:`svot.engine.region_kernel` (imported only there, so that ``import svot``
never imports Numba). Every value is an int64: a state is ``(rest, pivot)``, the other fluent bits and
the pivot bits, each one run of at most 62 bits shifted down to bit 0."""

import numpy as np
from numba import njit

_HASH = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing


@njit(cache=True, inline="always")
def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _slot(keys, used, key):
    """The slot of ``key`` in the open-addressing table, or the empty slot where it would go."""
    mask = len(keys) - 1
    h = key * _HASH
    i = (h ^ (h >> 32)) & mask  # the product's high half folded in: every bit of the key counts
    while used[i] and keys[i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def _grow(keys, used, seen, closed):
    """The table at twice its size, every entry moved."""
    n = 2 * len(keys)
    nkeys = np.zeros(n, np.int64)
    nused = np.zeros(n, np.uint8)
    nseen = np.zeros(n, np.int64)
    nclosed = np.zeros(n, np.int64)
    for i in range(len(keys)):
        if used[i]:
            j = _slot(nkeys, nused, keys[i])
            nkeys[j], nused[j], nseen[j], nclosed[j] = keys[i], 1, seen[i], closed[i]
    return nkeys, nused, nseen, nclosed


_GROW_TABLE, _GROW_NODES = -1, -2  # _expand's answers: room needed before the next region


@njit(cache=True)
def region_search(scalars, flood, blocked_by, row_start, pair_start, cands, spos, sneg, st_words):
    """``(found, states, complete)``: SearchStepper._reach_by_regions without dead masks to watch and
    without ``dead_with``, step for step (see region_kernel.RegionKernel.reach for the arguments).

    The search itself is :func:`_expand`, which never reallocates: it returns when the next region
    could outgrow a table, and is called again with the tables grown. (An array rebound inside the
    loop would have Numba count its references at every access, half the search's time.)"""
    p0, r0, goal_r, goal_p = scalars[0], scalars[1], scalars[2], scalars[5]
    n_cands = cands.shape[0]
    # the candidates whose static preconditions hold on this problem (_specialise_pushes' other drops)
    ok = np.zeros(n_cands, np.uint8)
    for i in range(n_cands):
        good = True
        for w in range(st_words.shape[0]):
            if (st_words[w] & spos[i, w]) != spos[i, w] or st_words[w] & sneg[i, w]:
                good = False
                break
        ok[i] = good
    # each pair as _specialise_pushes leaves it on this problem: kind 1 a single (its candidate in pick),
    # kind 2 several candidates, the engine's pick read at each state (those up to end), 0 nothing to push
    n_pairs = len(pair_start) - 1
    kind = np.zeros(n_pairs, np.uint8)
    pick = np.zeros(n_pairs, np.int64)
    end = np.zeros(n_pairs, np.int64)
    for p in range(n_pairs):
        kept = 0
        push = False
        for i in range(pair_start[p], pair_start[p + 1]):
            if ok[i]:
                if kept == 0:
                    pick[p] = i
                kept += 1
                end[p] = i + 1
                if not cands[i, 6]:
                    push = True
                if cands[i, 1] == 0 and cands[i, 2] == 0:
                    break  # it always applies: the later ones are never the engine's
        if kept == 1 and not cands[pick[p], 6]:
            kind[p] = 1
        elif push:
            kind[p] = 2
    # seen: rest -> pivot bits met with it; closed: rest -> pivot bits whose region was flooded
    size = 256
    while size < 4 * (n_cands + 1):
        size *= 2
    keys = np.zeros(size, np.int64)
    used = np.zeros(size, np.uint8)
    seen = np.zeros(size, np.int64)
    closed = np.zeros(size, np.int64)
    i = _slot(keys, used, r0)
    keys[i], used[i], seen[i] = r0, 1, p0
    # a bucket queue by goal atoms held, each bucket a stack (linked nodes, the most recent first)
    head = np.full(_popcount(goal_r) + _popcount(goal_p) + 1, -1, np.int64)
    node_rest = np.zeros(size, np.int64)
    node_piv = np.zeros(size, np.int64)
    node_next = np.zeros(size, np.int64)
    top = _popcount(r0 & goal_r) + _popcount(p0 & goal_p)
    node_rest[0], node_piv[0], node_next[0] = r0, p0, -1
    head[top] = 0
    # top, nodes used, states met, table entries
    counters = np.array([top, 1, 1, 1], np.int64)
    while True:
        got = _expand(
            scalars, flood, blocked_by, row_start, pair_start, cands, ok, kind, pick, end,
            keys, used, seen, closed, head, node_rest, node_piv, node_next, counters,
        )
        if got == _GROW_TABLE:
            keys, used, seen, closed = _grow(keys, used, seen, closed)
        elif got == _GROW_NODES:
            more = np.zeros(len(node_rest), np.int64)
            node_rest = np.concatenate((node_rest, more))
            node_piv = np.concatenate((node_piv, more))
            node_next = np.concatenate((node_next, more))
        else:
            return 1 if got == 1 else 0, counters[2], 0 if got == 2 else 1


@njit(cache=True)
def _expand(
    scalars, flood, blocked_by, row_start, pair_start, cands, ok, kind, pick, end,
    keys, used, seen, closed, head, node_rest, node_piv, node_next, counters,
):
    """The search from where ``counters`` left it: 1 found, 0 not found, 2 stopped at the state cap, or
    :data:`_GROW_TABLE` / :data:`_GROW_NODES` when a table needs room first."""
    goal_r, goal_neg_r, goal_cells, goal_p, goal_neg_p = scalars[2], scalars[3], scalars[4], scalars[5], scalars[6]
    dead_r, st_blocked, pfull, rbits, has_always, max_states = scalars[7], scalars[8], scalars[9], scalars[10], scalars[11], scalars[12]
    k1, s1, k2, s2, k3, s3, k4, s4 = flood[0], flood[1], flood[2], flood[3], flood[4], flood[5], flood[6], flood[7]
    n_cands = cands.shape[0]
    top, nodes, n, count = counters[0], counters[1], counters[2], counters[3]
    while True:
        # a region adds at most one state per candidate
        if 2 * (count + n_cands) > len(keys) or nodes + n_cands > len(node_rest):
            counters[0], counters[1], counters[2], counters[3] = top, nodes, n, count
            return _GROW_TABLE if 2 * (count + n_cands) > len(keys) else _GROW_NODES
        while top >= 0 and head[top] < 0:
            top -= 1
        if top < 0:
            counters[2] = n
            return 0
        k = head[top]
        head[top] = node_next[k]
        rest, piv = node_rest[k], node_piv[k]
        i = _slot(keys, used, rest)
        done = closed[i]
        if piv & done:
            continue  # its region was followed from another state
        blocked = done | st_blocked
        x = rest
        j = 0
        while x:
            if x & 1:
                blocked |= blocked_by[j]
            x >>= 1
            j += 1
        okc = pfull & ~blocked
        a1, a2, a3, a4 = s1 & (okc >> k1), s2 & (okc >> k2), s3 & (okc << k3), s4 & (okc << k4)
        region = piv
        front = piv
        while front:
            front = (((front & a1) << k1) | ((front & a2) << k2) | ((front & a3) >> k3) | ((front & a4) >> k4)) & ~region
            region |= front
        closed[i] = done | region
        met = seen[i]
        fresh = region & ~met
        seen[i] = met | region
        n += _popcount(fresh)
        if (rest & goal_r) == goal_r and not rest & goal_neg_r and fresh & goal_cells:
            counters[2] = n
            return 1
        # the steps other than walks: row 0 (no other bit needed), then one row per bit of rest, low to high
        j = -1 if has_always else 0
        while j < rbits:
            if j >= 0 and not (rest >> j) & 1:
                j += 1
                continue
            # the row's singles first, then the engine's pick of its other pairs (_reach_by_regions' order)
            for phase in range(1, 3):
                for p in range(row_start[j + 1], row_start[j + 2]):
                    if kind[p] != phase:
                        continue
                    c = pick[p]
                    if not cands[c, 0] & region:
                        continue
                    if phase == 2:  # the first candidate that applies is the engine's; a walk pushes nothing
                        c = -1
                        for i in range(pair_start[p], end[p]):
                            if ok[i] and not rest & cands[i, 2] and (rest & cands[i, 1]) == cands[i, 1]:
                                if not cands[i, 6]:
                                    c = i
                                break
                        if c < 0:
                            continue
                    elif rest & cands[c, 2] or (rest & cands[c, 1]) != cands[c, 1]:
                        continue
                    t_rest = (rest & cands[c, 3]) | cands[c, 4]
                    q = cands[c, 5]
                    i = _slot(keys, used, t_rest)
                    if used[i]:
                        old = seen[i]
                        if old & q:
                            continue  # met before
                        seen[i] = old | q
                    else:
                        keys[i], used[i], seen[i], closed[i] = t_rest, 1, q, 0
                        count += 1
                    n += 1
                    if (
                        (t_rest & goal_r) == goal_r
                        and not t_rest & goal_neg_r
                        and (q & goal_p) == goal_p
                        and not q & goal_neg_p
                    ):
                        counters[2] = n
                        return 1
                    if t_rest & dead_r:
                        continue
                    h = _popcount(t_rest & goal_r) + _popcount(q & goal_p)
                    node_rest[nodes], node_piv[nodes], node_next[nodes] = t_rest, q, head[h]
                    head[h] = nodes
                    nodes += 1
                    if h > top:
                        top = h
            j += 1
        if n > max_states:
            counters[2] = n
            return 2
