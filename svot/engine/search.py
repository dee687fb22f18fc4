"""Breadth-first search over an engine's states."""

from __future__ import annotations

from collections import deque
from typing import Callable, Hashable, Sequence


def bfs_plan(
    initial: Hashable,
    step: Callable[[Hashable, object], tuple[Hashable, bool]],
    actions: Sequence[object],
    is_goal: Callable[[Hashable], bool],
    *,
    max_states: int = 2_000_000,
    is_dead: Callable[[Hashable], bool] | None = None,
) -> list | None:
    """A shortest list of ``actions`` from ``initial`` to a goal state, or None.

    Actions are tried in the given order, so the plan is deterministic. States
    for which ``is_dead`` holds are not expanded. Gives up (None) past
    ``max_states`` visited states.
    """
    if is_goal(initial):
        return []
    parent: dict = {initial: None}
    queue = deque([initial])
    while queue:
        state = queue.popleft()
        if is_dead is not None and is_dead(state):
            continue
        for action in actions:
            nxt, applied = step(state, action)
            if not applied or nxt in parent:
                continue
            parent[nxt] = (state, action)
            if is_goal(nxt):
                plan = []
                while parent[nxt] is not None:
                    nxt, a = parent[nxt]
                    plan.append(a)
                return plan[::-1]
            if len(parent) > max_states:
                return None
            queue.append(nxt)
    return None
