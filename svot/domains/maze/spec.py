"""Maze: reach the goal; walls and the grid's edge block a move."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, cells_of, player_of
from svot.kernel.grid import cell_name, parse_cell
from svot.domains.maze.table5 import TABLE5
from svot.domains.maze import look as look_module
from svot.domains.maze import wording as wording_module


class MazeSpec(DomainSpec):
    name = "maze"
    title = "Maze"
    pddl = "maze"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # phrases, goal fields, question, description, distractor rules
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
    table5 = TABLE5

    # --- envs and rendering ---

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density)

    # --- scoring ---
    state_fields = ("action", "player")
    constant_fields = ("goal", "walls")

    # --- the dataset ---
    table5_predictions = {
        5: {"train": 6342, "val": 832, "test_id": 1658, "test_ood": 2682},
        6: {"train": 8164, "val": 982, "test_id": 1956, "test_ood": 3164},
        7: {"train": 8544, "val": 1166, "test_id": 2326, "test_ood": 3372},
    }


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = MazeSpec()
