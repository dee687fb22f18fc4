"""Test helpers for the RuleMaze tests (independent path enumeration, open grids)."""

from __future__ import annotations

from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Maze


def simple_paths(maze):
    """Independent enumerator: simple paths from the start to a goal, stopping at
    the first goal entered (plain recursion, no networkx)."""
    goals = set(maze.goals)
    out = []

    def rec(path):
        cell = path[-1]
        if cell in goals:
            out.append(tuple(path))
            return
        for nb in maze.neighbors(cell):
            if nb not in path:
                rec(path + [nb])

    rec([maze.start])
    return sorted(out)


def open_grid(scenario, rng):
    """A 3x3 maze without inner walls (12 corner-to-corner paths), painted at random."""
    passages = [((r, c), (r, c + 1)) for r in range(3) for c in range(2)] + \
               [((r, c), (r + 1, c)) for r in range(2) for c in range(3)]
    if scenario == S.REGULAR:
        grid = [[S.COLOURS[int(rng.integers(6))] if rng.random() < 0.5 else "white"
                 for _ in range(3)] for _ in range(3)]
        grid[0][0], grid[2][2] = "green", "red"
        return Maze(scenario, 3, (0, 0), ((2, 2),), passages, grid)
    grid = [[S.ITEMS[int(rng.integers(3))] if rng.random() < 0.6 else "grass"
             for _ in range(3)] for _ in range(3)]
    grid[0][0], grid[2][2], grid[0][2] = "prince", "princess", "treasure"
    return Maze(scenario, 3, (0, 0), ((2, 2), (0, 2)), passages, grid)
