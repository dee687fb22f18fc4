"""OpenQuestMaze: the prince walks the open grid around monsters, collecting items, until he reaches a target."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, cells_of, player_of
from svot.kernel.grid import adjacency_atoms, cell_name, cells, grid_objects, parse_cell, sorted_cells
from svot.domains.questmaze5 import look as look_module
from svot.domains.questmaze5 import wording as wording_module
from svot.domains.questmaze5.look import ITEMS, MONSTER, TARGETS
from svot.pddl.problem import Problem

#: What ``reached`` says before a target is reached.
NONE = "none"


class OpenQuestMazeSpec(DomainSpec):
    # the registry key is the PDDL domain's name: a problem names its domain, and the engines
    # (that domain's name) and the solver (the spec's) both check it
    name = "questmaze5"
    title = "OpenQuestMaze"
    pddl = "questmaze5"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # preconditions, what each move does, the goal fields
    sizes = (5, 7)  # logical 3x3 (the paper's) and 4x4 mazes: side 2n - 1
    kinds = ("player", "princess", "treasure", "key", "heart", "food", MONSTER)
    fields = (
        Field("player", "Player", "cell"),
        Field("targets", "Targets", "colour_cells"),  # a RuleMaze open grid may hold one target only
        Field("items", "Items", "colour_cells"),
        Field("collected", "Collected", "colour_cells"),
        Field("reached", "Reached", "word"),
        Field("monsters", "Monsters", "cells"),
    )
    word_values = {"reached": (NONE, *TARGETS)}

    # --- problems ---
    def base_objects(self, size: int) -> list[tuple[str, str]]:
        return grid_objects(size) + [(i, "item") for i in ITEMS] + [(t, "target") for t in TARGETS]

    def base_atoms(self, size: int) -> list:
        # the open grid: every pair of neighbouring cells is adjacent, the same for every problem
        return [("adjacent", *a[1:]) for a in adjacency_atoms(size)]

    def problem_from_state(self, state: dict, name: str) -> Problem:
        n = state["size"]
        init = [("at", cell_name(state["player"]))]
        taken = set()
        for target, where in state["targets"].items():
            for cell in where:
                init.append(("target-at", cell_name(cell), target))
                taken.add(tuple(cell))
        for item, where in state["items"].items():
            for cell in where:
                init.append(("item-at", cell_name(cell), item))
                taken.add(tuple(cell))
        for cell in state["monsters"]:
            init.append(("monster", cell_name(cell)))
            taken.add(tuple(cell))
        init += [("free", cell_name(cell)) for cell in cells(n) if cell not in taken]
        for item, where in state["collected"].items():
            init += [("collected", cell_name(cell), item) for cell in where]
        if state["reached"] != NONE:
            init += [("reached", state["reached"]), ("ended",)]
        return self.problem(n, name, init, [("ended",)])

    def state_dict(self, atoms, size: int) -> dict:
        atoms = list(atoms)
        reached = [a[1] for a in atoms if a[0] == "reached"]
        return {
            "domain": self.name,
            "size": size,
            "player": list(player_of(atoms)),
            "targets": _by_name(atoms, "target-at", TARGETS),
            "items": _by_name(atoms, "item-at", ITEMS),
            "collected": _by_name(atoms, "collected", ITEMS),
            "reached": reached[0] if reached else NONE,
            "monsters": cells_of(atoms, MONSTER),
        }

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for key in ("targets", "items"):
            for kind, where in state[key].items():
                for cell in where:
                    add_kind(out, cell, kind)
        for cell in state["monsters"]:
            add_kind(out, cell, MONSTER)
        add_kind(out, state["player"], "player")
        return out

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density)

    # --- generation and solving ---
    plan_optional = True  # every sampled maze is connected: a target is always reachable

    # --- envs and rendering ---
    # (item-at ?c key) draws the key and (target-at ?c princess) the princess; (collected ?c key)
    # draws nothing (a collected item is gone); (monster ?c) draws the monster by its name.
    kind_argument_predicates = frozenset({"item-at", "target-at"})


    # --- scoring ---
    state_fields = ("action", "player", "items", "collected", "reached")
    constant_fields = ("targets", "monsters")


def _by_name(atoms, pred: str, names: tuple[str, ...]) -> dict[str, list[list[int]]]:
    found: dict[str, list] = {}
    for a in atoms:
        if a[0] == pred:
            found.setdefault(a[2], []).append(parse_cell(a[1]))
    return {k: sorted_cells(found[k]) for k in names if k in found}


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = OpenQuestMazeSpec()
