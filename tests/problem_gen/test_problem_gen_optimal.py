"""The Pacman/Gather optimal solvers against a brute-force breadth-first search on the engine.

The brute force is written here, independently of :mod:`svot.problem_gen.optimal`:
breadth-first search over the states of the env's own engine
(``spec.make_engine(problem).step``), every agent action tried in every state,
so the first goal state found is at the true shortest distance in agent
actions (a Gather move of k cells is one action, as the env counts it).
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

from svot.domains import generate, get_spec, solve
from svot.problem_gen.grounding import shared_grounding
from svot.domains.gather.solver import gather_plan
from svot.domains.pacman.solver import pacman_plan
from svot.problem_gen.optimal import move_table


def brute_force_length(domain: str, problem) -> int:
    spec = get_spec(domain)
    engine = spec.make_engine(problem)
    size = spec.size_of(problem)
    keys = [spec.action_key(a, size) for a in range(spec.n_actions(size))]
    start = engine.initial()
    if engine.is_goal(start):
        return 0
    depth = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for key in keys:
            t, applied = engine.step(s, key)
            if applied and t not in depth:
                depth[t] = depth[s] + 1
                if engine.is_goal(t):
                    return depth[t]
                queue.append(t)
    raise AssertionError("goal unreachable")


SMALL = [("pacman", 4, "id"), ("pacman", 4, "ood"), ("pacman", 5, "id"), ("gather", 4, "id"), ("gather", 4, "ood"),
         ("gather", 5, "id")]


@pytest.mark.parametrize("domain,size,split", SMALL)
def test_optimal_plans_match_brute_force_bfs(domain, size, split):
    for seed in range(4):
        g = generate(domain, size, split, np.random.default_rng(seed))
        assert g.plan_optimal
        assert len(g.plan) == brute_force_length(domain, g.problem), (domain, size, split, seed)
        assert solve(domain, g.problem) == g.plan


def test_greedy_plans_are_labelled_and_sometimes_longer():
    longer = 0
    for seed in range(6):
        for domain in ("pacman", "gather"):
            g = generate(domain, 5, "id", np.random.default_rng(seed))
            greedy = solve(domain, g.problem, greedy=True)
            shared_grounding(get_spec(domain), 5).bind(g.problem).replay(greedy)  # greedy still reaches the goal
            assert len(greedy) >= len(g.plan)
            longer += len(greedy) > len(g.plan)
    assert longer > 0  # why the optimal solver exists (issue 20: greedy was longer in 85 of 129 problems)


def test_move_table_is_the_engines():
    """Pacman moves one cell and sweeps it; Gather's move k sweeps the k cells entered (read off the engine)."""
    size = 4
    pac = move_table(get_spec("pacman"), size)
    corner = pac[0]  # cell (0, 0): only down (1) and right (3) apply
    assert [a for a, _d, _s in corner] == [1, 3]
    assert all(swept == 1 << dest for _a, dest, swept in corner)
    gat = move_table(get_spec("gather"), size)
    right3 = [row for row in gat[0] if row[1] == 3]  # from (0, 0) to (0, 3)
    assert len(right3) == 1 and right3[0][2] == 0b1110


@pytest.fixture(params=["compiled", "interpreted"])
def jit(request, monkeypatch):
    """The shortest-plan searches compiled (where Numba imports) and interpreted (SVOT_JIT=0)."""
    from svot.problem_gen import optimal

    if request.param == "compiled" and optimal._compiled("held_karp_table") is None:
        pytest.skip("Numba not importable")
    monkeypatch.setattr(optimal, "JIT", request.param == "compiled")
    return request.param


def test_solvers_handle_nothing_left_and_limits(jit):
    assert pacman_plan(4, (0, 0), []) == []
    assert gather_plan(4, (0, 0), []) == []
    assert gather_plan(6, (0, 0), [(r, c) for r in range(6) for c in range(6) if (r, c) != (0, 0)], max_states=10) is None


def test_walk_floor_bounds_the_shortest_pacman_plan():
    """walk_floor (a minimum spanning tree over the player and the coins) never exceeds Held-Karp's
    shortest length, and is tight where the coins lie in a row from the player."""
    from svot.domains.pacman.solver import plan_length_floor
    from svot.domains import plan_length_floor as floor_of

    rng = np.random.default_rng(5)
    gaps = []
    for size in (4, 5, 6):
        for split in ("id", "ood"):
            for _ in range(15):
                state = generate("pacman", size, split, rng, plan=False).state
                floor = plan_length_floor(state)
                assert floor == floor_of("pacman", state)
                shortest = len(pacman_plan(size, tuple(state["player"]), state["coins"]))
                assert len(state["coins"]) <= floor <= shortest, state
                gaps.append(shortest - floor)
    assert 0 in gaps and max(gaps) > 0  # a bound, sometimes exact, not the plan itself
    row = {"domain": "pacman", "size": 5, "player": [2, 0], "coins": [[2, 1], [2, 2], [2, 4]]}
    assert plan_length_floor(row) == 4 == len(pacman_plan(5, (2, 0), row["coins"]))


def test_plan_length_floor_is_zero_without_a_bound():
    from svot.domains import get_domain, plan_length_floor
    from svot.problem_gen import has_plan_length_floor

    state = generate("maze", 5, "id", np.random.default_rng(0)).state
    assert not has_plan_length_floor(get_domain("maze")) and plan_length_floor("maze", state) == 0
    assert has_plan_length_floor(get_domain("pacman"))


def _line_cover_brute(mask: int, size: int) -> int:
    """Fewest rows and columns covering ``mask``'s cells: every choice of rows, the columns left over."""
    rows = [(mask >> (r * size)) & ((1 << size) - 1) for r in range(size)]
    best = size
    for chosen in range(1 << size):
        cols = 0
        for r in range(size):
            if not chosen >> r & 1:
                cols |= rows[r]
        best = min(best, bin(chosen).count("1") + bin(cols).count("1"))
    return best


def _tuple_heap_a_star(domain: str, size: int, player, items) -> list[int]:
    """The A* that line_cover_plan's docstring describes, written plainly: heap entries are tuples
    ``(f, -g, push count, state)`` (ties: deeper first, then the order pushed), and the heuristic is the
    line cover, read here by trying every set of rows."""
    import heapq

    table = move_table(get_spec(domain), size)
    shift = (size * size - 1).bit_length()
    start = sum(1 << (r * size + c) for r, c in items) << shift | (player[0] * size + player[1])
    best, parent, tick = {start: 0}, {start: None}, 0
    heap = [(_line_cover_brute(start >> shift, size), 0, 0, start)]
    while heap:
        _f, neg_g, _t, state = heapq.heappop(heap)
        if -neg_g > best[state]:
            continue
        if state >> shift == 0:
            plan = []
            while parent[state] is not None:
                state, a = parent[state]
                plan.append(a)
            return plan[::-1]
        g1 = -neg_g + 1
        for a, dest, swept in table[state & ((1 << shift) - 1)]:
            left = (state >> shift) & ~swept
            nxt = left << shift | dest
            if g1 < best.get(nxt, 1 << 30):
                best[nxt], parent[nxt] = g1, (state, a)
                tick += 1
                heapq.heappush(heap, (g1 + _line_cover_brute(left, size), -g1, tick, nxt))
    raise AssertionError("no plan")


@pytest.mark.parametrize("size,split", [(4, "id"), (4, "ood"), (5, "id"), (5, "ood"), (6, "id")])
def test_gather_plan_is_the_plain_a_stars_own_plan(size, split, jit):
    """Not only a shortest plan: the very plan of the A* with tuple heap entries (exports pin it),
    compiled or interpreted."""
    for seed in range(6):
        g = generate("gather", size, split, np.random.default_rng([seed, size]))
        balls = [tuple(b) for where in g.state["balls"].values() for b in where]
        player = tuple(g.state["player"])
        assert gather_plan(size, player, balls) == _tuple_heap_a_star("gather", size, player, balls) == g.plan


@pytest.mark.parametrize("k", [1, 2, 5, 9, 10, 13, 16])
def test_held_karp_compiled_table_is_the_numpy_layers(k):
    """The compiled Held-Karp table (masks in blocks) holds the numpy layers' values, cell for cell,
    unreachable pairs included: the plan's walk back reads those values, so equal tables mean equal plans."""
    from svot.problem_gen import optimal

    if optimal._compiled("held_karp_table") is None:
        pytest.skip("Numba not importable")
    rng = np.random.default_rng(k)
    inf = np.int16(8000)
    for _ in range(3):
        dist = rng.integers(1, 12, (k, k)).astype(np.int16)
        dist[rng.random((k, k)) < 0.1] = inf
        np.fill_diagonal(dist, 0)
        first = rng.integers(1, 12, k).astype(np.int16)
        first[rng.random(k) < 0.1] = inf
        compiled, layers = optimal.held_karp_table(first, dist, inf), optimal._held_karp_layers(first, dist, inf)
        assert compiled.dtype == layers.dtype and np.array_equal(compiled, layers)
        if k <= 6:  # and the best walk is the best order's, by trying every order
            walks = [first[o[0]] + sum(int(dist[a, b]) for a, b in zip(o, o[1:])) for o in itertools.permutations(range(k))]
            assert min(int(compiled[(1 << k) - 1].min()), int(inf)) == min(min(walks), int(inf))


def test_pacman_plans_are_the_same_compiled_or_not(monkeypatch):
    """The 6x6 OOD boards (18 coins, where the table is 2^18 x 18) get the same plan with the table
    compiled and on numpy (SVOT_JIT=0): the plan ``generate`` gave each board (exports pin it)."""
    from svot.problem_gen import optimal

    plans = {}
    for jit in (True, False):
        monkeypatch.setattr(optimal, "JIT", jit)
        plans[jit] = []
        for seed in range(2):
            g = generate("pacman", 6, "ood", np.random.default_rng([seed, 6]))
            coins = [tuple(c) for c in g.state["coins"]]
            assert len(coins) == 18
            plans[jit].append(pacman_plan(6, tuple(g.state["player"]), coins))
            assert plans[jit][-1] == g.plan
    assert plans[True] == plans[False]


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_compiled_line_cover_is_the_matchings(size):
    """The compiled A*'s heuristic (every set of rows) counts what the interpreted one's bipartite
    matching counts (König's theorem), on random masks."""
    from svot.problem_gen import optimal

    if optimal._compiled("held_karp_table") is None:
        pytest.skip("Numba not importable")
    from svot.problem_gen._optimal_numba import _line_cover

    rng = np.random.default_rng(size)
    masks = [0, (1 << size * size) - 1] + [int(m) for m in rng.integers(0, 1 << size * size, 300, dtype=np.uint64)]
    masks += [m & int(rng.integers(0, 1 << size * size, dtype=np.uint64)) for m in masks[2:100]]  # sparser ones
    for mask in masks:
        assert _line_cover(mask, size) == optimal._min_line_cover(mask, size), (size, bin(mask))
