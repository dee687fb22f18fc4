"""Sokoban: push every block onto a goal square."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, cells_of, player_of
from svot.kernel.grid import cell_name
from svot.domains.sokoban.table5 import TABLE5
from svot.domains.sokoban import look as look_module
from svot.domains.sokoban import wording as wording_module


class SokobanSpec(DomainSpec):
    name = "sokoban"
    title = "Sokoban"
    pddl = "sokoban"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # phrases, goal fields, question, description, distractor rules
    sizes = (4, 5, 6)
    # solvability is a search, but plan=False asks it for a verdict only (the generator's search_draw):
    # the same problems and draws, the plan left to solve()
    plan_optional = True
    kinds = ("player", "wall", "block", "goal")
    fields = (
        Field("player", "Player", "cell"),
        Field("blocks", "Blocks", "cells"),
        Field("goals", "Goals", "cells"),
        Field("walls", "Walls", "cells"),
    )

    def problem_from_state(self, state: dict, name: str):
        init = [("at", cell_name(state["player"]))]
        init += [("wall", cell_name(w)) for w in state["walls"]]
        init += [("block", cell_name(b)) for b in state["blocks"]]
        init += [("goal", cell_name(g)) for g in state["goals"]]
        goal = [("block", cell_name(g)) for g in state["goals"]]
        return self.problem(state["size"], name, init, goal)

    def state_dict(self, atoms, size: int) -> dict:
        return {
            "domain": self.name,
            "size": size,
            "player": list(player_of(atoms)),
            "walls": cells_of(atoms, "wall"),
            "blocks": cells_of(atoms, "block"),
            "goals": cells_of(atoms, "goal"),
        }

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for w in state["walls"]:
            add_kind(out, w, "wall")
        for g in state["goals"]:
            add_kind(out, g, "goal")
        for b in state["blocks"]:
            add_kind(out, b, "block")
        add_kind(out, state["player"], "player")
        return out

    # --- generation and solving ---
    table5 = TABLE5

    # --- envs and rendering ---

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density)

    # --- scoring ---
    state_fields = ("action", "player", "blocks")
    constant_fields = ("goals", "walls")

    # --- the dataset ---
    table5_predictions = {
        4: {"train": 5326, "val": 762, "test_id": 1534, "test_ood": 2430},
        5: {"train": 7146, "val": 936, "test_id": 1864, "test_ood": 2704},
        6: {"train": 8362, "val": 1112, "test_id": 2216, "test_ood": 3136},
    }


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = SokobanSpec()
