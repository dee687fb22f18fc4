"""RuleMaze mazes as PDDL problems of ``regularmaze.pddl`` / ``questmaze.pddl`` / ``questmaze5.pddl``.

:func:`maze_problem` turns a :class:`~svot.rulemaze.maze.Maze` into a
:class:`svot.pddl.Problem`; :func:`problem_maze` reads one back. The dynamics
live in the two domain files; this module only writes facts:

* objects: cells ``c_<row>_<col>`` and the four directions; RegularMaze adds
  the colours (``blue`` ... ``blue_green``, ``green``, ``red``), QuestMaze the
  items (``key``, ``heart``, ``food``) and the targets (``princess``, ``treasure``);
* ``(open ?from ?dir ?to)`` for every passage, in both directions;
* RegularMaze: ``(zone c colour)`` for every painted cell (start and goal
  included), ``(goal c)`` and ``(at start)``; goal ``(at <red cell>)``;
* QuestMaze: ``(item-at c i)``, ``(target-at c t)``, ``(free c)`` for the other
  cells and ``(at start)``; goal ``(ended)`` (either target reached).
* The open-grid QuestMaze (a maze with monster cells, :mod:`.quest_open`) is a
  problem of ``questmaze5.pddl``, the registry's OpenQuestMaze domain: its spec writes
  ``(adjacent ?from ?dir ?to)`` for every pair of neighbouring cells (no walls),
  ``(monster c)`` for the blocking cells, and the QuestMaze facts above for the others.

:func:`make_maze_engine` builds the grounded (default) or PDDLGym engine for a
maze, :func:`engine_position` and :func:`collected_cells` read its states.
"""

from __future__ import annotations

from svot.domains import get_spec
from svot.domains.passages import edge_walls
from svot.errors import ProblemError
from svot.pddl import Problem, load_domain
from svot.rulemaze import symbols as S
from svot.rulemaze.maze import Cell, Maze
from svot.engine import make_engine

DOMAINS = S.DOMAIN_OF  # each scenario's walled mazes: problems of this registry domain
#: The open-grid QuestMaze's domain (monster cells block; paper Fig. 3).
OPEN_QUEST_DOMAIN = S.OPEN_QUEST_DOMAIN
DIRECTIONS = S.DIRECTIONS


def cell_name(cell: Cell) -> str:
    return f"c_{cell[0]}_{cell[1]}"


def parse_cell_name(name: str) -> Cell:
    parts = name.split("_")
    if len(parts) != 3 or parts[0] != "c" or not parts[1].isdigit() or not parts[2].isdigit():
        raise ProblemError(f"{name!r} is not a cell object name (expected c_<row>_<col>)")
    return int(parts[1]), int(parts[2])


def domain_name(scenario: str) -> str:
    """``"regularmaze"`` or ``"questmaze"``."""
    return DOMAINS[S.normalize_scenario(scenario)]


def load_maze_domain(scenario: str):
    """The parsed PDDL domain of a scenario (cached by :func:`svot.pddl.load_domain`)."""
    return load_domain(domain_name(scenario))


def maze_domain_name(maze: Maze) -> str:
    """The domain a maze's problem is written for: ``questmaze5`` for the open grid."""
    return OPEN_QUEST_DOMAIN if maze.open_grid else domain_name(maze.scenario)


def action_key(direction: str) -> tuple:
    """The PDDL action literal of a move, e.g. ``("move", "up")``."""
    if direction not in S.DELTAS:
        raise ProblemError(f"unknown direction {direction!r} (expected one of {', '.join(DIRECTIONS)})")
    return ("move", direction)


def quest_state(maze: Maze) -> dict:
    """A walled QuestMaze as a state dict of the ``questmaze`` domain (its initial state)."""
    n = maze.size
    items: dict[str, list] = {}
    for r in range(n):
        for c in range(n):
            if maze.symbol((r, c)) in S.ITEMS:
                items.setdefault(maze.symbol((r, c)), []).append([r, c])
    targets = {maze.symbol(g): list(g) for g in maze.goals}
    walls_right, walls_down = edge_walls(n, maze.passages)
    return {
        "domain": DOMAINS[S.QUEST], "size": n, "player": list(maze.start),
        "princess": targets["princess"], "treasure": targets["treasure"],
        "items": {i: items[i] for i in S.ITEMS if i in items}, "collected": {}, "reached": "none",
        "walls_right": walls_right, "walls_down": walls_down,
    }


def open_quest_state(maze: Maze) -> dict:
    """An open-grid QuestMaze as a state dict of the ``questmaze5`` domain (its initial state)."""
    found: dict[str, dict[str, list]] = {"targets": {}, "items": {}}
    monsters = []
    for r in range(maze.size):
        for c in range(maze.size):
            sym = maze.symbol((r, c))
            if sym == S.MONSTER:
                monsters.append([r, c])
            elif sym in S.TARGETS or sym in S.ITEMS:
                found["targets" if sym in S.TARGETS else "items"].setdefault(sym, []).append([r, c])
    targets, items = found["targets"], found["items"]
    return {
        "domain": OPEN_QUEST_DOMAIN, "size": maze.size, "player": list(maze.start),
        "targets": {t: targets[t] for t in S.TARGETS if t in targets},
        "items": {i: items[i] for i in S.ITEMS if i in items}, "collected": {}, "reached": "none",
        "monsters": monsters,
    }


def regular_state(maze: Maze) -> dict:
    """A RegularMaze as a state dict of the ``regularmaze`` domain (its initial state)."""
    n = maze.size
    zones: dict[str, list] = {}
    for r in range(n):
        for c in range(n):
            if maze.symbol((r, c)) in S.COLOURS:
                zones.setdefault(maze.symbol((r, c)), []).append([r, c])
    (goal,) = maze.goals
    walls_right, walls_down = edge_walls(n, maze.passages)
    return {
        "domain": DOMAINS[S.REGULAR], "size": n, "player": list(maze.start), "start": list(maze.start),
        "goal": list(goal), "zones": {z: zones[z] for z in S.COLOURS if z in zones},
        "walls_right": walls_right, "walls_down": walls_down,
    }


def maze_problem(maze: Maze, name: str | None = None) -> Problem:
    """The PDDL problem of ``maze`` (see the module docstring).

    A maze's problem is the ``regularmaze`` / ``questmaze`` / ``questmaze5`` domain's own (its spec
    writes it from :func:`regular_state` / :func:`quest_state` / :func:`open_quest_state`): RuleMaze
    steps the registry's domains, not problems of its own.
    """
    if maze.open_grid:
        state = open_quest_state(maze)
    else:
        state = regular_state(maze) if maze.scenario == S.REGULAR else quest_state(maze)
    return get_spec(state["domain"]).problem_from_state(
        state, f"{maze_domain_name(maze)}-{maze.size}x{maze.size}" if name is None else name)


def problem_maze(problem: Problem) -> Maze:
    """The :class:`Maze` a problem written by :func:`maze_problem` describes.

    Raises :class:`ProblemError` when the problem is not a RuleMaze problem.
    """
    if problem.domain not in (*DOMAINS.values(), OPEN_QUEST_DOMAIN):
        raise ProblemError(f"problem {problem.name!r} is for domain {problem.domain!r}, not a RuleMaze domain")
    cells = [parse_cell_name(o) for o, t in problem.objects if t == "cell"]
    n = int(round(len(cells) ** 0.5))
    if n * n != len(cells) or sorted(cells) != [(r, c) for r in range(n) for c in range(n)]:
        raise ProblemError(f"problem {problem.name!r}: cells do not form a square grid")
    if problem.domain == OPEN_QUEST_DOMAIN:
        return _open_quest_maze(problem, n)
    scenario = S.REGULAR if problem.domain == DOMAINS[S.REGULAR] else S.QUEST
    grid = [[S.plain_symbol(scenario)] * n for _ in range(n)]
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
            if pred == "target-at" or args[1] == S.GOAL_COLOUR:
                goals.append(cell)
    if start is None:
        raise ProblemError(f"problem {problem.name!r} has no (at ...) atom for the start")
    if scenario == S.QUEST:
        grid[start[0]][start[1]] = S.START_QUEST
    return _maze(problem, scenario, n, start, goals, passages, grid)


def _open_quest_maze(problem: Problem, n: int) -> Maze:
    """The open grid's maze, read through its domain's spec: neighbours are connected unless a
    monster stands on either side (``questmaze5.pddl``'s moves)."""
    try:
        state = get_spec(OPEN_QUEST_DOMAIN).state_dict(problem.init, n)
    except (ValueError, KeyError, ProblemError) as exc:
        raise ProblemError(f"problem {problem.name!r} is not an open-grid maze: {exc}") from None
    grid = [[S.PLAIN_QUEST] * n for _ in range(n)]
    goals = []
    for key in ("targets", "items"):
        for sym, where in state[key].items():
            for r, c in where:
                grid[r][c] = sym
                goals += [(r, c)] if key == "targets" else []
    for r, c in state["monsters"]:
        grid[r][c] = S.MONSTER
    start = tuple(state["player"])
    grid[start[0]][start[1]] = S.START_QUEST
    passages = {(a, b) for a in ((r, c) for r in range(n) for c in range(n))
                for b in ((a[0], a[1] + 1), (a[0] + 1, a[1]))
                if b[0] < n and b[1] < n and S.MONSTER not in (grid[a[0]][a[1]], grid[b[0]][b[1]])}
    return _maze(problem, S.QUEST, n, start, goals, passages, grid)


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
