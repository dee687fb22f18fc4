"""Maze: reach the goal; walls and the grid's edge block a move."""

from __future__ import annotations

from svot.domains.base import DomainSpec, Field, add_kind, cells_of, player_of
from svot.domains.grid import cell_name, parse_cell
from svot.domains.maze.table5 import TABLE5
from svot.domains.maze import look


class MazeSpec(DomainSpec):
    name = "maze"
    title = "Maze"
    pddl = "maze"
    sizes = (5, 6, 7)
    kinds = ("player", "wall", "goal")
    fields = (
        Field("player", "Player", "cell"),
        Field("goal", "Goal", "cell"),
        Field("walls", "Walls", "cells"),
    )

    def problem_from_state(self, state: dict, name: str):
        init = [("at", cell_name(state["player"])), ("goal", cell_name(state["goal"]))]
        init += [("wall", cell_name(w)) for w in state["walls"]]
        return self.problem(state["size"], name, init, [("at", cell_name(state["goal"]))])

    def state_dict(self, atoms, size: int) -> dict:
        goal = next(parse_cell(a[1]) for a in atoms if a[0] == "goal")
        return {
            "domain": self.name,
            "size": size,
            "player": list(player_of(atoms)),
            "walls": cells_of(atoms, "wall"),
            "goal": list(goal),
        }

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for w in state["walls"]:
            add_kind(out, w, "wall")
        add_kind(out, state["goal"], "goal")
        add_kind(out, state["player"], "player")
        return out

    # --- generation and solving ---
    generator_module = "svot.domains.maze.generator"
    table5 = TABLE5

    # --- envs and rendering ---
    env_entry_point = "svot.domains.maze.env:MazeEnv"
    vector_entry_point = "svot.domains.maze.env:MazeVectorEnv"
    floor = look.FLOOR
    sprites = look.SPRITES
    label_combos = look.LABEL_COMBOS
    ansi_chars = look.ANSI_CHARS
    empty_cell_name = look.EMPTY_CELL_NAME

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look.random_state(self.name, size, rng, density)

    # --- scoring ---
    state_fields = ("action", "player")
    constant_fields = ("goal", "walls")
