"""Sokoban: push every block onto a goal square."""

from __future__ import annotations

from svot.domains.base import DomainSpec, Field, add_kind, cells_of, player_of
from svot.domains.grid import cell_name
from svot.domains.sokoban.table5 import TABLE5
from svot.domains.sokoban import look
from svot.domains.sokoban import wording


class SokobanSpec(DomainSpec):
    name = "sokoban"
    title = "Sokoban"
    pddl = "sokoban"
    sizes = (4, 5, 6)
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
    generator_module = "svot.domains.sokoban.generator"
    table5 = TABLE5
    solver_module = "svot.domains.sokoban.solver"  # BFS that skips provably dead states (same plan)

    # --- envs and rendering ---
    env_entry_point = "svot.domains.sokoban.env:SokobanEnv"
    vector_entry_point = "svot.domains.sokoban.env:SokobanVectorEnv"
    floor = look.FLOOR
    sprites = look.SPRITES
    label_combos = look.LABEL_COMBOS
    ansi_chars = look.ANSI_CHARS
    empty_cell_name = look.EMPTY_CELL_NAME

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look.random_state(self.name, size, rng, density)

    # --- scoring ---
    state_fields = ("action", "player", "blocks")
    constant_fields = ("goals", "walls")

    # --- the dataset ---
    phrases = wording.PHRASES
    conclusions = wording.CONCLUSIONS
    kind_words = wording.KIND_WORDS
    table5_predictions = {
        4: {"train": 5326, "val": 762, "test_id": 1534, "test_ood": 2430},
        5: {"train": 7146, "val": 936, "test_id": 1864, "test_ood": 2704},
        6: {"train": 8362, "val": 1112, "test_id": 2216, "test_ood": 3136},
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
