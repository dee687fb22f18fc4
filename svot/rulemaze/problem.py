"""RuleMaze mazes as PDDL problems of ``regularmaze.pddl`` / ``questmaze.pddl``.

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
  problem of ``questmaze5.pddl``: ``(adjacent ?from ?dir ?to)`` for every pair of
  neighbouring cells (no walls), ``(monster c)`` for the blocking cells, and the
  QuestMaze facts above for the others.

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

DOMAINS = {S.REGULAR: "regularmaze", S.QUEST: "questmaze"}
#: The open-grid QuestMaze's domain (monster cells block; paper Fig. 3).
OPEN_QUEST_DOMAIN = "questmaze5"
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

    A walled maze's problem is the ``regularmaze`` / ``questmaze`` domain's own (its spec writes it
    from :func:`regular_state` / :func:`quest_state`): RuleMaze steps the registry's domains, not
    problems of its own. The open 5x5 QuestMaze (``questmaze5.pddl``) is written here.
    """
    if not maze.open_grid:
        state = regular_state(maze) if maze.scenario == S.REGULAR else quest_state(maze)
        return get_spec(state["domain"]).problem_from_state(
            state, f"{maze_domain_name(maze)}-{maze.size}x{maze.size}" if name is None else name)
    # the open grid (a QuestMaze: only it has monsters): the whole grid is adjacent; monsters block in the domain
    n = maze.size
    cells = [(r, c) for r in range(n) for c in range(n)]
    objects = [(cell_name(c), "cell") for c in cells] + [(d, "direction") for d in DIRECTIONS]
    objects += [(i, "item") for i in S.ITEMS] + [(t, "target") for t in S.TARGETS]
    init: set = {("at", cell_name(maze.start))}
    for a in cells:
        for b in ((a[0], a[1] + 1), (a[0] + 1, a[1])):
            if maze.inside(b):
                ab = _direction(a, b)
                init.add(("adjacent", cell_name(a), ab, cell_name(b)))
                init.add(("adjacent", cell_name(b), _OPPOSITE[ab], cell_name(a)))
    for cell in cells:
        sym = maze.symbol(cell)
        if sym in S.ITEMS:
            init.add(("item-at", cell_name(cell), sym))
        elif sym in S.TARGETS:
            init.add(("target-at", cell_name(cell), sym))
        elif sym == S.MONSTER:
            init.add(("monster", cell_name(cell)))
        else:
            init.add(("free", cell_name(cell)))
    return Problem(domain=OPEN_QUEST_DOMAIN, name=f"{OPEN_QUEST_DOMAIN}-{n}x{n}" if name is None else name,
                   objects=tuple(objects), init=frozenset(init), goal=(("ended",),))


def problem_maze(problem: Problem) -> Maze:
    """The :class:`Maze` a problem written by :func:`maze_problem` describes.

    Raises :class:`ProblemError` when the problem is not a RuleMaze problem.
    """
    if problem.domain == DOMAINS[S.REGULAR]:
        scenario = S.REGULAR
    elif problem.domain in (DOMAINS[S.QUEST], OPEN_QUEST_DOMAIN):
        scenario = S.QUEST
    else:
        raise ProblemError(f"problem {problem.name!r} is for domain {problem.domain!r}, not a RuleMaze domain")
    cells = [parse_cell_name(o) for o, t in problem.objects if t == "cell"]
    n = int(round(len(cells) ** 0.5))
    if n * n != len(cells) or sorted(cells) != [(r, c) for r in range(n) for c in range(n)]:
        raise ProblemError(f"problem {problem.name!r}: cells do not form a square grid")
    grid = [[S.plain_symbol(scenario)] * n for _ in range(n)]
    passages, start, goals, adjacent = set(), None, [], set()
    for atom in sorted(problem.init):
        pred, args = atom[0], atom[1:]
        if pred in ("open", "adjacent"):
            a, b = parse_cell_name(args[0]), parse_cell_name(args[2])
            (passages if pred == "open" else adjacent).add((min(a, b), max(a, b)))
        elif pred == "monster":
            cell = parse_cell_name(args[0])
            grid[cell[0]][cell[1]] = S.MONSTER
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
    # open grid: neighbours are connected unless a monster stands on either side
    passages |= {(a, b) for a, b in adjacent if S.MONSTER not in (grid[a[0]][a[1]], grid[b[0]][b[1]])}
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


_OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def _direction(a: Cell, b: Cell) -> str:
    for d, (dr, dc) in S.DELTAS.items():
        if (a[0] + dr, a[1] + dc) == tuple(b):
            return d
    raise ProblemError(f"cells {list(a)} and {list(b)} are not neighbours")
