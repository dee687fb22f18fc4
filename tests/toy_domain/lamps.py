"""The toy "lamps" domain: a test-side domain registered from outside svot, with no svot file edited.

Its PDDL file sits beside this module; :class:`LampsSpec` and :class:`LampsGenerator` are the two
pieces ``svot.extend.register_domain`` takes. The typed and disjunctive variants exercise the
reference-engine fallback. Used by ``test_toy_domain.py``, the contract test and the layer tests.
"""

from __future__ import annotations

from pathlib import Path

from svot.kernel import DomainSpec, Field
from svot.kernel.spec import add_kind, cells_of, player_of
from svot.kernel.grid import cell_name, cells
from svot.engine import bfs_plan, make_engine
from svot.pddl import load_domain
from svot.problem_gen import Generated

PDDL = str(Path(__file__).with_name("lamps.pddl"))


class LampsSpec(DomainSpec):
    """Lamps: light every lamp by stepping onto it."""

    name = "lamps"
    title = "Lamps"
    pddl = PDDL
    sizes = (4, 5)
    kinds = ("player", "lamp", "lit")
    fields = (Field("player", "Player", "cell"), Field("lamps", "Lamps", "cells"), Field("lit", "Lit", "cells"))

    def problem_from_state(self, state, name):
        init = [("at", cell_name(state["player"]))]
        init += [("lamp", cell_name(c)) for c in state["lamps"]] + [("lit", cell_name(c)) for c in state["lit"]]
        return self.problem(state["size"], name, init, [("lit", cell_name(c)) for c in state["lamps"]])

    def state_dict(self, atoms, size):
        return {"domain": self.name, "size": size, "player": list(player_of(atoms)),
                "lamps": cells_of(atoms, "lamp"), "lit": cells_of(atoms, "lit")}

    def cell_kinds(self, state):
        out = {}
        for c in state["lamps"]:
            add_kind(out, c, "lit" if c in state["lit"] else "lamp")
        add_kind(out, state["player"], "player")
        return out


class LampsGenerator:
    """Two lamps (three for OOD) on random cells; the plan is a BFS on the grounded engine."""

    def __init__(self, spec=None):
        self.spec = spec or LampsSpec()

    def generate(self, size, split, rng):
        spec = self.spec
        free = cells(size)
        picks = rng.permutation(len(free))[: (3 if split == "ood" else 2) + 1]
        player, *lamps = [list(free[i]) for i in picks]
        state = {"domain": spec.name, "size": size, "player": player, "lamps": sorted(lamps), "lit": []}
        problem = spec.problem_from_state(state, f"{spec.name}-{size}-{split}-{'-'.join(map(str, picks))}")
        engine = make_engine("grounded", load_domain(spec.pddl), problem)
        keys = [spec.action_key(a, size) for a in range(4)]
        plan = bfs_plan(engine.initial(), engine.step, keys, engine.is_goal)
        return Generated(spec.name, size, split, state, problem, [keys.index(k) for k in plan], {})


class LampsTypedSpec(LampsSpec):
    """Lamps with cells a subtype of "place" (lamps_typed.pddl): the same dynamics, beyond the compiled engine."""

    name = "lampstyped"
    title = "LampsTyped"
    pddl = str(Path(__file__).with_name("lamps_typed.pddl"))
    sizes = (4,)


class LampsOrSpec(LampsTypedSpec):
    """Lamps written with a disjunction (lamps_or.pddl): PDDLGym runs it through SWI-Prolog."""

    name = "lampsor"
    title = "LampsOr"
    pddl = str(Path(__file__).with_name("lamps_or.pddl"))
