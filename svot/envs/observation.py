"""Observations straight from engine states: which atom draws which kind in which cell.

The env's observation is an N×N ``uint8`` grid (``uint16`` above 8 kinds), bit i
of a cell set when ``spec.kinds[i]`` occupies it. The spec says so through ``state_dict`` and
``cell_kinds``, which build Python dicts: exact, but too slow to run on every
step of an RL loop. Here the same grid is read off the state's bits:
:func:`observation_layout` finds, by predicate name, the one atom that draws
each (cell, kind) (``(at ?c)`` the player, ``(coin ?c)`` a coin, ``(ball ?c
red)`` a red ball; a spec may name other kinds through
:meth:`~svot.kernel.DomainSpec.atom_kind_names`), and :class:`BitObserver` turns
a state into a grid with that table, or updates the previous grid by the atoms
that changed. A kind that no atom draws (a wall that is the *absence* of a
passage) is taken to stay as it is within an episode: its bits come from the
spec's grid of the episode's first state (:meth:`BitObserver.static_grid`) and
are carried along by the updates.

The map is derived, not declared, so it is checked: an observer compares its
grids with the spec's on the first :data:`VERIFY_STATES` states it sees and,
on a difference, logs it and hands every later state back to the spec (the
caller's slow path). The vector env checks the same layout on its pool.
"""

from __future__ import annotations

import itertools
import logging
import weakref

import numpy as np

from svot.kernel import DomainSpec
from svot.errors import ConfigError

log = logging.getLogger(__name__)

VERIFY_STATES = 256  # states per observer checked against the spec before it is trusted
_FLIP_LIMIT = 16_384  # state changes whose grid flips an observer keeps


def slots_per_cell(spec: DomainSpec) -> int:
    """Layout slots per cell: one per bit of the observation's dtype (8 or 16)."""
    return 8 * np.dtype(observation_dtype(spec)).itemsize


def observation_layout(spec: DomainSpec, size: int, domain, folded: set) -> list:
    """S slots per cell (row-major, S = :func:`slots_per_cell`): slot ``S*cell + i`` holds the atom
    that draws ``spec.kinds[i]`` there.

    The atom of a kind is found by name (:meth:`~svot.kernel.DomainSpec.atom_kind_names`):
    by default ``(at ?c)`` draws ``player``, ``(p ?c)`` draws kind ``p``, ``(p ?c x)``
    draws kind ``p_x`` (e.g. ``ball_red``). Slots with no atom are padding (``None``).
    """
    kinds = {k: i for i, k in enumerate(spec.kinds)}
    slots = slots_per_cell(spec)
    objects = spec.base_objects(size)
    cells = {name: i for i, (name, t) in enumerate(o for o in objects if o[1] == "cell")}
    by_type: dict[str, list[str]] = {}
    for name, t in objects:
        by_type.setdefault(t, []).append(name)
    layout: list = [None] * (slots * len(cells))
    for pred in sorted(domain.predicates):
        if pred in folded or pred in domain.action_predicates:
            continue
        types = domain.predicates[pred]
        where = [i for i, t in enumerate(types) if t == "cell"]
        if len(where) != 1:
            continue
        for args in itertools.product(*(by_type.get(t, []) for t in types)):
            rest = [x for i, x in enumerate(args) if i != where[0]]
            for kind in spec.atom_kind_names(pred, rest):
                if kind in kinds:
                    slot = slots * cells[args[where[0]]] + kinds[kind]
                    if layout[slot] is None:
                        layout[slot] = (pred, *args)
                    break
    return layout


def undrawn_kinds(spec: DomainSpec, size: int, layout: list) -> int:
    """The bit mask of the kinds a grid of ``size`` can hold that no atom of ``layout`` draws (taken to
    be constant within an episode)."""
    slots = slots_per_cell(spec)
    drawn = 0
    for slot, atom in enumerate(layout):
        if atom is not None:
            drawn |= 1 << (slot % slots)
    present = set(spec.kinds_at(size))  # (a small grid may hold fewer kinds, e.g. colours: those are never drawn)
    return sum(1 << i for i, k in enumerate(spec.kinds) if k in present) & ~drawn


def static_grid(spec: DomainSpec, state_dict: dict, size: int, undrawn: int) -> np.ndarray:
    """The bits of the ``undrawn`` kinds as the spec draws them in ``state_dict`` (an episode's own)."""
    return spec_observation(spec, state_dict, size) & observation_dtype(spec)(undrawn)


def observation_dtype(spec: DomainSpec) -> type:
    """The observation grid's dtype: one bit per kind, ``uint8`` up to 8 kinds, ``uint16`` up to 16."""
    n = len(spec.kinds)
    if n > 16:
        raise ConfigError(f"{spec.name} has {n} kinds; an observation grid holds at most 16")
    return np.uint8 if n <= 8 else np.uint16


def spec_observation(spec: DomainSpec, state: dict, size: int) -> np.ndarray:
    """The observation grid as the spec defines it (``cell_kinds`` of a state dict): the reference."""
    bit = {k: 1 << i for i, k in enumerate(spec.kinds)}
    obs = np.zeros((size, size), observation_dtype(spec))
    for cell, kinds in spec.cell_kinds(state).items():
        v = 0
        for k in kinds:
            v |= bit[k]
        obs[cell] = v
    return obs


class BitObserver:
    """Observation grids of one grounding's integer states (bit i = ``fluents[i]``).

    ``table[i]`` is ``(flat cell, kind bit)`` for a fluent that draws a kind,
    ``None`` otherwise; ``base`` is what the grounding's folded static atoms
    draw. Each (cell, kind) has at most one atom, so a grid is ``base`` plus
    the sum of its atoms' entries, and an atom that flips flips exactly its bit.
    ``undrawn`` is the mask of the kinds no atom draws: their bits are the
    episode's own (:meth:`static_grid`), which :meth:`observe` takes as ``static``.
    """

    def __init__(self, spec: DomainSpec, size: int, fluents, layout: list, static_atoms=()):
        self.spec = spec
        self.size = size
        self.dtype = observation_dtype(spec)
        slots = slots_per_cell(spec)
        slot_of = {atom: slot for slot, atom in enumerate(layout) if atom is not None}
        self.undrawn = undrawn_kinds(spec, size, layout)
        # atoms folded into the grounding (a per-problem grounding's walls) draw the same in every state
        self.base = np.zeros(size * size, self.dtype)
        for atom in static_atoms:
            slot = slot_of.get(tuple(atom))
            if slot is not None:
                self.base[slot // slots] |= 1 << (slot % slots)
        self._base_list = self.base.tolist()  # observe()'s starting grid, as ints
        self.table: list = []
        self._drawing = 0  # the bits of the fluents that draw a kind: observe() reads only those
        for i, atom in enumerate(fluents):
            slot = slot_of.get(tuple(atom))
            self.table.append(None if slot is None else (slot // slots, 1 << (slot % slots)))
            if slot is not None:
                self._drawing |= 1 << i
        self._flips: dict[int, np.ndarray] = {}  # before ^ after -> the grid bits it flips (see update)
        self._init_packed()
        self.to_verify = VERIFY_STATES
        self.trusted = True  # False once a grid differed from the spec's: callers use the spec then

    def static_grid(self, state_dict: dict) -> np.ndarray:
        """The bits of the kinds no atom draws, as the spec draws them in ``state_dict`` (the episode's own)."""
        return static_grid(self.spec, state_dict, self.size, self.undrawn)

    def _init_packed(self) -> None:
        """The tables of :meth:`observe`: a grid as one int, cell ``c`` its ``c``-th little-endian word of the
        dtype's width, so that OR-ing an atom's (cell, kind) into it is one int OR.

        ``_mark[i]``: fluent ``i``'s (cell, kind) as such an int (0 if it draws nothing); ``_bytes``:
        per byte ``k`` of a state's drawing bits that holds any, ``(k, memo)``, ``memo[v]`` the OR of the
        marks of the bits of byte value ``v`` (filled when first met), so a state costs one lookup per
        byte, not a few operations per atom."""
        width = 8 * np.dtype(self.dtype).itemsize
        self._mark = [0 if e is None else e[1] << (width * e[0]) for e in self.table]
        self._base_int = sum(int(v) << (width * c) for c, v in enumerate(self._base_list))
        self._state_bytes = (self._drawing.bit_length() + 7) // 8
        self._bytes = [(k, {}) for k in range(self._state_bytes) if self._drawing >> (8 * k) & 255]
        self._grid_bytes = self.size * self.size * np.dtype(self.dtype).itemsize
        self._le_dtype = np.dtype(self.dtype).newbyteorder("<")
        self._swap = self._le_dtype != np.dtype(self.dtype)  # a big-endian machine: the words are converted
        self.word_bits = 8 * np.dtype(self.dtype).itemsize  # a cell's word in those ints

    def observe(self, state: int, static: np.ndarray | int | None = None) -> np.ndarray:
        """The grid of ``state``, from scratch (``static``: the episode's :meth:`static_grid`, if any kind is
        undrawn, or the same as an int of ``word_bits``-bit words, cell ``c`` the ``c``-th).

        Each (cell, kind) has at most one atom, so OR-ing the marks of the state's drawing atoms
        into ``base`` gives the grid (other bits, and bits past the table, draw nothing): byte by byte
        of the state's bits through ``_bytes``, or, where the state has few atoms for its many bytes,
        atom by atom.
        """
        rest = state & self._drawing
        if 4 * rest.bit_count() >= len(self._bytes):
            grid = self._base_int | self._marks_by_byte(rest)
        else:
            grid = self._base_int | self._marks_by_atom(rest)
        if type(static) is int:
            grid, static = grid | static, None
        raw_grid = bytearray(grid.to_bytes(self._grid_bytes, "little"))  # a bytearray: the array is writable
        out = np.frombuffer(raw_grid, self._le_dtype).reshape(self.size, self.size)
        if self._swap:
            out = out.astype(self.dtype)
        if static is not None:
            out |= static
        return out

    def _marks_by_byte(self, drawing_bits: int) -> int:
        """The OR of the marks of ``drawing_bits`` (a state's drawing bits), a lookup per byte that holds any."""
        raw = drawing_bits.to_bytes(self._state_bytes, "little")
        marks = 0
        for k, memo in self._bytes:
            v = raw[k]
            if v:
                marks |= memo.get(v) or self._byte_marks(k, v, memo)
        return marks

    def _marks_by_atom(self, drawing_bits: int) -> int:
        """:meth:`_marks_by_byte`, atom by atom (cheaper for a state with few atoms over many bytes)."""
        mark = self._mark
        marks = 0
        while drawing_bits:
            low = drawing_bits & -drawing_bits
            marks |= mark[low.bit_length() - 1]
            drawing_bits ^= low
        return marks

    def _byte_marks(self, k: int, v: int, memo: dict) -> int:
        """The OR of the marks of the bits of ``v``, byte ``k`` of a state's drawing bits (kept in ``memo``)."""
        marks = 0
        for j in range(8):
            if v >> j & 1:
                marks |= self._mark[8 * k + j]
        memo[v] = marks
        return marks

    def update(self, grid: np.ndarray, before: int, after: int) -> np.ndarray:
        """The grid of ``after`` from the grid of ``before`` (a new array; ``grid`` is untouched).

        An atom that flips flips exactly its (cell, kind) bit, so what changes depends only
        on ``before ^ after``; that change's grid is kept (a step's flips repeat across states).
        The undrawn kinds' bits stay as they are.
        """
        delta = before ^ after
        flips = self._flips.get(delta)
        if flips is None:
            flips = self._flip_grid(delta)
        return grid ^ flips

    def _flip_grid(self, delta: int) -> np.ndarray:
        """The (size, size) grid of the kind bits that the atoms set in ``delta`` draw (kept while there is room)."""
        flat = [0] * (self.size * self.size)
        table = self.table
        rest = delta
        while rest:
            i = rest.bit_length() - 1
            rest ^= 1 << i
            entry = table[i]
            if entry is not None:
                flat[entry[0]] ^= entry[1]
        flips = np.array(flat, self.dtype).reshape(self.size, self.size)
        if len(self._flips) >= _FLIP_LIMIT:
            self._flips.clear()
        self._flips[delta] = flips
        return flips

    def check(self, grid: np.ndarray, state_dict: dict, where: str) -> bool:
        """Compare ``grid`` with the spec's; on a difference stop trusting this observer (logged)."""
        self.to_verify -= 1
        expected = spec_observation(self.spec, state_dict, self.size)
        if np.array_equal(grid, expected):
            return True
        self.trusted = False
        cells = [tuple(map(int, c)) for c in np.argwhere(grid != expected)[:4]]
        log.warning(
            "%s %dx%d: observations read from atom names disagree with spec.cell_kinds at cells %s (%s); "
            "computing them through the spec from now on (slower)",
            self.spec.name, self.size, self.size, cells, where,
        )
        return False


_OBSERVERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def observer_for(spec: DomainSpec, size: int, task) -> BitObserver | None:
    """The :class:`BitObserver` of a ground task's states (shared by every engine on that task), or None.

    ``task`` is a :class:`~svot.engine.grounded.GroundTask` (it has ``fluents``,
    ``static_atoms`` and ``domain``); anything else has no bit states to read.
    """
    fluents = getattr(task, "fluents", None)
    if fluents is None:
        return None
    per_task = _OBSERVERS.get(task)
    if per_task is None:
        per_task = _OBSERVERS[task] = {}
    key = (spec.name, size)
    obs = per_task.get(key)
    if obs is None:
        layout = observation_layout(spec, size, task.domain, set())
        obs = per_task[key] = BitObserver(spec, size, fluents, layout, task.static_atoms)
    return obs
