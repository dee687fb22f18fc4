"""QuestMaze: the prince walks a walled maze, collecting items, until he reaches a target."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, player_of
from svot.kernel.grid import cell_name, cells, grid_objects, parse_cell, sorted_cells
from svot.domains.passages import add_wall_kinds, open_atoms, walls_from_open
from svot.domains.questmaze import look as look_module
from svot.domains.questmaze import wording as wording_module
from svot.domains.questmaze.look import ITEMS, TARGETS
from svot.domains.questmaze.scenario import SCENARIO
from svot.pddl.problem import Problem

#: What ``reached`` says before a target is reached.
NONE = "none"


class QuestMazeSpec(DomainSpec):
    name = "questmaze"
    title = "QuestMaze"
    pddl = "questmaze"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # preconditions, what each move does, the goal fields
    sizes = (3, 4)
    kinds = ("player", "princess", "treasure", "key", "heart", "food", "wall_right", "wall_down")
    fields = (
        Field("player", "Player", "cell"),
        Field("princess", "Princess", "cell"),
        Field("treasure", "Treasure", "cell"),
        Field("items", "Items", "colour_cells"),
        Field("collected", "Collected", "colour_cells"),
        Field("reached", "Reached", "word"),
        Field("walls_right", "Walls right of", "cells"),
        Field("walls_down", "Walls below", "cells"),
    )
    word_values = {"reached": (NONE, *TARGETS)}

    # --- problems ---
    def base_objects(self, size: int) -> list[tuple[str, str]]:
        return grid_objects(size) + [(i, "item") for i in ITEMS] + [(t, "target") for t in TARGETS]

    def base_atoms(self, size: int) -> list:
        return []  # passages differ per problem: no grid atom is shared

    def problem_from_state(self, state: dict, name: str) -> Problem:
        n = state["size"]
        init = [("at", cell_name(state["player"]))] + open_atoms(n, state["walls_right"], state["walls_down"])
        taken = set()
        for t in TARGETS:
            init.append(("target-at", cell_name(state[t]), t))
            taken.add(tuple(state[t]))
        for item, where in state["items"].items():
            for cell in where:
                init.append(("item-at", cell_name(cell), item))
                taken.add(tuple(cell))
        init += [("free", cell_name(cell)) for cell in cells(n) if cell not in taken]
        for item, where in state["collected"].items():
            init += [("collected", cell_name(cell), item) for cell in where]
        if state["reached"] != NONE:
            init += [("reached", state["reached"]), ("ended",)]
        return self.problem(n, name, init, [("ended",)])

    def state_dict(self, atoms, size: int) -> dict:
        atoms = list(atoms)
        targets = {a[2]: list(parse_cell(a[1])) for a in atoms if a[0] == "target-at"}
        reached = [a[1] for a in atoms if a[0] == "reached"]
        walls_right, walls_down = walls_from_open(size, atoms)
        return {
            "domain": self.name,
            "size": size,
            "player": list(player_of(atoms)),
            "princess": targets["princess"],
            "treasure": targets["treasure"],
            "items": _by_item(atoms, "item-at"),
            "collected": _by_item(atoms, "collected"),
            "reached": reached[0] if reached else NONE,
            "walls_right": walls_right,
            "walls_down": walls_down,
        }

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for t in TARGETS:
            add_kind(out, state[t], t)
        for item, where in state["items"].items():
            for cell in where:
                add_kind(out, cell, item)
        add_wall_kinds(out, state)
        add_kind(out, state["player"], "player")
        return out

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density)

    # --- generation and solving ---
    plan_optional = True  # every sampled maze is connected: a target is always reachable

    # --- envs and rendering ---
    # (item-at ?c key) draws the key and (target-at ?c princess) the princess; (collected ?c key)
    # draws nothing (a collected item is gone). The walls are drawn by no atom: the absence of an
    # (open ...) passage, the same all episode.
    kind_argument_predicates = frozenset({"item-at", "target-at"})


    # --- RuleMaze ---
    rulemaze_scenario = SCENARIO  # its rules, pools and exports (svot.rulemaze.scenario)

    # --- scoring ---
    state_fields = ("action", "player", "items", "collected", "reached")
    constant_fields = ("princess", "treasure", "walls_right", "walls_down")


def _by_item(atoms, pred: str) -> dict[str, list[list[int]]]:
    found: dict[str, list] = {}
    for a in atoms:
        if a[0] == pred:
            found.setdefault(a[2], []).append(parse_cell(a[1]))
    return {i: sorted_cells(found[i]) for i in ITEMS if i in found}


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = QuestMazeSpec()
