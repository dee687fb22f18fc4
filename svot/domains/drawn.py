"""A problem drawn as its generator draws it, kept as bits until the Problem is asked for.

The env's reset starts the engine from a layout's bits over the size's shared grounding
(:meth:`svot.engine.grounded.SharedGroundedEngine.from_bits`); building the Problem, its name and
state dict costs several times the draws, so it waits until ``env.problem`` (or the plan) is read.
A generator's ``bit_stream`` returns one of these per reset (FrozenLake has its own, batched).
"""

from __future__ import annotations

from typing import Callable


class DrawnBits:
    """``init``/``goal_pos``/``goal_neg``: the bound problem's bits over ``shared``; :meth:`generated` is
    ``build()`` (what the generator's ``generate(..., plan=False)`` returns for the same draws), built once.

    ``undrawn``: ``undrawn(dtype)`` is the observation grid of the kinds no atom draws (edge walls),
    read off the draws, or None where every kind is drawn by an atom.
    """

    __slots__ = ("init", "goal_pos", "goal_neg", "shared", "_build", "_generated", "_undrawn")

    def __init__(self, init: int, goal_pos: int, goal_neg: int, shared, build: Callable, undrawn: Callable | None = None):
        self.init, self.goal_pos, self.goal_neg, self.shared = init, goal_pos, goal_neg, shared
        self._build, self._generated, self._undrawn = build, None, undrawn

    def generated(self):
        if self._generated is None:
            self._generated = self._build()
        return self._generated

    def problem(self):
        return self.generated().problem

    @property
    def undrawn_grid(self) -> Callable | None:
        return self._undrawn
