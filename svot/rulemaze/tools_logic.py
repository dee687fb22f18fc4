"""The non-image logic of the five DMP tools (RuleMaze paper, Table 1, Alg. 5-9).

The paper's tools take and return images, carrying the agent's position as a
marker drawn on the image. Here the marker is a symbolic ``(row, col)``
position, so the tools are plain functions of ``(maze, position)``; the
image-side wrappers (draw / locate the marker, classify cell patches) will
call these. No tool keeps hidden state.

* :func:`locate_start` (Alg. 5): the marker position at the start cell.
* :func:`inspect_grid` (Alg. 6): the symbol under the marker; white / grass
  cells read ``"normal"``; a marker outside the grid reads ``"out_of_bounds"``.
* :func:`execute_move` (Alg. 7): the marker moved one cell; no wall or border check.
* :func:`verify_rule` (Alg. 8): the rule's validator on (actions, states).
* :func:`verify_endpoint` (Alg. 9): whether the marker sits on the goal / a target.

:data:`TOOL_SCHEMAS` describes the model-facing tools (image in, image or value
out) in the JSON-schema "function calling" format.
"""

from __future__ import annotations

import copy
from typing import Sequence

from svot.errors import ActionError
from svot.rulemaze import symbols as S
from svot.rulemaze.errors import RuleError
from svot.rulemaze.maze import Cell, Maze
from svot.rulemaze.rules.analysis import scenario_of
from svot.rulemaze.rules.bank import builtin_rules
from svot.rulemaze.rules.compiler import VIOLATED, compile_rule
from svot.rulemaze.scenario import scenario_of_symbols
from svot.rulemaze.rules.parser import parse_formula
from svot.rulemaze.rules.record import Rule
from svot.rulemaze.trajectory import Trajectory

OUT_OF_BOUNDS = "out_of_bounds"


def locate_start(maze: Maze) -> Cell:
    """Alg. 5: the position marker placed on the start cell."""
    return maze.start


def inspect_grid(maze: Maze, position: Cell) -> str:
    """Alg. 6: the symbol of the cell under the marker (plain cells read ``"normal"``)."""
    position = tuple(position)
    if not maze.inside(position):
        return OUT_OF_BOUNDS
    return S.inspect_symbol(maze.symbol(position))


def execute_move(position: Cell, action: str) -> Cell:
    """Alg. 7: the marker moved one cell in ``action``'s direction, walls ignored.

    Raises :class:`svot.errors.ActionError` for an unknown action.
    """
    key = str(action).strip().lower()
    if key not in S.DELTAS:
        raise ActionError(f"unknown action {action!r} (expected one of: {', '.join(S.DIRECTIONS)})")
    dr, dc = S.DELTAS[key]
    return position[0] + dr, position[1] + dc


def verify_endpoint(maze: Maze, position: Cell, goal: str | None = None) -> bool:
    """Alg. 9: whether the marker is on the goal (``"red"``) or, in a QuestMaze, on
    the target ``goal`` (``"princess"`` / ``"treasure"``; either when None)."""
    s = inspect_grid(maze, position)
    if goal is None:
        return s in S.goal_symbols(maze.scenario)
    return s == str(goal).strip().lower()


def _normalise(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


def lookup_rule(rule, rules: Sequence[Rule] | None = None):
    """The formula for ``rule``: a :class:`Rule`, a formula, rule logic, or the
    natural-language text of a known rule (the bank plus ``rules``, matched
    ignoring case, spacing and a final full stop). None when unknown."""
    if isinstance(rule, Rule):
        return rule.formula
    if not isinstance(rule, str):
        return rule
    wanted = _normalise(rule)
    for r in list(rules or ()) + builtin_rules():
        if _normalise(r.natural_language) == wanted or r.logic == rule.strip():
            return r.formula
    try:
        return parse_formula(rule)
    except RuleError:
        return None


def verify_rule(rule, actions: Sequence[str], states: Sequence[str], *,
                complete: bool | None = None, scenario: str | None = None,
                maze: Maze | None = None, rules: Sequence[Rule] | None = None) -> bool:
    """Alg. 8: whether the trajectory ``(actions, states)`` complies with ``rule``.

    Args:
        rule: see :func:`lookup_rule`; an unknown rule gives False (as in Alg. 8).
        actions: ``a_1..a_t``.
        states: InspectGrid outputs, either ``s_0..s_t`` (start included) or
            ``s_1..s_t`` (the start symbol is then prepended: green / prince,
            after ``scenario`` or the rule's predicates).
        complete: True to judge a finished trajectory, False for a partial one
            (True unless the partial validator says "violated"); None decides
            from the last state (finished iff it is a goal symbol and at least
            one move was made).
        maze: when given, the actions must also be physically valid from the
            maze start (walls and border); otherwise False.
        rules: extra rules whose natural language may be looked up.
    """
    formula = lookup_rule(rule, rules)
    if formula is None:
        return False
    actions = [str(a).strip().lower() for a in actions]
    if any(a not in S.DELTAS for a in actions):
        return False
    states = [S.inspect_symbol(str(s).strip().lower()) for s in states]
    if len(states) == len(actions):
        sc = scenario or (maze.scenario if maze is not None else None) or scenario_of(formula) \
            or scenario_of_symbols(states, default=S.SCENARIOS[0])
        states = [S.start_symbol(sc)] + states
    if len(states) != len(actions) + 1:
        return False
    if maze is not None and maze.walk(actions) is None:
        return False
    traj = Trajectory(tuple(states), tuple(actions))
    if complete is None:
        complete = bool(actions) and states[-1] in S.GOAL_SYMBOLS
    v = compile_rule(formula)
    return v.check(traj) if complete else v.status(traj) != VIOLATED


def symbolic_trace(maze: Maze, rule, actions: Sequence[str]) -> list[dict]:
    """The tool-call trace of following ``actions``, without images.

    LocateStart, InspectGrid on the start, then for each action ExecuteMove,
    InspectGrid and VerifyRule (on the trajectory so far), and finally
    VerifyEndpoint. Each entry is ``{"tool", "arguments", "output"}``, with
    positions as ``[row, col]``.
    """
    steps: list[dict] = []
    pos = locate_start(maze)
    steps.append({"tool": "LocateStart", "arguments": {}, "output": list(pos)})
    states = [inspect_grid(maze, pos)]
    steps.append({"tool": "InspectGrid", "arguments": {"position": list(pos)}, "output": states[-1]})
    done: list[str] = []
    for a in actions:
        pos = execute_move(pos, a)
        done.append(a)
        steps.append({"tool": "ExecuteMove", "arguments": {"action": a}, "output": list(pos)})
        states.append(inspect_grid(maze, pos))
        steps.append({"tool": "InspectGrid", "arguments": {"position": list(pos)},
                      "output": states[-1]})
        ok = verify_rule(rule, done, states, maze=maze)
        steps.append({"tool": "VerifyRule",
                      "arguments": {"actions": list(done), "states": list(states)}, "output": ok})
    steps.append({"tool": "VerifyEndpoint", "arguments": {"position": list(pos)},
                  "output": verify_endpoint(maze, pos)})
    return steps


_IMAGE = {"type": "string",
          "description": "Identifier of the maze image to operate on: 'input' for the original "
                         "maze, or the id returned by the previous tool call."}

TOOL_SCHEMAS: list[dict] = [
    {"type": "function", "function": {
        "name": "LocateStart",
        "description": "Find the start cell (green cell / prince) in the maze image and return a "
                       "new image with a position marker drawn on it.",
        "parameters": {"type": "object", "properties": {"image": _IMAGE},
                       "required": ["image"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "InspectGrid",
        "description": "Report the symbol of the cell under the position marker: a colour "
                       "(green, red, blue, yellow, pink, purple, orange, blue_green) in a "
                       "RegularMaze, an entity (prince, princess, treasure, key, heart, food) in a "
                       "QuestMaze, or 'normal' for a plain cell.",
        "parameters": {"type": "object", "properties": {"image": _IMAGE},
                       "required": ["image"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "ExecuteMove",
        "description": "Move the position marker one cell in the given direction and return the "
                       "new image. Walls are NOT checked: use VerifyRule to validate the trajectory.",
        "parameters": {"type": "object", "properties": {
            "image": _IMAGE,
            "action": {"type": "string", "enum": list(S.DIRECTIONS),
                       "description": "Direction to move the marker."}},
            "required": ["image", "action"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "VerifyRule",
        "description": "Check whether the trajectory so far complies with the rule. Returns true "
                       "when a finished trajectory complies, or when an unfinished one has not "
                       "violated the rule yet; false otherwise.",
        "parameters": {"type": "object", "properties": {
            "actions": {"type": "array", "items": {"type": "string", "enum": list(S.DIRECTIONS)},
                        "description": "All moves made so far, in order."},
            "states": {"type": "array", "items": {"type": "string"},
                       "description": "InspectGrid results for the start cell and for each cell "
                                      "entered, in order."},
            "rule": {"type": "string", "description": "The rule text, as given in the task."}},
            "required": ["actions", "states", "rule"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "VerifyEndpoint",
        "description": "Report whether the position marker is on the goal cell (red cell, or the "
                       "princess / treasure in a QuestMaze).",
        "parameters": {"type": "object", "properties": {"image": _IMAGE},
                       "required": ["image"], "additionalProperties": False}}},
]


def first_violation(rule, maze: Maze, path: Sequence[Cell]) -> int | None:
    """Moves along ``path`` after which VerifyRule first answers False, or None if never.

    Judged as the traces' VerifyRule does: a prefix that does not end on a goal
    is partial (False only when no extension can comply, ``Validator.status``),
    the whole path, when it ends on a goal, is complete. ``result - 1`` is the
    index of the violating move: the authors' ``wrong_idx`` records the same
    first violation of a wrong solution path.
    """
    validator = compile_rule(lookup_rule(rule))
    traj = Trajectory.from_path(maze, path)
    goals = S.goal_symbols(maze.scenario)
    for m in range(1, traj.length + 1):
        prefix = traj.prefix(m)
        if prefix.symbols[-1] in goals:
            if not validator.check(prefix):
                return m
        elif validator.status(prefix) == VIOLATED:
            return m
    return None


def tool_schemas() -> list[dict]:
    """A fresh copy of :data:`TOOL_SCHEMAS`."""
    return copy.deepcopy(TOOL_SCHEMAS)
