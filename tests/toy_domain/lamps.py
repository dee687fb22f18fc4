"""The toy "lamps" domain: a test-side domain registered from outside svot, with no svot file edited.

Its PDDL file sits beside this module; :class:`LampsSpec` and :class:`LampsGenerator` are the two
pieces ``svot.extend.register_domain`` takes. The typed and disjunctive variants exercise the
reference-engine fallback. Used by ``test_toy_domain.py``, the contract test and the layer tests.
"""

from __future__ import annotations

import functools
from pathlib import Path

from svot.kernel import DomainSpec, Field
from svot.kernel.spec import add_kind, cells_of, player_of
from svot.kernel.grid import cell_name
from svot.pddl import load_domain
from svot.problem_gen import Draw
from svot.problem_gen.common import finish
from svot.problem_gen.grounding import cell_bits, shared_grounding

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
    """Two lamps (three for OOD) on random cells, every layout solvable: ``sample`` returns a
    :class:`~svot.problem_gen.Draw` (bits over the shared grounding where the compiled engine runs the
    PDDL); ``generate`` plans it by breadth-first search (the default solver)."""

    def __init__(self, spec=None):
        self.spec = spec or LampsSpec()

    def sample(self, size, split, rng):
        spec = self.spec
        picks = rng.permutation(size * size)[: (3 if split == "ood" else 2) + 1].tolist()
        player, *lamps = picks
        state = {"domain": spec.name, "size": size, "player": list(divmod(player, size)),
                 "lamps": sorted(list(divmod(c, size)) for c in lamps), "lit": []}
        params = {"lamps": len(lamps), "attempts": 1}
        build = functools.partial(finish, spec, size, split, state, None, params)
        if load_domain(spec.pddl).unsupported is not None:  # beyond the compiled engine: no bits
            return Draw(spec.name, size, split, params, build)
        grounding = shared_grounding(spec, size)
        at, lamp, lit = cell_bits(grounding, size, ("at", "lamp", "lit"))
        init, goal = at[player], 0
        for c in lamps:
            init |= lamp[c]
            goal |= lit[c]
        return Draw(spec.name, size, split, params, build, init, goal, 0, grounding.shared)


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
