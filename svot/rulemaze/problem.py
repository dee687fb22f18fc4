"""RuleMaze mazes as PDDL problems of ``regularmaze.pddl`` / ``questmaze.pddl`` / ``questmaze5.pddl``.

:func:`maze_problem` turns a :class:`~svot.rulemaze.maze.Maze` into a
:class:`svot.pddl.Problem`; :func:`problem_maze` reads one back. The dynamics
live in the domain files; a maze's scenario (``svot/domains/<name>/scenario.py``) writes its
initial state dict and the domain's spec writes the facts:

* objects: cells ``c_<row>_<col>`` and the four directions; RegularMaze adds
  the colours (``blue`` ... ``blue_green``, ``green``, ``red``), QuestMaze the
  items (``key``, ``heart``, ``food``) and the targets (``princess``, ``treasure``);
* ``(open ?from ?dir ?to)`` for every passage, in both directions;
* RegularMaze: ``(zone c colour)`` for every painted cell (start and goal
  included), ``(goal c)`` and ``(at start)``; goal ``(at <red cell>)``;
* QuestMaze: ``(item-at c i)``, ``(target-at c t)``, ``(free c)`` for the other
  cells and ``(at start)``; goal ``(ended)`` (either target reached).
* The open-grid QuestMaze (a maze with monster cells, :mod:`.open_grid`) is a
  problem of ``questmaze5.pddl``, the registry's OpenQuestMaze domain: its spec writes
  ``(adjacent ?from ?dir ?to)`` for every pair of neighbouring cells (no walls),
  ``(monster c)`` for the blocking cells, and the QuestMaze facts above for the others.

:func:`make_maze_engine` builds the grounded (default) or PDDLGym engine for a
maze, :func:`engine_position` and :func:`collected_cells` read its states.
"""

from __future__ import annotations

from svot.domains import get_spec
from svot.errors import ProblemError
from svot.numbers import small_int
from svot.pddl import Problem, load_domain
from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.scenario import Scenario, get_scenario, scenarios
from svot.engine import make_engine

#: Each scenario's walled mazes are problems of this registry domain.
DOMAINS = S.DOMAIN_OF
DIRECTIONS = S.DIRECTIONS


def cell_name(cell: Cell) -> str:
    return f"c_{cell[0]}_{cell[1]}"


def parse_cell_name(name: str) -> Cell:
    parts = name.split("_")
    row, col = (small_int(parts[1]), small_int(parts[2])) if len(parts) == 3 and parts[0] == "c" else (None, None)
    if row is None or col is None:  # ASCII digits only (svot.numbers)
        raise ProblemError(f"{name!r} is not a cell object name (expected c_<row>_<col>)")
    return row, col


def domain_name(scenario: str, layout: str = "walls") -> str:
    """The registry domain of a scenario's mazes of ``layout`` (its folder's ``scenario.domains``)."""
    return get_scenario(scenario).domains[layout]


def load_maze_domain(scenario: str):
    """The parsed PDDL domain of a scenario (cached by :func:`svot.pddl.load_domain`)."""
    return load_domain(domain_name(scenario))


def maze_layout(maze: Maze) -> str:
    """``"open"`` for a maze of the open-grid layout (obstacle cells, no walls), else ``"walls"``."""
    return "open" if maze.open_grid else "walls"


def maze_domain_name(maze: Maze) -> str:
    """The domain a maze's problem is written for (the open grid's has a domain of its own)."""
    return domain_name(maze.scenario, maze_layout(maze))


def action_key(direction: str) -> tuple:
    """The PDDL action literal of a move, e.g. ``("move", "up")``."""
    if direction not in S.DELTAS:
        raise ProblemError(f"unknown direction {direction!r} (expected one of {', '.join(DIRECTIONS)})")
    return ("move", direction)


def initial_state(maze: Maze) -> dict:
    """A maze as the initial state dict of its domain (:func:`maze_domain_name`), written by its
    scenario (``svot/domains/<name>/scenario.py``)."""
    return get_scenario(maze.scenario).initial_state(maze_layout(maze), maze.size, maze.start, maze.goals,
                                                     maze.cells, maze.passages)


def maze_problem(maze: Maze, name: str | None = None) -> Problem:
    """The PDDL problem of ``maze`` (see the module docstring).

    A maze's problem is its domain's own (the spec writes it from :func:`initial_state`):
    RuleMaze steps the registry's domains, not problems of its own.
    """
    state = initial_state(maze)
    return get_spec(state["domain"]).problem_from_state(
        state, f"{maze_domain_name(maze)}-{maze.size}x{maze.size}" if name is None else name)


def _scenario_of_domain(domain: str) -> tuple[Scenario, str] | None:
    """The scenario and layout whose mazes are problems of ``domain``, or None."""
    for scenario in scenarios():
        for layout, name in scenario.domains.items():
            if name == domain:
                return scenario, layout
    return None


def problem_maze(problem: Problem) -> Maze:
    """The :class:`Maze` a problem written by :func:`maze_problem` describes.

    Raises :class:`ProblemError` when the problem is not a RuleMaze problem.
    """
    found = _scenario_of_domain(problem.domain)
    if found is None:
        raise ProblemError(f"problem {problem.name!r} is for domain {problem.domain!r}, not a RuleMaze domain")
    scenario, layout = found
    cells = [parse_cell_name(o) for o, t in problem.objects if t == "cell"]
    n = int(round(len(cells) ** 0.5))
    if n * n != len(cells) or sorted(cells) != [(r, c) for r in range(n) for c in range(n)]:
        raise ProblemError(f"problem {problem.name!r}: cells do not form a square grid")
    if layout == "open":
        return _open_grid_maze(problem, scenario, n)
    grid = [[scenario.plain_symbol] * n for _ in range(n)]
    passages, start, goals = set(), None, []
    for atom in sorted(problem.init):
        pred, args = atom[0], atom[1:]
        if pred == "open":
            a, b = parse_cell_name(args[0]), parse_cell_name(args[2])
            passages.add((min(a, b), max(a, b)))
        elif pred == "at":
            start = parse_cell_name(args[0])
        elif pred in ("zone", "item-at", "target-at"):
            cell = parse_cell_name(args[0])
            grid[cell[0]][cell[1]] = args[1]
            if args[1] in scenario.goal_symbols:
                goals.append(cell)
    if start is None:
        raise ProblemError(f"problem {problem.name!r} has no (at ...) atom for the start")
    grid[start[0]][start[1]] = scenario.start_symbol  # (a domain may mark the start by (at ...) alone)
    return _maze(problem, scenario.name, n, start, goals, passages, grid)


def _open_grid_maze(problem: Problem, scenario: Scenario, n: int) -> Maze:
    """An open-grid maze, read through its domain's spec: neighbours are connected unless an
    obstacle stands on either side (the open domain's moves)."""
    try:
        state = get_spec(problem.domain).state_dict(problem.init, n)
        placed = scenario.open_grid_cells(state)
    except (ValueError, KeyError, ProblemError) as exc:
        raise ProblemError(f"problem {problem.name!r} is not an open-grid maze: {exc}") from None
    grid = [[scenario.plain_symbol] * n for _ in range(n)]
    for (r, c), sym in placed.items():
        grid[r][c] = sym
    goals = [cell for cell, sym in placed.items() if sym in scenario.goal_symbols]
    start = tuple(state["player"])
    grid[start[0]][start[1]] = scenario.start_symbol
    blocked = scenario.obstacle_symbol
    passages = {(a, b) for a in ((r, c) for r in range(n) for c in range(n))
                for b in ((a[0], a[1] + 1), (a[0] + 1, a[1]))
                if b[0] < n and b[1] < n and blocked not in (grid[a[0]][a[1]], grid[b[0]][b[1]])}
    return _maze(problem, scenario.name, n, start, goals, passages, grid)


def _maze(problem: Problem, scenario: str, n: int, start, goals, passages, grid) -> Maze:
    try:
        return Maze(scenario, n, start, tuple(goals), tuple(sorted(passages)),
                    tuple(tuple(row) for row in grid))
    except ValueError as exc:
        raise ProblemError(f"problem {problem.name!r} is not a valid maze: {exc}") from None


def make_maze_engine(maze: Maze, kind: str = "grounded"):
    """An engine (``"grounded"`` or ``"pddlgym"``) stepping ``maze``'s problem."""
    return make_engine(kind, load_domain(maze_domain_name(maze)), maze_problem(maze))


def engine_position(engine, state) -> Cell:
    """The agent's cell in an engine state (its ``(at c)`` atom)."""
    for atom in engine.true_atoms(state):
        if atom[0] == "at":
            return parse_cell_name(atom[1])
    raise ProblemError("the state has no (at ...) atom")


def collected_cells(engine, state) -> frozenset[Cell]:
    """Cells whose item has been collected (QuestMaze; empty for RegularMaze)."""
    return frozenset(parse_cell_name(a[1]) for a in engine.true_atoms(state) if a[0] == "collected")
