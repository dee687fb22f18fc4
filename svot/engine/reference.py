"""PDDLGym's own successor function behind the engine interface: the reference.

Built through ``pddlgym.core.PDDLEnv`` on the shipped domain file and the
problem written to a temporary folder. Two PDDLGym 0.0.7 traps are avoided:
``PDDLEnv._handle_derived_literals`` (quadratic in the ground atoms, run on
every step although svot's domains derive nothing) is bypassed by stepping with
``pddlgym.core.get_successor_state`` directly, and run only for a domain with
derived predicates; gym's registry (broken under numpy 2) is never used.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from svot.errors import PDDLError
from svot.pddl.domain import Domain
from svot.pddl.pddlgym_compat import import_pddlgym_core
from svot.pddl.problem import Atom, Problem


class PDDLGymEngine:
    def __init__(self, domain: Domain, problem: Problem, internal: tuple[str, ...] = ()):
        if domain.inference == "prolog" and shutil.which("swipl") is None:
            raise PDDLError(
                f"PDDLGym runs {domain.unsupported} only through SWI-Prolog, and 'swipl' is not on PATH "
                "(Debian: apt-get install swi-prolog-nox)",
                source=domain.source,
            )
        core = import_pddlgym_core()
        self.domain = domain
        self.problem = problem
        self.internal = internal
        with tempfile.TemporaryDirectory(prefix="svot-pddl-") as tmp:
            (Path(tmp) / "problem.pddl").write_text(problem.to_pddl(flavour="pddlgym", domain=domain))
            env = NoDerivedPDDLEnv(domain.source, tmp)
            env.fix_problem_index(0)
            self._state, _ = env.reset()
        self.env = env
        self._core = core
        self._preds = env.domain.predicates
        self._objects = {o.name: o for o in self._state.objects}
        self._internal_literals = tuple(self._literal((name,)) for name in internal)
        self._derives = any(p.is_derived for p in self._preds.values())

    def _literal(self, action: tuple):
        pred = self._preds[action[0]]
        return pred(*[self._objects[a] for a in action[1:]])

    def initial(self):
        return self._state

    def _successor(self, state, literal):
        nxt = self._core.get_successor_state(
            state, literal, self.env.domain, inference_mode=self.domain.inference, raise_error_on_invalid_action=False
        )
        # derived atoms are recomputed after every successor, as PDDLEnv.step does
        return self.env._handle_derived_literals(nxt) if self._derives else nxt

    def step(self, state, action: tuple):
        nxt = self._successor(state, self._literal(action))
        applied = nxt.literals != state.literals
        if applied and self._internal_literals:
            for _ in range(10_000):
                for lit in self._internal_literals:
                    after = self._successor(nxt, lit)
                    if after.literals != nxt.literals:
                        nxt = after
                        break
                else:
                    break
        return nxt, applied

    def true_atoms(self, state) -> frozenset[Atom]:
        return frozenset((lit.predicate.name,) + tuple(str(v.name) for v in lit.variables) for lit in state.literals)

    def is_goal(self, state) -> bool:
        from pddlgym.inference import check_goal  # optional: the 'pddlgym' extra (this engine is PDDLGym's)

        return check_goal(state, self.env._goal)


def _make_env_class():
    core = import_pddlgym_core()

    class _NoDerived(core.PDDLEnv):
        """PDDLEnv without the derived-literal pass (svot's domains have no derived predicates)."""

        def _handle_derived_literals(self, state):
            if any(p.is_derived for p in self.domain.predicates.values()):
                return super()._handle_derived_literals(state)
            return state

    return _NoDerived


def NoDerivedPDDLEnv(domain_file: str, problem_dir: str):
    """A ``pddlgym.core.PDDLEnv`` whose reset/step skip the derived-literal pass."""
    return _make_env_class()(domain_file, problem_dir)
