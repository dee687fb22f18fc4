"""Conventions Gymnasium tools expect of an env: keyboard keys, a plan for a given problem.

* :meth:`ConventionsMixin.get_keys_to_action` is what ``gymnasium.utils.play.play``
  looks up (``env.get_wrapper_attr("get_keys_to_action")``): arrow keys and
  WASD for the four directions; ``k``-cell moves (actions with a distance) are a direction key
  held together with the digit ``k`` (a direction key alone is ``k = 1``).
  The mapping is read off the env's own action texts (``"move left 3"``), so
  it follows whatever actions a domain declares.
* Action 0 is "move up", a real move: ``play``'s default ``noop=0`` would drift
  the player up. :mod:`svot.play` plays with a true no-op instead.
* :func:`solve_given` plans for a problem handed to ``reset(options=...)``.
"""

from __future__ import annotations

from svot.errors import ConfigError
from svot.kernel import GridDomain
from svot.numbers import small_int
from svot.problem_gen import solve

# SDL2's key codes (what pygame 2 reports for the arrow keys); pygame's own constants win when present
_SDL2_ARROWS = {"up": 1073741906, "down": 1073741905, "left": 1073741904, "right": 1073741903}
WASD = {"up": "w", "down": "s", "left": "a", "right": "d"}


def arrow_keys() -> dict[str, int]:
    """Key codes of the arrow keys, as ``pygame.event`` reports them."""
    try:
        import pygame  # the "rl" extra brings pygame; play() cannot run without it anyway
    except ImportError:
        return dict(_SDL2_ARROWS)
    return {"up": pygame.K_UP, "down": pygame.K_DOWN, "left": pygame.K_LEFT, "right": pygame.K_RIGHT}


def keys_for_action_texts(texts: list[str]) -> dict[tuple, int]:
    """``{key combination: action}`` for action texts ``"move <direction>[ <k>]"`` (index = action).

    Each direction gets its arrow key and its WASD letter; a ``k`` other than 1
    adds the digit key ``k`` (k up to 9) to the combination.
    """
    arrows = arrow_keys()
    mapping: dict[tuple, int] = {}
    for action, text in enumerate(texts):
        words = text.split()
        direction = words[1] if len(words) > 1 and words[0] == "move" else None
        if direction not in WASD:
            continue
        k = (small_int(words[2]) if len(words) > 2 else None) or 1
        if k > 9:
            continue
        extra = () if k == 1 else (str(k),)
        for key in (arrows[direction], WASD[direction]):
            mapping[(key, *extra)] = action
    return mapping


class ConventionsMixin:
    """``get_keys_to_action`` for envs with an ``action_space`` and ``action_text(a)``."""

    def get_keys_to_action(self) -> dict[tuple, int]:
        """Keys for ``gymnasium.utils.play.play``: arrows and WASD; distance moves: hold digit ``k`` for k cells."""
        return keys_for_action_texts([self.action_text(a) for a in range(int(self.action_space.n))])


def solve_given(domain: GridDomain, problem) -> list[int] | None:
    """A goal-reaching plan for ``problem`` (as the env's sampled problems have), or None.

    None when it has no plan within the search bound, or when the domain has
    no solver (a domain registered without a generator).
    """
    try:
        return solve(domain, problem)
    except ConfigError:
        return None
