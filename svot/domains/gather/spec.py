"""Gather: collect every coloured ball with moves of k cells (1 ≤ k ≤ N-1)."""

from __future__ import annotations

import functools

from svot.kernel.spec import DomainSpec, Field, add_kind, player_of
from svot.domains.gather import wording as wording_module
from svot.kernel.grid import DIRECTIONS, cell_name, cells, inside, parse_cell, shift, sorted_cells
from svot.domains.gather import look as look_module
from svot.errors import ActionError
from svot.numbers import small_int
from svot.domains.gather.table5 import TABLE5

COLOURS = ("red", "green", "blue", "yellow")
COLOURS_BY_SIZE = {4: COLOURS[:2], 5: COLOURS[:3], 6: COLOURS[:4]}


def colours_for(size: int) -> tuple[str, ...]:
    return COLOURS_BY_SIZE.get(size, COLOURS[: max(2, min(4, size - 2))])


class GatherSpec(DomainSpec):
    name = "gather"
    title = "Gather"
    pddl = "gather"
    look = look_module  # floor, sprites, ANSI characters, label combinations (svot.kernel.spec.LOOK_VALUES)
    wording = wording_module  # phrases, goal fields, question, description, distractor rules
    sizes = (4, 5, 6)
    internal = ("advance",)
    kinds = ("player",) + tuple(f"ball_{c}" for c in COLOURS)
    fields = (
        Field("player", "Player", "cell"),
        Field("collected", "Collected balls", "colour_counts"),
        Field("balls", "Balls", "colour_cells"),
    )

    # action 4*(k-1)+d moves k cells in direction d
    def n_actions(self, size: int) -> int:
        return 4 * (size - 1)

    def action_key(self, action: int, size: int) -> tuple:
        k, d = divmod(action, 4)
        return ("move", DIRECTIONS[d], f"k{k + 1}")

    def action_text(self, action: int, size: int) -> str:
        k, d = divmod(action, 4)
        return f"move {DIRECTIONS[d]} {k + 1}"

    def parse_action(self, text: str, size: int) -> int:
        words = str(text).lower().replace(",", " ").split()
        words = [w for w in words if w not in ("move", "step", "steps", "cell", "cells", "by")]
        k = small_int(words[1]) if len(words) == 2 and words[0] in DIRECTIONS else None
        if k is not None:
            if 1 <= k <= size - 1:
                return 4 * (k - 1) + DIRECTIONS.index(words[0])
        raise ActionError(
            f"cannot read action {text!r} for gather {size}x{size}; expected 'move <direction> <k>' with 1 <= k <= {size - 1}"
        )

    def base_objects(self, size: int) -> list:
        objs = super().base_objects(size)
        objs += [(f"k{k}", "distance") for k in range(1, size)]
        objs += [(c, "colour") for c in colours_for(size)]
        return objs

    def base_atoms(self, size: int) -> list:
        atoms = super().base_atoms(size)
        for c in cells(size):
            for d in DIRECTIONS:
                for k in range(1, size):
                    n = shift(c, d, k)
                    if inside(n, size):
                        atoms.append(("ray", cell_name(c), d, f"k{k}", cell_name(n)))
        return atoms + [("idle",)]

    def problem_from_state(self, state: dict, name: str):
        size = state["size"]
        init = [("at", cell_name(state["player"]))]
        ball_cells = set()
        goal = []
        for colour, where in state["balls"].items():
            for b in where:
                init.append(("ball", cell_name(b), colour))
                goal.append(("got", cell_name(b), colour))
                ball_cells.add(tuple(b))
        init += [("clear", name) for c, name in _cell_names(size) if c not in ball_cells]
        return self.problem(size, name, init, goal)

    def state_dict(self, atoms, size: int) -> dict:
        balls: dict[str, list] = {c: [] for c in colours_for(size)}
        collected: dict[str, int] = {c: 0 for c in balls}
        player = None
        for a in atoms:
            head = a[0]
            if head == "ball":
                balls.setdefault(a[2], []).append(parse_cell(a[1]))
                collected.setdefault(a[2], 0)
            elif head == "got":
                collected[a[2]] = collected.get(a[2], 0) + 1
                balls.setdefault(a[2], [])
            elif head == "at":
                player = parse_cell(a[1])
        if player is None:
            raise ValueError("state has no (at ?c) atom")
        colours = sorted(balls, key=_colour_order)
        return {
            "domain": self.name,
            "size": size,
            "player": list(player),
            "balls": {c: sorted_cells(balls[c]) for c in colours},
            "collected": {c: collected[c] for c in colours},
        }

    def goal_state(self, atoms, size: int) -> dict:
        # the goal fields (collected, player) without the balls' cells: the colours counted are those
        # state_dict lists (the size's, and any a ball or a (got) atom names)
        collected: dict[str, int] = dict.fromkeys(colours_for(size), 0)
        for a in atoms:
            if a[0] == "got":
                collected[a[2]] = collected.get(a[2], 0) + 1
            elif a[0] == "ball":
                collected.setdefault(a[2], 0)
        ordered = {c: collected[c] for c in sorted(collected, key=_colour_order)}
        return {"collected": ordered, "player": list(player_of(atoms))}

    def cell_kinds(self, state: dict) -> dict:
        out: dict = {}
        for colour, where in state["balls"].items():
            for b in where:
                add_kind(out, b, f"ball_{colour}")
        add_kind(out, state["player"], "player")
        return out

    # --- generation and solving ---
    table5 = TABLE5
    plan_optional = True  # no walls: every layout is solvable

    def item_layout(self, size: int, player, items) -> dict:
        colours = colours_for(size)  # every ball in the first colour: moves ignore colours
        balls = {c: ([list(x) for x in sorted(items)] if i == 0 else []) for i, c in enumerate(colours)}
        return {"domain": self.name, "size": size, "player": list(player), "balls": balls}

    def item_cells(self, state: dict) -> list:
        return [tuple(b) for where in state["balls"].values() for b in where]

    # --- envs and rendering ---
    sprites = look_module.sprites(COLOURS)
    ansi_chars = look_module.ansi_chars(COLOURS)

    def kinds_at(self, size: int) -> tuple[str, ...]:
        return look_module.kinds_at(self.kinds, colours_for(size))  # the ball colours depend on the size

    def random_state(self, size: int, rng, density: float | None) -> dict:
        return look_module.random_state(self.name, size, rng, density, colours_for(size))

    # --- scoring ---
    state_fields = ("action", "player", "collected", "balls")
    constant_fields = ()

    # --- the dataset ---
    reachable_distractors = True
    table5_predictions = {
        4: {"train": 5424, "val": 696, "test_id": 1412, "test_ood": 2512},
        5: {"train": 7330, "val": 802, "test_id": 1606, "test_ood": 2670},
        6: {"train": 8182, "val": 1026, "test_id": 2022, "test_ood": 2956},
    }

    def dataset_action_text(self, action: int, size: int) -> str:
        return wording_module.action_text(self.action_text(action, size))

    def description_colours(self, state: dict) -> tuple[str, ...]:
        return tuple(state["balls"])

    def conclusion(self, op, binding: dict) -> str:
        return super().conclusion(op, wording_module.conclusion_binding(binding))

    def kind_word(self, kind: str) -> str:
        return wording_module.kind_word(kind) or super().kind_word(kind)


@functools.lru_cache(maxsize=None)
def _cell_names(size: int) -> tuple[tuple[tuple[int, int], str], ...]:
    """((cell, its object name), ...) row-major: every clear cell of a problem is one of them."""
    return tuple((c, cell_name(c)) for c in cells(size))


def _colour_order(c: str) -> tuple:
    return (COLOURS.index(c) if c in COLOURS else len(COLOURS), c)


# the domain's one spec: its sampler, solver and env are bound to this instance
SPEC = GatherSpec()
