"""The :class:`Maze` value type shared by the pool, matching, tools and (later) rendering.

Coordinates are ``(row, col)`` from the top left. Walls are implicit: two
neighbouring cells are connected exactly when their pair is listed in
``passages``; the outer border is always closed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from svot.rulemaze import symbols as S
from svot.rulemaze.errors import MazeError
from svot.rulemaze.scenario import get_scenario

Cell = tuple[int, int]
Passage = tuple[Cell, Cell]


def _cell(value: Any, where: str) -> Cell:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise MazeError(f"{where}: expected [row, col] with two integers, got {value!r}")
    return int(value[0]), int(value[1])


@dataclass(frozen=True)
class Maze:
    """An N×N maze with a start, goal cell(s) and one symbol per cell.

    Attributes:
        scenario: ``"RegularMaze"`` or ``"QuestMaze"``.
        size: N (at least 2).
        start: the start cell (green / prince).
        goals: goal cells: one red cell (RegularMaze), or the princess and
            treasure cells (QuestMaze), sorted.
        passages: open passages between neighbouring cells, each ``(a, b)``
            with ``a < b``, the tuple sorted. Everything else is wall.
        cells: ``cells[row][col]`` is the cell's symbol (see :mod:`.symbols`).

    The constructor normalises lists to tuples and sorts ``passages`` and
    ``goals``, so equal mazes compare (and hash) equal; it raises
    :class:`MazeError` naming the field on any inconsistency.
    """

    scenario: str
    size: int
    start: Cell
    goals: tuple[Cell, ...]
    passages: tuple[Passage, ...]
    cells: tuple[tuple[str, ...], ...]
    _adjacency: Mapping[Cell, tuple[Cell, ...]] = field(
        init=False, repr=False, compare=False, hash=False, default=None)

    # ------------------------------------------------------------------ build
    def __post_init__(self) -> None:
        try:
            kind = get_scenario(self.scenario)
        except ValueError as exc:
            raise MazeError(f"maze.scenario: {exc}") from None
        scenario = kind.name
        size = self.size
        if not isinstance(size, int) or isinstance(size, bool) or size < 2:
            raise MazeError(f"maze.size: expected an integer >= 2, got {size!r}")

        def inside(c: Cell, where: str) -> Cell:
            c = _cell(c, where)
            if not (0 <= c[0] < size and 0 <= c[1] < size):
                raise MazeError(f"{where}: cell {list(c)} lies outside the {size}x{size} grid")
            return c

        start = inside(self.start, "maze.start")
        if not isinstance(self.goals, (list, tuple)) or not self.goals:
            raise MazeError(f"maze.goals: expected a non-empty list of cells, got {self.goals!r}")
        goals = tuple(sorted(inside(g, f"maze.goals[{i}]") for i, g in enumerate(self.goals)))
        if len(set(goals)) != len(goals):
            raise MazeError(f"maze.goals: duplicate goal cells {[list(g) for g in goals]}")
        if start in goals:
            raise MazeError(f"maze.goals: the start {list(start)} is also a goal")

        if not isinstance(self.passages, (list, tuple)):
            raise MazeError(f"maze.passages: expected a list of cell pairs, got {self.passages!r}")
        pairs = []
        for i, p in enumerate(self.passages):
            where = f"maze.passages[{i}]"
            if not isinstance(p, (list, tuple)) or len(p) != 2:
                raise MazeError(f"{where}: expected a pair of cells, got {p!r}")
            a, b = inside(p[0], where + "[0]"), inside(p[1], where + "[1]")
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise MazeError(f"{where}: cells {list(a)} and {list(b)} are not neighbours")
            pairs.append((min(a, b), max(a, b)))
        passages = tuple(sorted(pairs))
        if len(set(passages)) != len(passages):
            raise MazeError("maze.passages: a passage is listed twice")

        rows = self.cells
        if not isinstance(rows, (list, tuple)) or len(rows) != size:
            raise MazeError(f"maze.cells: expected {size} rows, got {rows!r}")
        allowed = kind.cell_symbols
        grid = []
        for r, row in enumerate(rows):
            if not isinstance(row, (list, tuple)) or len(row) != size:
                raise MazeError(f"maze.cells[{r}]: expected a row of {size} symbols, got {row!r}")
            for c, sym in enumerate(row):
                if sym not in allowed:
                    raise MazeError(f"maze.cells[{r}][{c}]: unknown {scenario} symbol {sym!r} "
                                    f"(expected one of: {', '.join(allowed)})")
            grid.append(tuple(row))
        cells = tuple(grid)

        start_sym = kind.start_symbol
        goal_syms = kind.goal_symbols
        if cells[start[0]][start[1]] != start_sym:
            raise MazeError(f"maze.cells[{start[0]}][{start[1]}]: the start cell must hold "
                            f"{start_sym!r}, got {cells[start[0]][start[1]]!r}")
        for r in range(size):
            for c in range(size):
                sym = cells[r][c]
                if sym == start_sym and (r, c) != start:
                    raise MazeError(f"maze.cells[{r}][{c}]: {start_sym!r} away from the start")
                if sym in goal_syms and (r, c) not in goals:
                    raise MazeError(f"maze.cells[{r}][{c}]: {sym!r} on a cell that is not a goal")
        for g in goals:
            if cells[g[0]][g[1]] not in goal_syms:
                raise MazeError(f"maze.cells[{g[0]}][{g[1]}]: a goal cell must hold one of "
                                f"{list(goal_syms)}, got {cells[g[0]][g[1]]!r}")
        problem = kind.goal_error(sorted(cells[g[0]][g[1]] for g in goals))
        if problem is not None:
            raise MazeError(problem)

        for a, b in passages:  # an obstacle (the open grid's monster) blocks: no passage leads into its cell
            for cell in (a, b):
                if kind.obstacle_symbol is not None and cells[cell[0]][cell[1]] == kind.obstacle_symbol:
                    raise MazeError(f"maze.passages: passage {[list(a), list(b)]} leads into the "
                                    f"{kind.obstacle_symbol} cell {list(cell)}")
        adjacency: dict[Cell, list[Cell]] = {(r, c): [] for r in range(size) for c in range(size)}
        for a, b in passages:
            adjacency[a].append(b)
            adjacency[b].append(a)
        order = {d: i for i, d in enumerate(S.DELTAS.values())}
        frozen_adj = {
            u: tuple(sorted(vs, key=lambda v, u=u: order[(v[0] - u[0], v[1] - u[1])]))
            for u, vs in adjacency.items()
        }
        for name, value in (("scenario", scenario), ("start", start), ("goals", goals),
                            ("passages", passages), ("cells", cells), ("_adjacency", frozen_adj)):
            object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ queries
    @property
    def open_grid(self) -> bool:
        """Whether this is the open-grid layout (obstacle cells block, no walls)."""
        obstacle = get_scenario(self.scenario).obstacle_symbol
        return obstacle is not None and any(obstacle in row for row in self.cells)

    def inside(self, cell: Cell) -> bool:
        """Whether ``cell`` lies in the grid."""
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size

    def symbol(self, cell: Cell) -> str:
        """The symbol stored at ``cell`` (``KeyError`` outside the grid)."""
        if not self.inside(cell):
            raise KeyError(cell)
        return self.cells[cell[0]][cell[1]]

    def neighbors(self, cell: Cell) -> tuple[Cell, ...]:
        """Cells reachable from ``cell`` in one move, in up/down/left/right order."""
        return self._adjacency[tuple(cell)]

    def is_open(self, a: Cell, b: Cell) -> bool:
        """Whether there is a passage between the neighbouring cells ``a`` and ``b``.

        Derived fast model of the move preconditions of the maze's PDDL domain
        (:func:`svot.rulemaze.problem.maze_domain_name`), proven against the grounded
        engine by ``tests/rulemaze/test_rulemaze_pddl_agreement.py::test_passage_graph_is_the_engine_moves``."""
        return tuple(b) in self._adjacency.get(tuple(a), ())

    def move(self, cell: Cell, direction: str) -> Cell | None:
        """The cell reached by moving ``direction`` from ``cell``; ``None`` if a wall or
        the border blocks the move."""
        dr, dc = S.DELTAS[direction]
        nxt = (cell[0] + dr, cell[1] + dc)
        return nxt if self.is_open(cell, nxt) else None

    def walk(self, actions: Iterable[str], start: Cell | None = None) -> list[Cell] | None:
        """The cells visited by ``actions`` from ``start`` (default: the maze start),
        starting cell included; ``None`` as soon as a move is blocked."""
        cur = self.start if start is None else tuple(start)
        out = [cur]
        for a in actions:
            cur = self.move(cur, a)
            if cur is None:
                return None
            out.append(cur)
        return out

    @property
    def walls(self) -> tuple[Passage, ...]:
        """Closed walls between neighbouring cells (border excluded), sorted."""
        out = []
        for r in range(self.size):
            for c in range(self.size):
                for nb in ((r, c + 1), (r + 1, c)):
                    if self.inside(nb) and not self.is_open((r, c), nb):
                        out.append(((r, c), nb))
        return tuple(out)

    def target_at(self, cell: Cell) -> str | None:
        """The goal symbol at ``cell`` (``"red"``, ``"princess"``, ``"treasure"``) or None."""
        return self.symbol(cell) if tuple(cell) in self.goals else None

    def cells_with(self, symbol: str) -> tuple[Cell, ...]:
        """All cells holding ``symbol``, row-major."""
        return tuple((r, c) for r in range(self.size) for c in range(self.size)
                     if self.cells[r][c] == symbol)

    def replace_cells(self, updates: Mapping[Cell, str]) -> "Maze":
        """A copy with some cell symbols changed."""
        grid = [list(row) for row in self.cells]
        for (r, c), sym in updates.items():
            grid[r][c] = sym
        return Maze(self.scenario, self.size, self.start, self.goals, self.passages,
                    tuple(tuple(row) for row in grid))

    # ------------------------------------------------------------------ serialise
    def to_dict(self) -> dict:
        """A JSON-safe dictionary (lists only); :meth:`from_dict` inverts it."""
        return {
            "scenario": self.scenario,
            "size": self.size,
            "start": list(self.start),
            "goals": [list(g) for g in self.goals],
            "passages": [[list(a), list(b)] for a, b in self.passages],
            "cells": [list(row) for row in self.cells],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Maze":
        """Build a maze from :meth:`to_dict` output, validating every field."""
        if not isinstance(data, Mapping):
            raise MazeError(f"maze: expected a JSON object, got {type(data).__name__}")
        for key in ("scenario", "size", "start", "goals", "passages", "cells"):
            if key not in data:
                raise MazeError(f"maze.{key}: missing field")
        unknown = sorted(set(data) - {"scenario", "size", "start", "goals", "passages", "cells"})
        if unknown:
            raise MazeError(f"maze.{unknown[0]}: unknown field")
        return cls(scenario=data["scenario"], size=data["size"], start=data["start"],
                   goals=data["goals"], passages=data["passages"], cells=data["cells"])

    def canonical(self) -> str:
        """A canonical string form (sorted JSON) used to deduplicate pools."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def to_text(self) -> str:
        """A small ASCII drawing (for debugging and docs): ``S`` start, ``G``/``P``/``T``
        goals, first letter of a colour or item, ``.`` plain cells."""
        letters = get_scenario(self.scenario).text_letters
        n = self.size
        lines = ["+" + "---+" * n]
        for r in range(n):
            row = "|"
            below = "+"
            for c in range(n):
                sym = self.cells[r][c]
                row += " " + letters.get(sym, sym[0]) + " "
                row += " " if c + 1 < n and self.is_open((r, c), (r, c + 1)) else "|"
                below += ("   " if r + 1 < n and self.is_open((r, c), (r + 1, c)) else "---") + "+"
            lines += [row, below]
        return "\n".join(lines)
