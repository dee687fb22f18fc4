"""Breadth-first search over an engine's states.

:func:`bfs_plan` searches any engine through its ``step``. :class:`SearchStepper`
is the generator's search on a :class:`~svot.engine.grounded.GroundTask`'s integer
states: agent actions by index, ground actions bucketed by a pivot atom derived
from the PDDL (the player's cell), no per-step function calls, optional
dead-state masks from the caller.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Callable, Hashable, Iterable, Sequence

from svot.engine.grounded import GroundTask, pivot_predicate
from svot.engine.region_kernel import enabled as region_kernel_enabled, region_kernel


def bfs_plan(
    initial: Hashable,
    step: Callable[[Hashable, object], tuple[Hashable, bool]],
    actions: Sequence[object],
    is_goal: Callable[[Hashable], bool],
    *,
    max_states: int = 2_000_000,
    is_dead: Callable[[Hashable], bool] | None = None,
) -> list | None:
    """A shortest list of ``actions`` from ``initial`` to a goal state, or None.

    Actions are tried in the given order, so the plan is deterministic. States
    for which ``is_dead`` holds are not expanded. Gives up (None) past
    ``max_states`` visited states.
    """
    if is_goal(initial):
        return []
    parent: dict = {initial: None}
    queue = deque([initial])
    while queue:
        state = queue.popleft()
        if is_dead is not None and is_dead(state):
            continue
        for action in actions:
            nxt, applied = step(state, action)
            if not applied or nxt in parent:
                continue
            parent[nxt] = (state, action)
            if is_goal(nxt):
                plan = []
                while parent[nxt] is not None:
                    nxt, a = parent[nxt]
                    plan.append(a)
                return plan[::-1]
            if len(parent) > max_states:
                return None
            queue.append(nxt)
    return None


def atoms_mask(bit: dict, atoms: Iterable[tuple]) -> int:
    """The union of the bits of ``atoms`` (``bit``: a task's atom -> bit)."""
    m = 0
    for a in atoms:
        m |= bit[a]
    return m


@dataclass(frozen=True)
class SearchResult:
    plan: list | None  # agent action ints, or None
    states: int  # distinct states seen
    complete: bool  # False only when the state cap stopped the search (then plan is None, unproven)

    @property
    def solved(self) -> bool:
        return self.plan is not None


@dataclass(frozen=True)
class Reach:
    """:meth:`SearchStepper.reachable`'s answer: whether a goal state was found, states seen, and whether
    the search ran to its end (False only when the state cap stopped it: then ``found`` is False, unproven)."""

    found: bool
    states: int
    complete: bool


def _completes_a_mask(t: int, new: int, watch: dict[int, list[int]]) -> bool:
    """Whether state ``t`` holds a whole dead mask through one of the bits ``new`` it just set
    (``watch``: the masks by their bits; the parent held none, so only masks with a new bit can be whole).
    Called by both searches only when a step set a watched bit."""
    while new:
        low = new & -new
        for m in watch[low]:
            if t & m == m:
                return True
        new ^= low
    return False


class SearchStepper:
    """Agent actions by index on a grounding's integer states: stepping, and breadth-first search.

    ``stepping`` is the engine's stepping core (a :class:`~svot.engine.grounded.GroundedEngine`,
    or a :class:`~svot.engine.grounded.SharedGrounding` for every problem of a size);
    :meth:`step` and :meth:`settle` are its own, internal actions included, with
    ``keys[a]`` the action literal of agent action ``a``.

    Only the search's inner loop reads the ground actions itself, for domains
    without internal actions: ``buckets[a]`` maps a pivot bit (the atom of
    :func:`~svot.engine.grounded.pivot_predicate` a ground action needs: the
    player's ``(at ?c)`` in svot's domains) to that action's ``(pos, neg, keep,
    add)`` masks with ``keep = ~delete``, in the task's order, which :meth:`bfs`
    specialises to each problem's static bits. A domain without a pivot
    predicate leaves every ground action unbucketed, and :meth:`bfs` steps
    through :meth:`step`. svot's domains are deterministic, so the first
    applicable ground action of a bucket is the one the engine selects
    (``tests/problem_gen`` and ``tests/engine/test_search_stepper.py`` compare
    the plans with :func:`bfs_plan` on the engine).
    """

    def __init__(self, stepping, keys: Sequence[tuple]):
        self.stepping = stepping
        self.task: GroundTask = stepping.task
        task = self.task
        self.keys = list(keys)
        self._step_key = stepping.step
        self.internal = bool(stepping.internal_keys)
        self.pivot = pivot_predicate(task.domain)
        self.pivot_mask = atoms_mask(task.bit, (a for a in task.fluents if a[0] == self.pivot))
        self.buckets = [self._bucket(k) for k in self.keys]
        self._moves_cache: dict | None | bool = False
        self._walks_cache: tuple | None | bool = False
        self._region_steps_cache: tuple | None = None
        # specialised rows by (pivot, the static bits they read): see _specialise
        self._rows = _Rows(self._move_reads, self._move_row)
        # the region search's specialised steps by (trigger bit, static bits read): _pushes
        self._push_rows = _Rows(self._push_reads, self._specialise_pushes)
        static_preds = task.domain.static_predicates
        self.static_mask = atoms_mask(task.bit, (a for a in task.fluents if a[0] in static_preds))

    def _bucket(self, key: tuple) -> tuple[dict, tuple]:
        by: dict[int, list] = {}
        loose = []
        for ga in self.task.actions:
            if ga.key != key:
                continue
            entry = (ga.pos, ga.neg, ~ga.delete, ga.add)
            pivot = ga.pos & self.pivot_mask
            if pivot and pivot & (pivot - 1) == 0:
                by.setdefault(pivot, []).append(entry)
            else:
                loose.append(entry)
        return {k: tuple(v) for k, v in by.items()}, tuple(loose)

    def step(self, s: int, action: int) -> tuple[int, bool]:
        """The successor of ``s`` under agent action ``action`` and whether it applied (the engine's step)."""
        return self._step_key(s, self.keys[action])

    def settle(self, s: int) -> int:
        """Internal actions applied while one applies (the engine's settle)."""
        return self.stepping.settle(s)

    def bfs(
        self,
        init: int,
        goal_pos: int,
        goal_neg: int = 0,
        *,
        max_states: int = 1_000_000,
        dead_any: int = 0,
        dead_all: Sequence[int] = (),
        is_dead: Callable[[int], bool] | None = None,
    ) -> SearchResult:
        """Breadth-first search for a shortest plan (actions tried in index order).

        A state is dead, and never expanded, when it shares a bit with
        ``dead_any``, contains all bits of one of ``dead_all``, or ``is_dead``
        says so. Dead states must be unable to reach the goal: then the search
        expands exactly the live states plain BFS expands, in the same order,
        and returns the same plan (every predecessor of a live state is live).

        The search runs on the fluent bits only: the bits of static predicates
        (walls, goal squares...: no operator adds or deletes them) are read once
        from ``init`` and folded out of the ground actions, the way
        :class:`GroundTask` folds statics when it grounds a single problem.
        """
        if self.internal or self._moves() is None:
            return self._bfs_generic(init, goal_pos, goal_neg, max_states, dead_any, dead_all, is_dead)
        prepared = self._prepare(init, goal_pos, goal_neg, dead_any, dead_all, is_dead)
        if isinstance(prepared, SearchResult):
            return prepared
        s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, is_dead = prepared
        static = self.static_mask

        pm = self.pivot_mask
        moves = self._specialise(st)
        parent: dict[int, tuple[int, int] | None] = {s0: None}
        frontier = [s0]
        while frontier:
            nxt_frontier = []
            for s in frontier:
                piv = s & pm
                if piv & (piv - 1):  # not exactly one pivot atom: the engine's step, as candidates that always apply
                    row = []
                    for a in range(len(self.keys)):
                        t, applied = self.step(s | st, a)
                        if applied:
                            row.append((a, ((0, 0, 0, t & ~static),)))
                else:
                    row = moves[piv]
                unset = ~s & watch_mask  # watched bits a step from s may set
                for a, cands in row:
                    for pos, neg, keep, add in cands:  # the first applicable candidate is the engine's
                        if s & pos == pos and not s & neg:
                            t = (s & keep) | add
                            break
                    else:
                        continue  # the action does not apply
                    if t in parent:
                        continue
                    parent[t] = (s, a)
                    if t & goal_pos == goal_pos and not t & goal_neg:
                        return SearchResult(_unwind(parent, t), len(parent), True)
                    if t & dead_any:
                        continue
                    new = t & unset
                    if new and _completes_a_mask(t, new, watch):
                        continue
                    if is_dead is not None and is_dead(t):
                        continue
                    nxt_frontier.append(t)
                if len(parent) > max_states:
                    return SearchResult(None, len(parent), False)
            frontier = nxt_frontier
        return SearchResult(None, len(parent), True)

    def reachable(
        self,
        init: int,
        goal_pos: int,
        goal_neg: int = 0,
        *,
        max_states: int = 1_000_000,
        dead_any: int = 0,
        dead_all: Sequence[int] = (),
        is_dead: Callable[[int], bool] | None = None,
        dead_with: Callable[[int, int], tuple[int, int]] | None = None,
    ) -> Reach:
        """Whether a goal state is reachable: :meth:`bfs`'s verdict, without a plan.

        The same successors and dead states as :meth:`bfs`, with a set of seen
        states instead of parent links, in another order: it stops at the first
        goal state it meets, usually after fewer states than breadth-first search.
        Both search the same finite set of live states, so when neither stops at
        ``max_states`` they agree: the goal is reachable through live states
        exactly when it is reachable at all. ``Reach.complete`` is False when the
        cap stopped it (then ``found`` is False, unproven); a caller that needs
        :meth:`bfs`'s very verdict under a cap must make sure no search can reach
        it (fewer possible states than ``max_states``). ``Reach.states`` counts
        distinct states seen, as :meth:`bfs` does, though not the same ones.

        When the dead states do not depend on the pivot atom (no pivot bit in
        ``dead_any`` or ``dead_all``, no ``is_dead``), the search is
        :meth:`_reach_by_regions`; otherwise :meth:`_reach_by_states`. Without
        ``dead_all``, the region search runs compiled where the grounding fits
        :mod:`svot.engine.region_kernel` (:meth:`reach_compiled`): the same states in
        the same order, ``dead_with`` not asked.

        ``dead_with(bits, q)``, read by the region search only (an optional pruning: a search may
        skip any dead state, or none): ``bits`` are the non-pivot bits a step just set and ``q`` the
        successor's pivot bit; it answers ``(known, dead)``, pivot bits, with every state holding
        ``bits`` and a pivot atom in ``dead`` unable to reach the goal; ``known`` (``q`` taken as
        known) are those it has decided, kept for the rest of the search. A step to a dead successor
        is not followed; the walks and steps of a region flooded from a live state are followed
        whatever ``dead_with`` says of them (a dead state reaches no goal: following it changes no
        verdict).
        """
        if self.internal or self._moves() is None:
            r = self._bfs_generic(init, goal_pos, goal_neg, max_states, dead_any, dead_all, is_dead)
            return Reach(r.solved, r.states, r.complete)
        prepared = self._prepare(init, goal_pos, goal_neg, dead_any, dead_all, is_dead)
        if isinstance(prepared, SearchResult):
            return Reach(prepared.solved, prepared.states, prepared.complete)
        s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, is_dead = prepared
        pm = self.pivot_mask
        piv = s0 & pm
        single = piv and not piv & (piv - 1)
        if single and is_dead is None and self._walks() is not None and not (dead_any | watch_mask) & pm:
            return self._reach_by_regions(
                s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, max_states, dead_with
            )
        return self._reach_by_states(s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, is_dead, max_states)

    def reach_compiled(self) -> bool:
        """Whether :meth:`reachable`'s region search runs compiled on this stepper
        (:mod:`svot.engine.region_kernel`): a search then costs microseconds, so a caller's own
        refusals before it may cost more than the searches they spare."""
        return region_kernel_enabled() and region_kernel(self) is not None

    def _reach_by_regions(
        self, s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, max_states, dead_with=None
    ) -> Reach:
        """:meth:`reachable` region by region: from a live state, every state its walks reach
        (:meth:`_walks`: steps that only move the pivot atom) at once, on bitboards, then the other steps
        from the cells that may take one.

        Why it is exact: the states met are the states :meth:`_reach_by_states` meets (every successor
        of every live state met), in another order. ``seen`` maps non-pivot bits (``rest``) to the pivot bits met
        with them, ``closed`` to those whose walks were followed. A walk keeps the non-pivot bits, and no
        dead test reads a pivot bit, so a walk from a live state is live and needs no test. The pivot
        predicate is balanced (:func:`~svot.engine.grounded.pivot_predicate`) and ``s0`` holds one atom
        of it, so every state met holds exactly one. ``dead_with`` (see :meth:`reachable`) reads the
        pivot, so it is asked only after a step other than a walk: a refuted successor is not followed,
        and a live state's walks are followed whatever it would say of them (a dead state reaches no
        goal, so following one changes no verdict; the live states met are all followed).
        """
        if not watch and region_kernel_enabled():
            kernel = region_kernel(self)  # the same search compiled (svot.engine.region_kernel), where it fits
            if kernel is not None:
                return Reach(*kernel.reach(s0, st, goal_pos, goal_neg, dead_any, max_states))
        pm = self.pivot_mask
        steps, grid = self._region_steps()
        pushes = self._push_rows.row  # _pushes, without its call
        local: dict[int, tuple] = {}  # trigger bit -> its specialised steps, for this search's st
        always = pushes(0, st)
        local[0] = always
        always = always[0] or always[1]
        verdicts: dict[int, tuple[int, int]] = {}  # dead_with's answers: bit -> (pivots known, pivots dead)
        if grid is not None:
            offsets, (k1, src1), (k2, src2), (k3, src3), (k4, src4) = grid
            st_blocked = 0
            for o in offsets:
                st_blocked |= st >> o if o >= 0 else st << -o
        goal_np, goal_neg_np = goal_pos & ~pm, goal_neg & ~pm
        goal_piv, goal_neg_piv = goal_pos & pm, goal_neg & pm
        # the pivot atoms a state may hold and meet the goal's pivot part (it holds one: at most one goal_piv)
        goal_cells = 0 if goal_piv & (goal_piv - 1) else (goal_piv or pm) & ~goal_neg_piv
        seen: dict[int, int] = {s0 & ~pm: s0 & pm}
        closed: dict[int, int] = {}
        n = 1
        top = (s0 & goal_pos).bit_count()
        stacks: list[list[int]] = [[] for _ in range(goal_pos.bit_count() + 1)]
        stacks[top].append(s0)
        while True:
            while top >= 0 and not stacks[top]:
                top -= 1
            if top < 0:
                return Reach(False, n, True)
            s = stacks[top].pop()
            rest = s & ~pm
            done = closed.get(rest, 0)
            if s & done:
                continue  # its region was followed from another state
            if grid is None:
                region = _flood(s & pm, done, rest | st, steps, pm)
            else:  # _flood's four moves with st's blocked cells read once per search
                blocked = done | st_blocked
                for o in offsets:
                    blocked |= rest >> o if o >= 0 else rest << -o
                ok = pm & ~blocked
                s1, s2, s3, s4 = src1 & ok >> k1, src2 & ok >> k2, src3 & ok << k3, src4 & ok << k4
                region = front = s & pm
                while front:
                    front = ((front & s1) << k1 | (front & s2) << k2 | (front & s3) >> k3 | (front & s4) >> k4) & ~region
                    region |= front
            closed[rest] = done | region
            met = seen[rest]
            fresh = region & ~met
            seen[rest] = met | region
            n += fresh.bit_count()
            if rest & goal_np == goal_np and not rest & goal_neg_np and fresh & goal_cells:
                return Reach(True, n, True)
            # the steps other than walks from the region: those that need one of rest's bits, or none
            # (_pushes: the ground actions specialised to st and to the bit being held)
            unset = ~rest & watch_mask
            x = rest
            low = 0
            if not always:  # none to try at every state: start at rest's lowest bit
                low = x & -x
                x ^= low
            while True:
                sp = local.get(low)
                if sp is None:
                    sp = local[low] = pushes(low, st)
                singles, multis = sp
                # pairs with several candidates join as the engine's pick, in a single's shape
                for c, pos, neg, keep, add in singles if multis is None else (*singles, *_picked(multis, rest, region)):
                    if c & region and not rest & neg and rest & pos == pos:
                        t = (rest | c) & keep | add
                        q = t & pm
                        t_np = t ^ q
                        old = seen.get(t_np, 0)
                        if old & q:
                            continue  # met before
                        seen[t_np] = old | q
                        n += 1
                        if t & goal_pos == goal_pos and not t & goal_neg:
                            return Reach(True, n, True)
                        if t & dead_any:
                            continue
                        new = t & unset
                        if new and _completes_a_mask(t, new, watch):
                            continue
                        if dead_with is not None:
                            b = t_np & ~rest  # the bits the step set, besides the pivot
                            kd = verdicts.get(b)
                            if kd is None or not kd[0] & q:
                                kd = verdicts[b] = _ask(dead_with, b, q, kd)
                            if kd[1] & q:
                                continue
                        h = (t & goal_pos).bit_count()
                        stacks[h].append(t)
                        if h > top:
                            top = h
                if not x:
                    break
                low = x & -x
                x ^= low
            if n > max_states:
                return Reach(False, n, False)

    def _region_steps(self):
        """``(steps, grid)``: :meth:`_walks`' steps and their :func:`_grid_steps` shape, read once."""
        got = self._region_steps_cache
        if got is None:
            steps = self._walks()[0]
            got = self._region_steps_cache = (steps, _grid_steps(steps))
        return got

    def _walks(self):
        """The ground actions that only move the pivot atom (walks), as bitboard steps, or None.

        ``(steps, trig, always)``: ``steps`` groups the agent actions by ``offsets`` as
        ``(offsets, ((k, sources), ...))``: an action's walk from pivot bit ``c`` in ``sources`` leads
        to ``q = c`` shifted by ``k`` bits, and applies exactly when no state bit at ``q`` shifted by
        one of the offsets is true (the walk's negative preconditions, statics included, none a pivot
        atom). ``trig`` maps a non-pivot fluent bit to ``(c, candidates)`` pairs: pivot bit ``c`` and
        the ground actions of one agent action at ``c`` (unspecialised, in the engine's order, each
        with a flag: a walk), where one that is not a walk needs that bit (the first such bit of
        each); ``always`` lists the pairs where one needs none.
        None unless every walk has that shape, and every ground action tried before a walk (the engine
        takes the first that applies) excludes it: needs a bit the walk needs false, or the converse.
        Read once off :attr:`buckets`.
        """
        if self._walks_cache is False:
            self._walks_cache = _walk_steps(self.buckets, self.pivot_mask, self.static_mask)
        return self._walks_cache

    def _pushes(self, low: int, st: int) -> tuple:
        """The region search's steps other than walks that :meth:`_walks` lists under trigger bit ``low``
        (0: ``always``), specialised to a state holding ``low`` with static bits ``st``: ``(singles, multis)``.

        A candidate is dropped when it cannot apply to such a state: a static precondition that ``st``
        denies, ``low`` or its own pivot bit ``c`` among its negative preconditions, another pivot bit
        among its positive ones (the state's other bits, ``rest``, hold none). The rest keep only the
        preconditions left to test on ``rest``: ``pos`` less statics, ``c`` and ``low``; ``neg`` less
        statics and pivot bits. Candidates after one that always applies are dropped (the engine takes
        the first that applies). A pair left with one candidate, not a walk, is a single
        ``(c, pos, neg, keep, add)``; others stay ``(c, ((pos, neg, keep, add, walk), ...))``. Its
        successor is ``(rest | c) & keep | add``: no ground action adds or deletes a static bit.
        Kept per stepper by ``(low, st & the static bits its candidates read)`` (:class:`_Rows`)."""
        return self._push_rows.row(low, st)

    def _push_reads(self, low: int) -> int:
        """The static bits :meth:`_pushes`' candidates under trigger bit ``low`` test."""
        trig, always = self._walks()[1:]
        reads = 0
        for _c, cands in trig.get(low, ()) if low else always:
            for pos, neg, _keep, _add, _walk in cands:
                reads |= (pos | neg) & self.static_mask
        return reads

    def _specialise_pushes(self, low: int, st: int) -> tuple:
        static, pm = self.static_mask, self.pivot_mask
        trig, always = self._walks()[1:]
        singles, multis = [], []
        for c, cands in trig.get(low, ()) if low else always:
            kept = []
            for pos, neg, keep, add, walk in cands:
                if pos & static & ~st or neg & (st | c | low) or pos & pm & ~c:
                    continue
                pos_r, neg_r = pos & ~static & ~c & ~low, neg & ~static & ~pm
                kept.append((pos_r, neg_r, keep, add, walk))
                if not pos_r and not neg_r:
                    break  # always applies: the later ones are never taken
            if len(kept) == 1 and not kept[0][4]:
                singles.append((c, *kept[0][:4]))
            elif kept and any(not k[4] for k in kept):
                multis.append((c, tuple(kept)))
        return tuple(singles), tuple(multis) or None

    def _reach_by_states(
        self, s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, is_dead, max_states
    ) -> Reach:
        """:meth:`reachable` state by state, best first by the number of goal atoms a state already holds
        (the most recent first among equals)."""
        static = self.static_mask
        pm = self.pivot_mask
        moves = self._specialise(st)
        seen = {s0}
        add = seen.add
        # a bucket queue by goal atoms already true: the state with the most is expanded first, most recent first
        top = (s0 & goal_pos).bit_count()
        stacks: list[list[int]] = [[] for _ in range(goal_pos.bit_count() + 1)]
        stacks[top].append(s0)
        n_keys = len(self.keys)
        while True:
            while top >= 0 and not stacks[top]:
                top -= 1
            if top < 0:
                break
            s = stacks[top].pop()
            piv = s & pm
            if piv & (piv - 1):  # not exactly one pivot atom: the engine's step, as in bfs
                row = []
                for a in range(n_keys):
                    t, applied = self.step(s | st, a)
                    if applied:
                        row.append((a, ((0, 0, 0, t & ~static),)))
            else:
                row = moves[piv]
            unset = ~s & watch_mask
            for _a, cands in row:
                for pos, neg, keep, add_bits in cands:
                    if s & pos == pos and not s & neg:
                        t = (s & keep) | add_bits
                        break
                else:
                    continue
                if t in seen:
                    continue
                add(t)
                if t & goal_pos == goal_pos and not t & goal_neg:
                    return Reach(True, len(seen), True)
                if t & dead_any:
                    continue
                new = t & unset
                if new and _completes_a_mask(t, new, watch):
                    continue
                if is_dead is not None and is_dead(t):
                    continue
                h = (t & goal_pos).bit_count()
                stacks[h].append(t)
                if h > top:
                    top = h
            if len(seen) > max_states:
                return Reach(False, len(seen), False)
        return Reach(False, len(seen), True)

    def _prepare(self, init, goal_pos, goal_neg, dead_any, dead_all, is_dead):
        """The search's start on the fluent bits (see :meth:`bfs`): a finished :class:`SearchResult`, or
        ``(s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, is_dead)``."""
        static = self.static_mask
        st = init & static
        s0 = init & ~static
        if goal_pos & static & ~st or goal_neg & st:
            return SearchResult(None, 1, True)  # the goal asks for a static fact that is not so
        goal_pos, goal_neg = goal_pos & ~static, goal_neg & ~static
        always_dead = bool(st & dead_any)
        dead_any &= ~static
        # m ⊆ (t | st)  ⟺  (m & ~st) ⊆ t, as t has no static bits; masks needing a false static bit never fire
        masks = []
        for m in dead_all:
            m &= ~st
            if m & static:
                continue
            if not m:
                always_dead = True
            masks.append(m)
        if is_dead is not None:
            user_dead = is_dead

            def is_dead(t: int) -> bool:
                return user_dead(t | st)

        if s0 & goal_pos == goal_pos and not s0 & goal_neg:
            return SearchResult([], 1, True)
        if always_dead or s0 & dead_any or any(s0 & m == m for m in masks) or (is_dead is not None and is_dead(s0)):
            return SearchResult(None, 1, True)
        # A mask can only become complete through a bit the step set: index the
        # masks by their bits and check just those (the parent was live).
        watch: dict[int, list[int]] = {}
        for m in masks:
            x = m
            while x:
                low = x & -x
                watch.setdefault(low, []).append(m)
                x ^= low
        watch_mask = 0
        for low in watch:
            watch_mask |= low

        return s0, st, goal_pos, goal_neg, dead_any, watch, watch_mask, is_dead

    def _moves(self) -> dict | None:
        """pivot bit → [(action, candidates)], or None when some action has no pivot."""
        if self._moves_cache is False:
            if any(loose for _by, loose in self.buckets):
                self._moves_cache = None
            else:
                pivots = sorted({p for by, _ in self.buckets for p in by})
                self._moves_cache = {
                    p: tuple((a, by[p]) for a, (by, _) in enumerate(self.buckets) if p in by) for p in pivots
                }
        return self._moves_cache

    def _specialise(self, st: int) -> dict:
        """:meth:`_moves` for one problem: drop ground actions whose static preconditions
        fail given the static bits ``st``, and strip the static bits from the rest.

        Filled per pivot when the search first meets it (a search visits few of them), from
        rows kept across problems: a pivot's row depends only on the static bits its
        candidates read (a cell's neighbouring walls), so problems share them."""
        return _Specialised(self._moves(), st, self._rows)

    def _move_reads(self, piv: int) -> int:
        """The static bits the candidates of pivot ``piv``'s row test."""
        reads = 0
        for _a, cands in self._moves().get(piv, ()):
            for pos, neg, _keep, _add in cands:
                reads |= (pos | neg) & self.static_mask
        return reads

    def _move_row(self, piv: int, st: int) -> tuple:
        return _specialised_row(self._moves(), self.static_mask, st, piv)

    def _bfs_generic(self, init, goal_pos, goal_neg, max_states, dead_any, dead_all, is_dead) -> SearchResult:
        def goal(s):
            return s & goal_pos == goal_pos and not s & goal_neg

        def dead(s):
            return bool(s & dead_any) or any(s & m == m for m in dead_all) or (is_dead is not None and is_dead(s))

        if goal(init):
            return SearchResult([], 1, True)
        parent: dict[int, tuple[int, int] | None] = {init: None}
        queue = deque([] if dead(init) else [init])
        while queue:
            s = queue.popleft()
            for a in range(len(self.keys)):
                t, applied = self.step(s, a)
                if not applied or t in parent:
                    continue
                parent[t] = (s, a)
                if goal(t):
                    return SearchResult(_unwind(parent, t), len(parent), True)
                if not dead(t):
                    queue.append(t)
            if len(parent) > max_states:
                return SearchResult(None, len(parent), False)
        return SearchResult(None, len(parent), True)


class _Specialised(dict):
    """pivot bit → the problem's ``(action, candidates)``, built on first lookup (see ``SearchStepper._specialise``)."""

    def __init__(self, moves: dict, st: int, rows: "_Rows"):
        super().__init__()
        self._moves, self._st, self._rows = moves, st, rows

    def __missing__(self, piv: int) -> tuple:
        out = self[piv] = self._rows.row(piv, self._st)
        return out

    def get(self, piv, default=None):
        return self[piv] if piv in self._moves else default


_ROWS_LIMIT = 200_000  # rows kept per stepper; a full table starts over


class _Rows:
    """Specialised rows kept by ``(trigger, st & reads)``: a pivot's row of moves
    (:meth:`SearchStepper._specialise`) or a trigger bit's region-search steps (``_pushes``).

    ``reads_of(trigger)`` is the union of the static bits the trigger's candidates test
    (positively or negatively); ``build(trigger, st)``, the row, is a function of ``st``
    restricted to them, so problems that agree there share one row.
    """

    def __init__(self, reads_of: Callable[[int], int], build: Callable[[int, int], tuple]):
        self.reads: dict[int, int] = {}
        self.rows: dict[tuple[int, int], tuple] = {}
        self._reads_of, self._build = reads_of, build

    def row(self, trigger: int, st: int) -> tuple:
        reads = self.reads.get(trigger)
        if reads is None:
            reads = self.reads[trigger] = self._reads_of(trigger)
        key = (trigger, st & reads)
        out = self.rows.get(key)
        if out is None:
            if len(self.rows) >= _ROWS_LIMIT:
                self.rows.clear()
            out = self.rows[key] = self._build(trigger, st)
        return out


def _picked(multis: tuple, rest: int, region: int) -> list[tuple[int, int, int, int, int]]:
    """Of :meth:`SearchStepper._pushes`' pairs with several candidates, those whose cell is in ``region``
    and whose first applicable candidate on ``rest`` (the engine's) is not a walk, as ``(c, pos, neg,
    keep, add)`` of that candidate, the shape of a single."""
    out = []
    for c, cands in multis:
        if not c & region:
            continue
        for pos, neg, keep, add, walk in cands:  # the first applicable candidate is the engine's
            if not rest & neg and rest & pos == pos:
                if not walk:  # a walk's target is in the region
                    out.append((c, pos, neg, keep, add))
                break
    return out


def _ask(dead_with: Callable[[int, int], tuple[int, int]], b: int, q: int, kd: tuple | None) -> tuple[int, int]:
    """``dead_with(b, q)``'s answer merged with what was known of ``b``: (pivots known, pivots dead)."""
    known, dead = dead_with(b, q)
    known |= q
    return (known | kd[0], dead | kd[1]) if kd else (known, dead)


def _grid_steps(steps: tuple):
    """``(offsets, up1, up2, down1, down2)`` when ``steps`` (see :func:`_flood`) is one group of two shifts
    toward higher bits and two toward lower (a grid's four moves, ``k`` positive in each), else None."""
    if len(steps) != 1:
        return None
    offsets, shifts = steps[0]
    up = [(k, src) for k, src in shifts if k >= 0]
    down = [(-k, src) for k, src in shifts if k < 0]
    if len(up) != 2 or len(down) != 2:
        return None
    return (offsets, *up, *down)


def _flood(start: int, done: int, x: int, steps: tuple, pm: int) -> int:
    """The pivot bits walks reach from ``start`` with the other bits ``x`` (statics included), stopping
    at ``done`` (already followed): breadth first on bitboards, one shift per agent action and step.
    ``steps``: per group of agent actions whose walks read the same offsets, the offsets and the
    actions' ``(k, sources)``."""
    up, down = [], []  # (shift, the cells a step leaves from): toward higher bits, toward lower
    for offsets, shifts in steps:
        blocked = done
        for o in offsets:
            blocked |= x >> o if o >= 0 else x << -o
        ok = pm & ~blocked
        for k, sources in shifts:
            if k >= 0:
                up.append((k, sources & ok >> k))
            else:
                down.append((-k, sources & ok << -k))
    region = front = start
    if len(up) == 2 and len(down) == 2:  # a grid's four moves, written out (the loop's overhead is most of a step)
        (k1, s1), (k2, s2) = up
        (k3, s3), (k4, s4) = down
        while front:
            front = ((front & s1) << k1 | (front & s2) << k2 | (front & s3) >> k3 | (front & s4) >> k4) & ~region
            region |= front
        return region
    while front:
        new = 0
        for k, sources in up:
            new |= (front & sources) << k
        for k, sources in down:
            new |= (front & sources) >> k
        front = new & ~region
        region |= front
    return region


def _walk_steps(buckets: list, pm: int, static: int):
    """:meth:`SearchStepper._walks` from the buckets (unspecialised ground actions by pivot bit)."""
    steps: dict[tuple, list] = {}
    trig: dict[int, list] = {}
    always = []
    listed = set()
    for a, (by, loose) in enumerate(buckets):
        if loose:
            return None
        shape = None
        sources = 0
        for c, cands in by.items():
            marked = tuple((pos, neg, keep, add, not (add | ~keep) & ~pm) for pos, neg, keep, add in cands)
            for i, (pos, neg, keep, add) in enumerate(cands):
                delete = ~keep
                if (add | delete) & ~pm:  # not a walk
                    need = pos & ~pm & ~static
                    low = need & -need
                    if (low, c, a) not in listed:
                        listed.add((low, c, a))
                        (trig.setdefault(low, []) if low else always).append((c, marked))
                    continue
                q = add
                if pos != c or delete != c or neg & pm or not q or q & (q - 1) or q == c or sources & c:
                    return None
                k = q.bit_length() - c.bit_length()
                offsets = []
                x = neg
                while x:
                    low = x & -x
                    offsets.append(low.bit_length() - q.bit_length())
                    x ^= low
                if shape is None:
                    shape = (k, tuple(offsets))
                elif shape != (k, tuple(offsets)):
                    return None
                if any(not (p & neg or n & pos) for p, n, _k, _a in cands[:i]):
                    return None
                sources |= c
        if shape is not None:
            steps.setdefault(shape[1], []).append((shape[0], sources))
    return tuple((o, tuple(v)) for o, v in steps.items()), {b: tuple(v) for b, v in trig.items()}, tuple(always)


def _specialised_row(moves: dict, static: int, st: int, piv: int) -> tuple:
    row = []
    for a, cands in moves.get(piv, ()):
        kept = tuple(
            (pos & ~static, neg & ~static, keep, add)
            for pos, neg, keep, add in cands
            if pos & static & ~st == 0 and not neg & st
        )
        if kept:
            row.append((a, kept))
    return tuple(row)


def _unwind(parent: dict, s: int) -> list[int]:
    plan = []
    while parent[s] is not None:
        s, a = parent[s]
        plan.append(a)
    return plan[::-1]
