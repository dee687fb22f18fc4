"""What the reference models may read: the sample's ground truth, put in the sample's store.

A solver step copies ``metadata["truth"]`` into the Inspect store under
:data:`KEY`; :mod:`svot.inspect.providers` reads it from inside ``generate``
(the store is per sample). Nothing of it reaches a real model's prompt.
"""

from __future__ import annotations

from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import store

KEY = "svot_truth"


@solver
def expose_truth() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.store.set(KEY, (state.metadata or {}).get("truth", {}))
        return state

    return solve


def current_truth() -> dict:
    """The running sample's truth (empty outside an svot task)."""
    try:
        return dict(store().get(KEY, {}) or {})
    except LookupError:  # no active sample
        return {}
