"""Trajectories: what a rule validator sees.

A trajectory of ``T`` moves has ``T + 1`` *steps*. Step ``t`` holds the symbol
of the cell entered after ``t`` moves (step 0 is the start) and, for
``t < T``, the move taken from it: ``actions[t]`` leaves step ``t`` and enters
step ``t + 1``. Symbols are what InspectGrid reports (see :mod:`.symbols`):
plain cells read ``"normal"``, and in a QuestMaze an item is collected when
its cell is first entered, so re-entering that cell later reads ``"normal"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from svot.rulemaze import symbols as S

Cell = tuple[int, int]


@dataclass(frozen=True)
class Trajectory:
    """Symbols of the visited cells and the moves between them.

    Attributes:
        symbols: ``symbols[t]`` for ``t = 0..T`` (``len(actions) + 1`` entries).
        actions: ``actions[t]`` is the move taken from step ``t`` (``T`` entries).
    """

    symbols: tuple[str, ...]
    actions: tuple[str, ...]

    def __post_init__(self) -> None:
        syms = tuple(self.symbols)
        acts = tuple(self.actions)
        if len(syms) != len(acts) + 1:
            raise ValueError(f"a trajectory needs one more symbol than actions, got "
                             f"{len(syms)} symbols and {len(acts)} actions")
        for a in acts:
            if a not in S.DIRECTIONS:
                raise ValueError(f"unknown action {a!r} (expected one of {', '.join(S.DIRECTIONS)})")
        object.__setattr__(self, "symbols", syms)
        object.__setattr__(self, "actions", acts)

    @property
    def length(self) -> int:
        """Number of moves ``T``."""
        return len(self.actions)

    def prefix(self, moves: int) -> "Trajectory":
        """The first ``moves`` moves (and ``moves + 1`` steps)."""
        return Trajectory(self.symbols[: moves + 1], self.actions[:moves])

    def extend(self, action: str, symbol: str) -> "Trajectory":
        """This trajectory followed by one more move into a cell showing ``symbol``."""
        return Trajectory(self.symbols + (symbol,), self.actions + (action,))

    @classmethod
    def from_path(cls, maze, path: Sequence[Cell]) -> "Trajectory":
        """The trajectory of a sequence of neighbouring cells in ``maze`` (walls are
        not checked here; use :meth:`Maze.walk` for that).

        Derived fast model of the ``collect`` operator of ``questmaze.pddl`` /
        ``questmaze5.pddl`` (an item shows on the first entry of its cell only),
        proven against the grounded engine by
        ``tests/rulemaze/test_rulemaze_pddl_agreement.py::test_from_actions_agrees_with_engine``."""
        path = [tuple(c) for c in path]
        if not path:
            raise ValueError("a path needs at least its start cell")
        actions = [direction_between(a, b) for a, b in zip(path, path[1:])]
        seen: set[Cell] = set()
        syms = []
        for cell in path:
            sym = S.inspect_symbol(maze.symbol(cell))
            if sym in S.COLLECTED_SYMBOLS and cell in seen:
                sym = S.NORMAL  # already collected
            seen.add(cell)
            syms.append(sym)
        return cls(tuple(syms), tuple(actions))

    @classmethod
    def from_actions(cls, maze, actions: Iterable[str], *, check_walls: bool = True) -> "Trajectory":
        """The trajectory of ``actions`` from the maze start.

        Raises ``ValueError`` when a move is blocked (``check_walls``) or leaves the grid.

        Derived fast model of the move preconditions of ``regularmaze.pddl`` /
        ``questmaze.pddl`` (``(open ?from ?dir ?to)``) and ``questmaze5.pddl``
        (``adjacent``, no ``monster``), up to the first target entered (the engine's
        ``(ended)`` refuses later moves; this model does not), proven against the
        grounded engine by
        ``tests/rulemaze/test_rulemaze_pddl_agreement.py::test_from_actions_agrees_with_engine``.
        """
        actions = list(actions)
        cur = maze.start
        path = [cur]
        for i, a in enumerate(actions):
            if a not in S.DELTAS:
                raise ValueError(f"action {i}: unknown action {a!r}")
            dr, dc = S.DELTAS[a]
            nxt = (cur[0] + dr, cur[1] + dc)
            if not maze.inside(nxt) or (check_walls and not maze.is_open(cur, nxt)):
                raise ValueError(f"action {i}: moving {a} from {list(cur)} is blocked")
            path.append(nxt)
            cur = nxt
        return cls.from_path(maze, path)


def direction_between(a: Cell, b: Cell) -> str:
    """The move leading from ``a`` to its neighbour ``b``."""
    delta = (b[0] - a[0], b[1] - a[1])
    for name, d in S.DELTAS.items():
        if d == delta:
            return name
    raise ValueError(f"cells {list(a)} and {list(b)} are not neighbours")


def path_to_actions(path: Sequence[Cell]) -> list[str]:
    """The action list (up/down/left/right) following a path of neighbouring cells."""
    return [direction_between(tuple(a), tuple(b)) for a, b in zip(path, path[1:])]
