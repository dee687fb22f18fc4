"""The five DMP tools on images (RuleMaze paper, Table 1, Alg. 5-9): image in, image or value out.

The agent's position lives only in the image, as the magenta ring marker that
:mod:`.render` draws; every tool recovers what it needs from the pixels
(:mod:`.vision`: grid lines, nearest-template cell classification, marker
colour), so no tool keeps hidden state and a call depends on its arguments only.

* :func:`locate_start` (Alg. 5): a copy of the image with the marker on the
  start cell (green / prince), i.e. the cell nearest the start's template; a
  marker already present is removed first.
* :func:`inspect_grid` (Alg. 6): the symbol under the marker (``normal`` for
  white / grass cells).
* :func:`execute_move` (Alg. 7): a copy with the marker moved one cell, walls
  not checked (a move off the grid cannot be drawn and raises
  :class:`svot.errors.ActionError`).
* :func:`verify_rule` (Alg. 8): the rule's compiled validator on
  ``(actions, states)``; pure symbols, no image (:func:`.tools_logic.verify_rule`).
* :func:`verify_endpoint` (Alg. 9): whether the marker's cell is the goal (red)
  or a target (princess / treasure, or the one named).

Removing the marker from a cell pastes that cell's clean interior back: the
interior is exactly the classified symbol's tile at the recovered geometry.
The model-facing JSON-schema descriptions are :data:`TOOL_SCHEMAS` (shared
with :mod:`.tools_logic`). :func:`run_trace` chains the tools as the dataset's
traces do.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from svot.errors import ActionError
from svot.render.perceive import as_rgb
from svot.rulemaze import symbols as S
from svot.rulemaze.render import apply_marker
from svot.rulemaze.sprites import tile
from svot.rulemaze.tools_logic import TOOL_SCHEMAS, tool_schemas, verify_rule as _verify_rule
from svot.rulemaze.vision import (Geometry, PerceptionError, classify_cell, colour_flags, find_marker,
                                  grid_geometry, read_cells, scenario_of_cells)

__all__ = ["TOOL_SCHEMAS", "PerceptionError", "execute_move", "inspect_grid", "locate_start",
           "marker_position", "run_trace", "tool_schemas", "verify_endpoint", "verify_rule"]


def _erase_marker(arr: np.ndarray, geo: Geometry, cell) -> None:
    sym, marked, _ = classify_cell(arr, geo, cell)
    if not marked:
        return
    r, c = cell
    h, w = geo.rows[r + 1] - geo.rows[r], geo.cols[c + 1] - geo.cols[c]
    y0, y1, x0, x1 = geo.interior_box(cell)
    k = geo.inset
    arr[y0:y1, x0:x1] = tile(sym, h, w)[k:h - k, k:w - k]


def _draw_marker(arr: np.ndarray, geo: Geometry, cell) -> None:
    y0, y1, x0, x1 = geo.interior_box(cell)
    arr[y0:y1, x0:x1] = apply_marker(arr[y0:y1, x0:x1])


def _read(image, copy: bool = False):
    """``(pixels, colour flags, geometry)`` of an image: one pass over its colours."""
    arr = as_rgb(image)
    if copy:
        arr = np.array(arr, np.uint8, copy=True)
    flags = colour_flags(arr)
    return arr, flags, grid_geometry(arr, flags)


def _require_marker(arr: np.ndarray, geo: Geometry, tool: str, flags=None):
    cell = find_marker(arr, geo, flags)
    if cell is None:
        raise PerceptionError(f"{tool}: the image has no position marker; call LocateStart first")
    return cell


def marker_position(image) -> tuple[int, int] | None:
    """``(row, col)`` of the marker's cell, or None (a helper for traces and tests)."""
    arr, flags, geo = _read(image)
    return find_marker(arr, geo, flags)


def locate_start(image) -> np.ndarray:
    """Alg. 5: a new image with the marker on the start cell."""
    arr, flags, geo = _read(image, copy=True)
    old = find_marker(arr, geo, flags)
    if old is not None:
        _erase_marker(arr, geo, old)
    cells = read_cells(arr, geo)
    start = S.start_symbol(scenario_of_cells(cells))
    found = [(r, c) for r in range(geo.n) for c in range(geo.n) if cells[r][c] == start]
    if not found:
        raise PerceptionError(f"LocateStart: no start cell ({start}) in the image")
    if len(found) > 1:
        raise PerceptionError(f"LocateStart: {len(found)} start cells ({start}) in the image")
    _draw_marker(arr, geo, found[0])
    return arr


def inspect_grid(image) -> str:
    """Alg. 6: the symbol of the cell under the marker (plain cells read ``"normal"``)."""
    arr, flags, geo = _read(image)
    cell = _require_marker(arr, geo, "InspectGrid", flags)
    return S.inspect_symbol(classify_cell(arr, geo, cell)[0])


def execute_move(image, action: str) -> np.ndarray:
    """Alg. 7: a new image with the marker moved one cell towards ``action``; walls are
    not checked. Raises :class:`ActionError` for an unknown action or a move off the grid."""
    key = str(action).strip().lower()
    if key not in S.DELTAS:
        raise ActionError(f"unknown action {action!r} (expected one of: {', '.join(S.DIRECTIONS)})")
    arr, flags, geo = _read(image, copy=True)
    cell = _require_marker(arr, geo, "ExecuteMove", flags)
    dr, dc = S.DELTAS[key]
    nxt = (cell[0] + dr, cell[1] + dc)
    if not (0 <= nxt[0] < geo.n and 0 <= nxt[1] < geo.n):
        raise ActionError(f"ExecuteMove: moving {key} from {list(cell)} leaves the {geo.n}x{geo.n} grid")
    _erase_marker(arr, geo, cell)
    _draw_marker(arr, geo, nxt)
    return arr


def verify_rule(rule, actions: Sequence[str], states: Sequence[str], **kwargs) -> bool:
    """Alg. 8: whether ``(actions, states)`` complies with ``rule`` (see
    :func:`svot.rulemaze.tools_logic.verify_rule` for the arguments)."""
    return _verify_rule(rule, actions, states, **kwargs)


def verify_endpoint(image, goal: str | None = None) -> bool:
    """Alg. 9: whether the marker is on the goal (red) or a target (``goal``: princess /
    treasure; either when None)."""
    s = inspect_grid(image)
    if goal is None:
        return s in S.GOAL_SYMBOLS
    return s == str(goal).strip().lower()


def run_trace(image, rule, actions: Sequence[str], *, rules=None,
              detour: Sequence[str] = ()) -> list[dict]:
    """Chain the tools along ``actions`` as the dataset traces do.

    LocateStart, InspectGrid on the start, then per action ExecuteMove,
    InspectGrid and VerifyRule (on everything so far), finally VerifyEndpoint.
    Each entry is ``{"tool", "arguments", "output", "image"}``: ``image`` is the
    image the tool returned (LocateStart, ExecuteMove) or None; ``output`` is the
    tool's value (for image tools: the marker's cell as read back from the
    returned image, ``[row, col]``).

    ``detour`` (detect-and-revise traces): wrong moves made first, each with
    ExecuteMove / InspectGrid / VerifyRule, the last one's VerifyRule being the
    failure; the marker is then moved back (ExecuteMove with the opposite moves,
    last first) to where the detour left ``actions``, and the trace continues
    along ``actions`` from there with VerifyRule judging the revised moves only.
    """
    steps: list[dict] = []
    cur = locate_start(image)
    steps.append({"tool": "LocateStart", "arguments": {}, "output": list(marker_position(cur)),
                  "image": cur})
    states = [inspect_grid(cur)]
    steps.append({"tool": "InspectGrid", "arguments": {}, "output": states[-1], "image": None})

    def walk(cur, moves, done, states):
        for a in moves:
            cur = execute_move(cur, a)
            done.append(a)
            steps.append({"tool": "ExecuteMove", "arguments": {"action": a},
                          "output": list(marker_position(cur)), "image": cur})
            states.append(inspect_grid(cur))
            steps.append({"tool": "InspectGrid", "arguments": {}, "output": states[-1], "image": None})
            ok = verify_rule(rule, list(done), list(states), rules=rules)
            steps.append({"tool": "VerifyRule", "arguments": {"actions": list(done), "states": list(states)},
                          "output": ok, "image": None})
        return cur

    shared = 0
    if detour:
        while shared < min(len(detour), len(actions)) and detour[shared] == actions[shared]:
            shared += 1
        cur = walk(cur, detour, [], list(states))
        for a in reversed(list(detour[shared:])):  # revise: undo the wrong moves
            cur = execute_move(cur, S.OPPOSITE[a])
            steps.append({"tool": "ExecuteMove", "arguments": {"action": S.OPPOSITE[a]},
                          "output": list(marker_position(cur)), "image": cur})
        states = [s["output"] for s in steps[:2 + 3 * shared] if s["tool"] == "InspectGrid"]
    cur = walk(cur, actions[shared:], list(actions[:shared]), states)
    steps.append({"tool": "VerifyEndpoint", "arguments": {}, "output": verify_endpoint(cur), "image": None})
    return steps
