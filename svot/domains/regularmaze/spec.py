"""RegularMaze: walk a walled maze with painted zones from the green start to the red goal."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, player_of
from svot.kernel.grid import cell_name, grid_objects, parse_cell, sorted_cells
from svot.domains.passages import add_wall_kinds, open_atoms, walls_from_open
from svot.domains.regularmaze import look as look_module
from svot.domains.regularmaze import wording as wording_module
from svot.domains.regularmaze.look import GOAL_COLOUR, START_COLOUR, ZONES
from svot.domains.regularmaze.scenario import SCENARIO
from svot.pddl.problem import Problem


class RegularMazeSpec(DomainSpec):
    name = "regularmaze"
    title = "RegularMaze"
    pddl = "regularmaze"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # the passage precondition, what a move does, the goal fields
    sizes = (3, 4)
    kinds = ("player", "start", "goal", *(f"zone_{z}" for z in ZONES), "wall_right", "wall_down")
    fields = (
        Field("player", "Player", "cell"),
        Field("start", "Start", "cell"),
        Field("goal", "Goal", "cell"),
        Field("zones", "Zones", "colour_cells"),
        Field("walls_right", "Walls right of", "cells"),
        Field("walls_down", "Walls below", "cells"),
    )

    # --- problems ---
    def base_objects(self, size: int) -> list[tuple[str, str]]:
        return grid_objects(size) + [(c, "colour") for c in (*ZONES, START_COLOUR, GOAL_COLOUR)]

    def base_atoms(self, size: int) -> list:
        return []  # passages differ per problem: no grid atom is shared

    def problem_from_state(self, state: dict, name: str) -> Problem:
        n = state["size"]
        goal = cell_name(state["goal"])
        init = [("at", cell_name(state["player"])), ("goal", goal), ("zone", goal, GOAL_COLOUR),
                ("zone", cell_name(state["start"]), START_COLOUR)]
        init += open_atoms(n, state["walls_right"], state["walls_down"])
        for colour, where in state["zones"].items():
            init += [("zone", cell_name(c), colour) for c in where]
        return self.problem(n, name, init, [("at", goal)])

    def state_dict(self, atoms, size: int) -> dict:
        atoms = list(atoms)
        zones: dict[str, list] = {}
        start = None
        for a in atoms:
            if a[0] == "zone":
                if a[2] == START_COLOUR:
                    start = list(parse_cell(a[1]))
                elif a[2] != GOAL_COLOUR:
                    zones.setdefault(a[2], []).append(parse_cell(a[1]))
        walls_right, walls_down = walls_from_open(size, atoms)
        return {
            "domain": self.name,
            "size": size,
            "player": list(player_of(atoms)),
            "start": start,
            "goal": next(list(parse_cell(a[1])) for a in atoms if a[0] == "goal"),
            "zones": {z: sorted_cells(zones[z]) for z in ZONES if z in zones},
            "walls_right": walls_right,
            "walls_down": walls_down,
        }

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        add_kind(out, state["start"], "start")
        add_kind(out, state["goal"], "goal")
        for colour, where in state["zones"].items():
            for cell in where:
                add_kind(out, cell, f"zone_{colour}")
        add_wall_kinds(out, state)
        add_kind(out, state["player"], "player")
        return out

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density)

    # --- generation and solving ---
    plan_optional = True  # every sampled maze is connected: the goal is always reachable

    # --- envs and rendering ---
    def atom_kind_names(self, pred: str, rest: list[str]) -> list[str]:
        # (zone ?c green) is the start and (zone ?c blue) a blue zone; the goal's red is drawn by (goal ?c).
        # The walls are drawn by no atom: the absence of an (open ...) passage, the same all episode.
        if pred == "zone" and rest == [START_COLOUR]:
            return ["start"]
        return super().atom_kind_names(pred, rest)


    # --- RuleMaze ---
    rulemaze_scenario = SCENARIO  # its rules, pools and exports (svot.rulemaze.scenario)

    # --- scoring ---
    state_fields = ("action", "player")
    constant_fields = ("start", "goal", "zones", "walls_right", "walls_down")


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = RegularMazeSpec()
