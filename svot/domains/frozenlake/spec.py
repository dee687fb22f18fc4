"""FrozenLake (deterministic): reach the goal tile without falling into a hole."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, cells_of, player_of
from svot.domains.frozenlake import wording as wording_module
from svot.kernel.grid import cell_name, parse_cell, sorted_cells
from svot.domains.frozenlake.table5 import TABLE5
from svot.domains.frozenlake import look as look_module


class FrozenLakeSpec(DomainSpec):
    name = "frozenlake"
    title = "FrozenLake"
    pddl = "frozenlake"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # phrases, goal fields, question, description, distractor rules
    sizes = (4, 5, 6)
    kinds = ("player", "hole", "goal", "start")
    fields = (
        Field("player", "Player", "cell"),
        Field("tile", "Tile", "word"),
        Field("status", "Status", "word"),
        Field("goal", "Goal", "cell"),
        Field("holes", "Holes", "cells"),
        Field("start", "Start", "cell"),
    )
    word_values = {"tile": ("start", "frozen", "hole", "goal"), "status": ("running", "fell", "reached")}

    def problem_from_state(self, state: dict, name: str):
        start = state.get("start", state["player"])
        init = [
            ("at", cell_name(state["player"])),
            ("start", cell_name(start)),
            ("goal", cell_name(state["goal"])),
        ]
        init += [("hole", cell_name(h)) for h in state["holes"]]
        return self.problem(state["size"], name, init, [("at", cell_name(state["goal"]))])

    def state_dict(self, atoms, size: int) -> dict:
        # one pass over the atoms (the first at/goal/start atom each, as player_of and next() read them)
        at = goal = start = None
        hole_names = []
        for a in atoms:
            head = a[0]
            if head == "hole":
                hole_names.append(a[1])
            elif head == "at":
                at = a if at is None else at
            elif head == "goal":
                goal = a if goal is None else goal
            elif head == "start":
                start = a if start is None else start
        if at is None or goal is None or start is None:
            return self._state_dict_reading(atoms, size)  # raises as the field readers do
        player = list(parse_cell(at[1]))
        holes = sorted_cells(parse_cell(h) for h in hole_names)
        return self._state(size, player, holes, list(parse_cell(goal[1])), list(parse_cell(start[1])))

    def _state_dict_reading(self, atoms, size: int) -> dict:
        player = list(player_of(atoms))
        holes = cells_of(atoms, "hole")
        goal = list(next(parse_cell(a[1]) for a in atoms if a[0] == "goal"))
        start = list(next(parse_cell(a[1]) for a in atoms if a[0] == "start"))
        return self._state(size, player, holes, goal, start)

    def _state(self, size: int, player: list, holes: list, goal: list, start: list) -> dict:
        tile, status = tile_and_status(player, holes, goal, start)
        return {
            "domain": self.name,
            "size": size,
            "player": player,
            "holes": holes,
            "goal": goal,
            "start": start,
            "tile": tile,
            "status": status,
        }

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for h in state["holes"]:
            add_kind(out, h, "hole")
        add_kind(out, state["goal"], "goal")
        add_kind(out, state["start"], "start")
        add_kind(out, state["player"], "player")
        return out

    def is_failure(self, state: dict) -> bool:
        return state["status"] == "fell"

    failure_atoms = (("at", "?x"), ("hole", "?x"))  # fell: the player stands on a hole

    # --- generation and solving ---
    table5 = TABLE5
    plan_optional = True  # the sampler's path check proves a board solvable; planning is BFS (the default solver)

    # --- envs and rendering ---

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density, tile_and_status)

    # --- scoring ---
    state_fields = ("action", "player", "tile", "status")
    constant_fields = ("goal", "holes", "start")

    # --- the dataset ---
    table5_predictions = {
        4: {"train": 5120, "val": 736, "test_id": 1494, "test_ood": 2362},
        5: {"train": 7346, "val": 882, "test_id": 1758, "test_ood": 2588},
        6: {"train": 7754, "val": 1042, "test_id": 2028, "test_ood": 3018},
    }
    # A sequence stops where it enters a hole or the goal: the mean shortfall (drawn - kept) of
    # random sequences measured on seed 0 with no allowance, pooled over the ID splits (train,
    # val, test_id) or the OOD split (issue 14).
    early_stop_allowance = {
        (4, "id"): 0.119,
        (4, "ood"): 0.058,
        (5, "id"): 0.105,
        (5, "ood"): 0.092,
        (6, "id"): 0.093,
        (6, "ood"): 0.050,
    }


def tile_and_status(player, holes, goal, start) -> tuple[str, str]:
    """The tile the player stands on and the episode status (cells as ``[row, col]`` lists)."""
    if player in holes:
        return "hole", "fell"
    if player == goal:
        return "goal", "reached"
    return ("start" if player == start else "frozen"), "running"


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = FrozenLakeSpec()
