"""RuleMaze scenarios: what the shared RuleMaze layer asks of a maze kind, and where to find one.

A *scenario* is a kind of RuleMaze maze: its cell symbols, the registry domain(s) its mazes are
problems of, how a pool maze is painted, its rule bank, the words of its export items and the
colours it is drawn in. Each one is declared in its domain's folder
(``svot/domains/<name>/scenario.py``) as an object that satisfies :class:`Scenario`, and names
itself on its domain spec (``rulemaze_scenario``). This module finds them through the domain
registry (:data:`svot.domains.SPECS`), so the RuleMaze layer never names one: it asks
:func:`get_scenario` and then the object, instead of branching on a scenario's name.

The domain folders sit below RuleMaze in the layer order (``tests/test_import_graph.py``), so a
scenario's hooks speak plain data (cells, symbols, passages, numpy generators), never RuleMaze's
own types.
"""

from __future__ import annotations

from typing import Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from svot.domains import SPECS
from svot.errors import ConfigError

Cell = tuple[int, int]
RGB = tuple[int, int, int]
#: A bank rule as written in a scenario's folder: (id, stated difficulty, split, natural language, logic).
BankRow = tuple[str, str, str, str, str]


@runtime_checkable
class Scenario(Protocol):
    """Everything the RuleMaze layer needs to know about one kind of maze."""

    #: The name as printed and stored (``Maze.scenario``, export rows, env ids), e.g. ``"RegularMaze"``.
    name: str
    #: Other spellings :func:`normalize_scenario` accepts, lower case without ``_`` / ``-``.
    aliases: tuple[str, ...]
    #: The first word of the ids of its bank and sampled rules (``"<prefix>-easy-01"``).
    rule_id_prefix: str
    #: Layout -> the registry domain whose problems such mazes are; ``"walls"`` always, first.
    #: The walls domain also names the scenario's directory in an export.
    domains: Mapping[str, str]

    # --- cell symbols ---
    start_symbol: str
    plain_symbol: str
    #: The symbols a goal cell holds, in the order a generated pool maze places them.
    goal_symbols: tuple[str, ...]
    #: Every symbol a cell may hold (the legend order).
    cell_symbols: tuple[str, ...]
    #: What a pool maze paints on path cells (zone colours, items), in sampling order.
    paint_symbols: tuple[str, ...]
    #: Symbols taken away when the agent enters their cell (they then read "normal").
    collected_symbols: tuple[str, ...]
    #: The symbol of a blocking cell of the open layout, or None when the scenario has none.
    obstacle_symbol: str | None

    # --- pools ---
    #: The painting of :mod:`svot.rulemaze.pool` its pool mazes get: ``"zones"`` (Alg. 4) or ``"items"``.
    pool_painting: str

    # --- rules ---
    #: The family of the rule language its rules are written in (:data:`svot.rulemaze.rules.ast.FAMILIES`):
    #: ``"time-indexed"`` (``Zone`` / ``Move`` at each step) or ``"history"`` (``Seen``, ``Moved``,
    #: ``Count``, ``TargetIs`` over the whole walk).
    rule_family: str
    #: The built-in bank, 30 rules in bank order.
    rule_bank: tuple[BankRow, ...]

    # --- export wording and drawing ---
    #: The goal sentence of a task.
    goal_text: str
    #: Goal symbol -> how a final answer names it ("The moves reach the princess ...").
    goal_words: Mapping[str, str]
    #: Layout -> the scene description of its image, with ``{n}`` for the side.
    scene_texts: Mapping[str, str]
    #: (wall colour, grid-line colour, margin colour) of :mod:`svot.rulemaze.render`.
    palette: tuple[RGB, RGB, RGB]
    #: Letters of :meth:`svot.rulemaze.maze.Maze.to_text` (other symbols show their first letter).
    text_letters: Mapping[str, str]
    #: How :func:`svot.rulemaze.render.legend_image` names its symbols (others print as they are).
    legend_names: Mapping[str, str]
    #: Names :mod:`svot.rulemaze.symbols` answered before scenarios were declared, kept for old code.
    legacy_names: Mapping[str, object]

    def draw_tile(self, symbol: str, h: int, w: int, scale: int) -> np.ndarray | None:
        """The ``(h, w, 3)`` uint8 tile of one of its symbols, drawn ``scale`` x larger and reduced;
        None for a symbol drawn as a flat colour of svot's paint palette (:mod:`svot.rulemaze.sprites`)."""

    def goal_error(self, held: Sequence[str]) -> str | None:
        """Why goal cells holding ``held`` make no valid maze of this scenario, or None."""

    def initial_state(self, layout: str, size: int, start: Cell, goals: Sequence[Cell],
                      cells: Sequence[Sequence[str]], passages: Sequence[tuple[Cell, Cell]]) -> dict:
        """A maze as the initial state dict of ``domains[layout]`` (its spec's ``problem_from_state``)."""

    def open_grid_cells(self, state: dict) -> dict[Cell, str]:
        """For a scenario with an ``"open"`` layout: the symbol of every cell a state of that domain
        fills (targets, items, obstacles; the player's start aside)."""

    def pool_stats(self, cells_per_maze: Sequence[Sequence[str]], goal_counts: Sequence[int]) -> dict:
        """The scenario's own pool figures (:func:`svot.rulemaze.pool_stats.pool_stats`): the symbols
        of each maze's cells (row-major, flattened) and its number of goals."""


def scenarios() -> tuple[Scenario, ...]:
    """The declared scenarios, in the domain registry's order."""
    # a domain takes part in RuleMaze by naming its scenario on its spec (DomainSpec.rulemaze_scenario,
    # None for the others)
    return tuple(spec.rulemaze_scenario for spec in SPECS.values() if spec.rulemaze_scenario is not None)


def scenario_names() -> tuple[str, ...]:
    """The scenarios' names, e.g. for a default 'every scenario'."""
    return tuple(s.name for s in scenarios())


def _key(name: str) -> str:
    return str(name).strip().lower().replace("_", "").replace("-", "")


def get_scenario(name: str) -> Scenario:
    """The scenario a name or alias spells (``"regular"``, ``"RegularMaze"``, ``"quest-maze"``...).

    Raises :class:`ConfigError` naming the known scenarios otherwise.
    """
    key = _key(name)
    for s in scenarios():
        if key == _key(s.name) or key in s.aliases:
            return s
    known = " or ".join(repr(n) for n in scenario_names())
    raise ConfigError(f"unknown scenario {name!r} (expected {known})")


def normalize_scenario(name: str) -> str:
    """The canonical name of a scenario spelled ``name`` (see :func:`get_scenario`)."""
    return get_scenario(name).name


def scenario_of_symbols(symbols, default: str) -> str:
    """The scenario whose cell symbols hold the most of ``symbols`` (the later declared on a tie),
    or ``default`` when none holds any."""
    best, best_count = default, 0
    for s in scenarios():
        count = sum(1 for x in symbols if x in s.cell_symbols)
        if count and count >= best_count:
            best, best_count = s.name, count
    return best


def layout_for(scenario: str, requested: str) -> str:
    """The layout a scenario's mazes take when ``requested`` is asked of every scenario (the
    ``quest_layout`` option): ``requested`` when the scenario has it, else ``"walls"``."""
    return requested if requested in get_scenario(scenario).domains else "walls"
