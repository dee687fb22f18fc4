"""What ``step()`` does after an episode has ended: Gymnasium's convention, in one place.

Gymnasium's own environments (``CartPole-v1``'s ``steps_beyond_terminated``)
treat a ``step()`` after ``terminated=True`` as undefined use: they log a
warning the first time and pay reward 0 from then on, leaving ``reset()`` as
the way on. svot's envs do the same: every step after the one that
terminated returns reward ``0.0`` and ``terminated=True`` (the episode stays
over whatever the dynamics do), and the first one warns.
"""

from __future__ import annotations

from gymnasium import logger

AFTER_TERMINATION_WARNING = (
    "You are calling 'step()' even though this environment has already returned terminated = True. "
    "You should always call 'reset()' once you receive 'terminated = True'; further steps pay reward 0."
)


def past_termination(env) -> tuple[float, bool]:
    """``(reward, terminated)`` of a step taken after the episode ended; warns on the first such step.

    ``env._steps_beyond_terminated`` counts those steps (``None`` while the
    episode runs; the env sets it to 0 when a step terminates and back to
    ``None`` on ``reset()``).
    """
    if env._steps_beyond_terminated == 0:
        logger.warn(AFTER_TERMINATION_WARNING)
    env._steps_beyond_terminated += 1
    return 0.0, True
