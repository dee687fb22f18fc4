"""What the single env keeps per engine state, so that a state seen before costs lookups, not work.

An RL loop over a problem pool revisits states all the time. For each state
it has stepped into, :class:`~svot.envs.base.SVoTEnv` caches (per engine) a
*view*, a plain dict:

* ``"engine_state"``: the state itself; ``"obs"``: its observation grid (the
  env hands out copies); ``"goal"``, ``"reward"``, ``"terminated"``: what a
  step into it returns;
* an int key ``a``, once action ``a`` was taken from the state: the state it
  led to, or :data:`NOT_APPLIED`. The compiled engine is deterministic, so a
  state and an action always lead to the same state, and a step seen before
  needs no engine call (domains with few actions only: see
  ``svot.envs.base._MEMO_MAX_ACTIONS``);
* ``"state"``, ``"state_blob"``, ``"state_text"``, ``"atoms"``: the info
  fields, filled in when an info first reads them (:mod:`svot.envs.info`).

Why one flat dict of atomic values (ints, strings, bools, an ndarray): CPython's
cycle collector stops tracking such a dict, whereas a slotted object, a list or
a nested dict is tracked for ever, and hundreds of thousands of cached views
then make every full collection slow. For the same reason a successor is
stored as a state, not as its view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

NOT_APPLIED = "not applied"  # the successor of an action that changed nothing (never a state: states are ints)


def new_view(state: Any, obs: np.ndarray, goal: bool, failed: bool, state_dict: dict | None = None) -> dict:
    """The view of ``state`` (see the module docstring); ``state_dict`` if it was built already."""
    view = {"engine_state": state, "obs": obs, "goal": goal, "reward": 1.0 if goal else 0.0, "terminated": goal or failed}
    if state_dict is not None:
        view["state"] = state_dict
    return view
