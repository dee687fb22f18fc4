"""The region search of :meth:`~svot.engine.search.SearchStepper.reachable`, compiled with Numba.

:meth:`SearchStepper._reach_by_regions` spends a few microseconds of interpreter time per region
(a flood, then the steps other than walks from its cells); a generator's solvability verdict on a
crowded 6x6 grid floods some 25 regions. This module runs the same search, in the same order, as
machine code over two 64-bit words per state: the pivot atoms (where the agent stands) and the other
fluent atoms. Its tables are read off the stepper's own (``_walks`` and ``_region_steps``,
themselves read off the ground actions), so nothing here is written for a domain: a grounding whose
bits do not fit that shape (pivot or other fluent bits not one run each of at most 62 bits, walks
not a grid's four shifts), and a search with dead masks to watch (``dead_all``), keep the
interpreted search (``tests/engine/test_region_kernel.py`` lists which groundings get one). Where
the engine's pick among a pair's candidates depends on the problem's static bits or on the state,
the compiled search makes it as ``SearchStepper._specialise_pushes`` and ``_picked`` do: the singles
of a trigger's row first, then the first candidate that applies of each other pair.

What differs from the interpreted search: ``dead_with`` (an optional pruning, see
:meth:`SearchStepper.reachable`) is not asked, since calling back into Python per step would cost
more than the states it spares here. The verdict is the same (a pruned state reaches no goal);
``Reach.states`` is then the unpruned search's count.
``tests/engine/test_region_kernel.py`` holds found, states and completeness equal to the
interpreted search without ``dead_with`` on every search it tries.

``SVOT_JIT=0`` in the environment, or Numba not importable, keeps every search interpreted. The
first compiled search in a fresh install compiles the kernel (about 2 s) and caches it beside this
file (Numba's ``cache=True``, or its per-user cache where that is read-only); later processes load it
(about 0.4 s with Numba's import).
"""

from __future__ import annotations

import logging
import os

import numpy as np

log = logging.getLogger(__name__)

_MAX_BITS = 62  # a run's bits and its shifts stay clear of int64's sign bit
_kernel = None  # the compiled search, once loaded (False: unavailable in this process)


# whether searches may run compiled: SVOT_JIT=0 in the environment at import turns it off (tests set it here)
ENABLED = os.environ.get("SVOT_JIT", "1") != "0"


def enabled() -> bool:
    """Whether searches may run compiled (:data:`ENABLED`)."""
    return ENABLED


def _compiled():
    """The compiled search, or None where Numba is not importable (logged once)."""
    global _kernel
    if _kernel is None:
        try:
            from svot.engine._region_numba import region_search  # imports Numba: only once a search runs
        except ImportError as exc:  # numba missing or broken: the interpreted search stays
            log.info("svot: Numba unavailable (%s); verdict searches run interpreted", exc)
            _kernel = False
        else:
            _kernel = region_search
    return _kernel or None


def status() -> str:
    """How verdict searches run in this process, for benchmarks' headers."""
    if not enabled():
        return "interpreted (SVOT_JIT=0)"
    if _compiled() is None:
        return "interpreted (Numba not importable)"
    import numba  # loaded already by _compiled(): only its version is read here

    return f"compiled (Numba {numba.__version__})"


def _run(mask: int) -> tuple[int, int] | None:
    """``(base, width)`` when ``mask`` is one run of consecutive bits (0: an empty run), else None."""
    if not mask:
        return 0, 0
    base = (mask & -mask).bit_length() - 1
    width = mask.bit_length() - base
    return (base, width) if mask == ((1 << width) - 1) << base else None


class RegionKernel:
    """A stepper's region-search tables in the compiled search's shape (see the module docstring).

    Built by :func:`region_kernel`; :meth:`reach` runs one search.
    """

    def __init__(self, stepper, pivot: tuple[int, int], rest: tuple[int, int], grid, rows):
        self.pm, self.static = stepper.pivot_mask, stepper.static_mask
        (self.pbase, self.pbits), (self.rbase, self.rbits) = pivot, rest
        self.pfull, self.rfull = (1 << self.pbits) - 1, (1 << self.rbits) - 1
        self.offsets, *shifts = grid
        self.flood = np.array([v for k, src in shifts for v in (k, (src >> self.pbase) & self.pfull)], np.int64)
        # the pivot cells each other bit blocks, as a walk's negative preconditions read them (_flood)
        blocked_by = []
        for j in range(self.rbits):
            g, b = 1 << (self.rbase + j), 0
            for o in self.offsets:
                b |= g >> o if o >= 0 else g << -o
            blocked_by.append((b >> self.pbase) & self.pfull)
        self.blocked_by = np.array(blocked_by or [0], np.int64)
        # rows: 0 the pairs that need no other bit (``always``), j + 1 those triggered by other bit j; a
        # pair: one agent action's candidates at one pivot cell, in the engine's order
        self.words = max(1, -(-max(self.static.bit_length(), 1) // 64))
        self.st_bytes = 8 * self.words
        row_start, pair_start, cands, spos, sneg = [0], [0], [], [], []
        for row in rows:
            for c, pair in row:
                for pos, neg, keep, add, walk, pos_s, neg_s in pair:
                    q = ((c & keep) | add) & self.pm
                    cands.append(
                        (
                            (c >> self.pbase) & self.pfull,
                            (pos >> self.rbase) & self.rfull,
                            (neg >> self.rbase) & self.rfull,
                            (keep >> self.rbase) & self.rfull,
                            (add >> self.rbase) & self.rfull,
                            (q >> self.pbase) & self.pfull,
                            int(walk),
                        )
                    )
                    spos.append(self._words(pos_s))
                    sneg.append(self._words(neg_s))
                pair_start.append(len(cands))
            row_start.append(len(pair_start) - 1)
        self.has_always = row_start[1] > 0
        self.row_start = np.array(row_start, np.int64)
        self.pair_start = np.array(pair_start, np.int64)
        self.cands = np.array(cands or np.zeros((0, 7)), np.int64).reshape(-1, 7)
        self.spos = np.array(spos or np.zeros((0, self.words)), np.int64).reshape(-1, self.words)
        self.sneg = np.array(sneg or np.zeros((0, self.words)), np.int64).reshape(-1, self.words)

    def _words(self, x: int) -> list[int]:
        """``x`` as ``self.words`` signed 64-bit words, lowest first (numpy's int64 view of each word)."""
        out = []
        for _ in range(self.words):
            w = x & 0xFFFF_FFFF_FFFF_FFFF
            out.append(w - (1 << 64) if w >> 63 else w)
            x >>= 64
        return out

    def reach(self, s0: int, st: int, goal_pos: int, goal_neg: int, dead_any: int, max_states: int):
        """``(found, states, complete)`` of the region search from fluent state ``s0`` with static bits ``st``
        (the interpreted search's arguments after ``_prepare``)."""
        pm, pb, rb, pf, rf = self.pm, self.pbase, self.rbase, self.pfull, self.rfull
        st_blocked = 0
        for o in self.offsets:
            st_blocked |= st >> o if o >= 0 else st << -o
        goal_piv, goal_neg_piv = goal_pos & pm, goal_neg & pm
        goal_cells = 0 if goal_piv & (goal_piv - 1) else (goal_piv or pm) & ~goal_neg_piv
        scalars = np.array(
            [
                (s0 >> pb) & pf,
                (s0 >> rb) & rf,
                (goal_pos >> rb) & rf,
                (goal_neg >> rb) & rf,
                (goal_cells >> pb) & pf,
                (goal_piv >> pb) & pf,
                (goal_neg_piv >> pb) & pf,
                (dead_any >> rb) & rf,
                (st_blocked >> pb) & pf,
                pf,
                self.rbits,
                int(self.has_always),
                max_states,
            ],
            np.int64,
        )
        # the static bits as int64 words, lowest first (Numba runs on little-endian hosts only)
        st_words = np.frombuffer(bytearray(st.to_bytes(self.st_bytes, "little")), np.int64)
        found, n, complete = _compiled()(
            scalars, self.flood, self.blocked_by, self.row_start, self.pair_start, self.cands, self.spos, self.sneg,
            st_words,
        )
        return bool(found), int(n), bool(complete)


def region_kernel(stepper) -> RegionKernel | None:
    """The stepper's :class:`RegionKernel`, or None where its search must stay interpreted (see the
    module docstring). Built once per stepper; whether Numba loads is asked here too."""
    got = getattr(stepper, "_region_kernel_cache", False)
    if got is False:
        got = _build(stepper) if _compiled() is not None else None
        stepper._region_kernel_cache = got
    return got


def _build(stepper) -> RegionKernel | None:
    walks = stepper._walks()
    if walks is None:
        return None
    _steps, grid = stepper._region_steps()
    if grid is None:
        return None
    pm, static = stepper.pivot_mask, stepper.static_mask
    fluent = 0
    for b in stepper.task.bit.values():
        fluent |= b
    rest_mask = fluent & ~pm & ~static
    pivot, rest = _run(pm), _run(rest_mask)
    if pivot is None or rest is None or pivot[1] > _MAX_BITS or rest[1] > _MAX_BITS:
        return None
    if pivot[1] + max(k for k, _src in grid[1:]) > _MAX_BITS:
        return None
    trig, always = walks[1], walks[2]
    rows = [_row(always, 0, pm, static, rest_mask)]
    for j in range(rest[1]):
        low = 1 << (rest[0] + j)
        rows.append(_row(trig.get(low, ()), low, pm, static, rest_mask))
    if any(r is None for r in rows) or any(b & ~(pm | rest_mask) for b in trig):
        return None
    return RegionKernel(stepper, pivot, rest, grid, rows)


def _row(pairs, low: int, pm: int, static: int, rest_mask: int) -> list | None:
    """A trigger's pairs as the compiled search reads them: ``(c, candidates)``, each candidate
    ``(pos, neg, keep, add, walk, pos_s, neg_s)`` with the preconditions left to test on the other bits
    (``SearchStepper._specialise_pushes``' ``pos_r`` and ``neg_r``) and the static bits to hold and to
    lack, tested once per search. Dropped here: what ``_specialise_pushes`` drops whatever the static
    bits are, and pairs left with walks only (the flood takes walks). None where a bit falls outside
    the two runs."""
    out = []
    for c, cands in pairs:
        kept = []
        for pos, neg, keep, add, walk in cands:
            if neg & (c | low) or pos & pm & ~c:
                continue
            pos_r, neg_r = pos & ~static & ~c & ~low, neg & ~static & ~pm
            if (pos_r | neg_r) & ~rest_mask or (add | ~keep) & ~(pm | rest_mask):
                return None
            kept.append((pos_r, neg_r, keep, add, walk, pos & static, neg & static))
        if any(not k[4] for k in kept):
            out.append((c, tuple(kept)))
    return out
