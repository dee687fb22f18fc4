"""Pacman: eat every coin; no walls."""

from __future__ import annotations

from svot.kernel.spec import DomainSpec, Field, add_kind, cells_of, player_of
from svot.kernel.grid import cell_name
from svot.domains.pacman.table5 import TABLE5
from svot.domains.pacman import look as look_module
from svot.domains.pacman import wording as wording_module


class PacmanSpec(DomainSpec):
    name = "pacman"
    title = "Pacman"
    pddl = "pacman"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # phrases, goal fields, question, description, distractor rules
    sizes = (4, 5, 6)
    kinds = ("player", "coin")
    fields = (
        Field("player", "Player", "cell"),
        Field("collected", "Collected coins", "int"),
        Field("total", "Total coins", "int"),
        Field("coins", "Coins", "cells"),
    )

    def problem_from_state(self, state: dict, name: str):
        init = [("at", cell_name(state["player"]))] + [("coin", cell_name(c)) for c in state["coins"]]
        goal = [("eaten", cell_name(c)) for c in state["coins"]]
        return self.problem(state["size"], name, init, goal)

    def state_dict(self, atoms, size: int) -> dict:
        coins = cells_of(atoms, "coin")
        eaten = sum(1 for a in atoms if a[0] == "eaten")
        return {
            "domain": self.name,
            "size": size,
            "player": list(player_of(atoms)),
            "coins": coins,
            "collected": eaten,
            "total": eaten + len(coins),
        }

    def goal_state(self, atoms, size: int) -> dict:
        # the goal fields (collected, player) without sorting the coins left
        return {"collected": sum(1 for a in atoms if a[0] == "eaten"), "player": list(player_of(atoms))}

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for c in state["coins"]:
            add_kind(out, c, "coin")
        add_kind(out, state["player"], "player")
        return out

    # --- generation and solving ---
    table5 = TABLE5
    plan_optional = True  # no walls: every layout is solvable

    def item_layout(self, size: int, player, items) -> dict:
        return {"domain": self.name, "size": size, "player": list(player), "coins": [list(c) for c in sorted(items)]}

    def item_cells(self, state: dict) -> list:
        return [tuple(c) for c in state["coins"]]

    # --- envs and rendering ---

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density)

    # --- scoring ---
    # §3's example of P(z_i) verbatim: "discrete fields derived from the action and state
    # description (e.g., action direction, player coordinates, and the number of collected coins
    # in Pacman)"; the remaining coins' cells follow from those and the prompt, so they are left
    # out (pass fields=svot.metrics.state.all_fields("pacman") to add them).
    state_fields = ("action", "player", "collected")
    constant_fields = ("total",)

    # --- the dataset ---
    reachable_distractors = True
    table5_predictions = {
        4: {"train": 5342, "val": 652, "test_id": 1308, "test_ood": 2396},
        5: {"train": 7426, "val": 846, "test_id": 1698, "test_ood": 2642},
        6: {"train": 7728, "val": 934, "test_id": 1910, "test_ood": 2974},
    }


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = PacmanSpec()
