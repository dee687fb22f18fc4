"""The scoring package's error: bad *arguments* to a metric (not bad predictions).

Predictions are never an error: text that cannot be read scores 0 on the fields
it lacks, and a predictions file's broken lines are counted and listed by
:func:`svot.metrics.evaluate`. :class:`MetricError` is raised for what the
caller controls: a parameter out of range, an image of an unsupported type or
shape, an unknown domain, a malformed ground truth.
"""

from __future__ import annotations

from svot.errors import SvotError


class MetricError(SvotError, ValueError):
    """A metric was called with an invalid argument (parameter, image, ground truth)."""


__all__ = ["MetricError"]
