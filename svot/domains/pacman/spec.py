"""Pacman: eat every coin; no walls."""

from __future__ import annotations

from svot.domains.base import DomainSpec, Field, add_kind, cells_of, player_of
from svot.domains.grid import cell_name
from svot.domains.pacman.table5 import TABLE5
from svot.domains.pacman import look
from svot.domains.pacman import wording


class PacmanSpec(DomainSpec):
    name = "pacman"
    title = "Pacman"
    pddl = "pacman"
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

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for c in state["coins"]:
            add_kind(out, c, "coin")
        add_kind(out, state["player"], "player")
        return out

    # --- generation and solving ---
    generator_module = "svot.domains.pacman.generator"
    table5 = TABLE5
    plan_optional = True  # no walls: every layout is solvable
    solver_module = "svot.domains.pacman.solver"  # Held-Karp over the coins (or the greedy plan)

    def item_layout(self, size: int, player, items) -> dict:
        return {"domain": self.name, "size": size, "player": list(player), "coins": [list(c) for c in sorted(items)]}

    def item_cells(self, state: dict) -> list:
        return [tuple(c) for c in state["coins"]]

    # --- envs and rendering ---
    env_entry_point = "svot.domains.pacman.env:PacmanEnv"
    vector_entry_point = "svot.domains.pacman.env:PacmanVectorEnv"
    floor = look.FLOOR
    sprites = look.SPRITES
    label_combos = look.LABEL_COMBOS
    ansi_chars = look.ANSI_CHARS
    empty_cell_name = look.EMPTY_CELL_NAME

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look.random_state(self.name, size, rng, density)

    # --- scoring ---
    # §3's example of P(z_i) verbatim: "discrete fields derived from the action and state
    # description (e.g., action direction, player coordinates, and the number of collected coins
    # in Pacman)"; the remaining coins' cells follow from those and the prompt, so they are left
    # out (pass fields=svot.metrics.state.all_fields("pacman") to add them).
    state_fields = ("action", "player", "collected")
    constant_fields = ("total",)

    # --- the dataset ---
    phrases = wording.PHRASES
    conclusions = wording.CONCLUSIONS
    kind_words = wording.KIND_WORDS
    reachable_distractors = True
    table5_predictions = {
        4: {"train": 5342, "val": 652, "test_id": 1308, "test_ood": 2396},
        5: {"train": 7426, "val": 846, "test_id": 1698, "test_ood": 2642},
        6: {"train": 7728, "val": 934, "test_id": 1910, "test_ood": 2974},
    }

    def goal_fields(self) -> tuple[str, ...]:
        return wording.GOAL_FIELDS

    def question(self) -> str:
        return wording.QUESTION

    def answer_format(self) -> str:
        return wording.ANSWER_FORMAT

    def describe(self, size: int, colours: tuple[str, ...] = ()) -> str:
        return wording.describe(size)

    def effect_clauses(self, before: dict, after: dict, applied: list, add) -> list[str]:
        return wording.effect_clauses(before, after, add)

    def distractor_pools(self, truth: dict, initial: dict) -> tuple[list[dict], list[dict]]:
        return wording.distractor_pools(truth, initial)

    def choice_problems(self, truth: dict, choice: dict, initial: dict) -> list[str]:
        return wording.choice_problems(truth, choice, initial)

    def min_plan_length(self, params: dict) -> int:
        return wording.min_plan_length(params)
