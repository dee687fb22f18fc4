"""The gallery's view of an export: which splits it holds, and the instances of each as cards.

The reading is :mod:`svot.dataset.reader`'s (:func:`find_splits`,
:func:`read_export_info`, :class:`SplitSource` are re-exported from it): an
export's ``<domain>-<N>x<N>/<split>.parquet`` or ``<split>/metadata.jsonl``
plus ``images/``, both read into the same rows. Here each row becomes a plain
card dict: the fields a gallery page shows (:data:`CARD_FIELDS`,
:data:`STEP_FIELDS`) with ``image`` and each step's ``image`` as PNG bytes (or
``None``). :func:`read_cards` reads every instance of a split, one row group at
a time; :func:`read_samples` only the sampled rows (Parquet: only the row
groups that hold them).
"""

from __future__ import annotations

from svot.dataset.reader import InstanceRow, SplitSource, find_splits, read_export_info, read_instance_rows

__all__ = ["CARD_FIELDS", "STEP_FIELDS", "SplitSource", "find_splits", "read_cards", "read_export_info",
           "read_samples", "sample_indices"]

# The fields a gallery card shows (everything else in a record is left out of the pages).
CARD_FIELDS = (
    "id", "domain", "size", "split", "distribution", "map_index", "seq_index", "sequence_kind",
    "initial_state_text", "actions", "action_texts", "n_steps", "ended_early", "answer", "choices",
    "correct_choice", "goal", "task", "prompt",
)
STEP_FIELDS = ("step", "action", "action_text", "applicable", "state", "state_text", "reasoning", "reasoning_visual",
               "keywords")

# Ends the reader's message for a predictions-view export: why the gallery needs instances.
_PURPOSE = "the gallery shows instances"


def sample_indices(n: int, k: int) -> list[int]:
    """``k`` row indices spread evenly over ``n`` rows (all rows when ``n <= k``)."""
    if n <= k:
        return list(range(n))
    return [i * n // k for i in range(k)]


def _card(r: InstanceRow) -> dict:
    card = {k: r.row.get(k) for k in CARD_FIELDS}
    card["image"] = r.image
    card["steps"] = []
    for s, img in zip(r.row.get("steps") or [], r.step_images):
        step = {k: s.get(k) for k in STEP_FIELDS}
        step["image"] = img
        card["steps"].append(step)
    return card


def read_samples(src: SplitSource, per_page: int) -> tuple[int, list[dict]]:
    """(number of instances in the split, up to ``per_page`` sample cards spread over it)."""
    n, rows = read_instance_rows(src, lambda n: sample_indices(n, per_page), purpose=_PURPOSE)
    return n, [_card(r) for r in rows]


def read_cards(src: SplitSource) -> list[dict]:
    """Every instance of the split as a card, in the export's order."""
    return [_card(r) for r in read_instance_rows(src, purpose=_PURPOSE)[1]]
