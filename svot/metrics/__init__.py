"""Scoring for SVoT: rewards (state r_z, reasoning r_c, visual r_v), image and goal metrics, evaluation.

* :mod:`~svot.metrics.state` — ``state_reward`` (r_z, Eq. 6), ``parse_state``, ``STATE_FIELDS``
* :mod:`~svot.metrics.reasoning` — ``reasoning_reward`` (r_c), ``extract_keywords``,
  ``visual_reasoning_reward`` (c^v)
* :mod:`~svot.metrics.visual` — ``visual_reward`` (r_v, Eq. 7-10, A.3) and its per-patch parts
* :mod:`~svot.metrics.objects` — ``object_metrics``: FGAcc / BkgErr / FullAcc (Table 7)
* :mod:`~svot.metrics.goal` — ``extract_choice``, ``answer_correct`` (Table 1's C and F)
* :mod:`~svot.metrics.grpo` — reward functions for TRL's ``GRPOTrainer``
* :mod:`~svot.metrics.evaluation` — ``evaluate(data_dir, predictions) -> Report`` (``svot evaluate``),
  reading the file with :mod:`~svot.metrics.predictions` and tabulating with :mod:`~svot.metrics.report`

Text is never an error: a prediction that cannot be read scores 0 on what it
lacks. :class:`MetricError` (a ``ValueError``) is raised for invalid
arguments: parameters, images, ground truth.
"""

from svot.metrics.errors import MetricError
from svot.metrics.evaluation import Issue, Report, TruthSet, evaluate, load_truth, read_predictions
from svot.metrics.grpo import (
    choice_reward_fn,
    goal_reward_fn,
    make_reward_funcs,
    reasoning_reward_fn,
    state_reward_fn,
    visual_reward_fn,
)
from svot.metrics.goal import answer_correct, answer_matches, choice_correct, extract_choice, parse_answer
from svot.metrics.objects import ObjectScore, ObjectTotals, object_metrics, read_cells
from svot.metrics.reasoning import (
    ReasoningScore,
    extract_keywords,
    field_group,
    reasoning_reward,
    visual_chain_fields,
    visual_reasoning_reward,
)
from svot.metrics.state import CONSTANT_FIELDS, STATE_FIELDS, StateScore, parse_action, parse_state, state_fields, state_reward
from svot.metrics.visual import (
    VisualScore,
    composite,
    foreground_mask,
    laplacian_variance,
    s_color,
    s_edge,
    s_hash,
    visual_reward,
)


__all__ = [
    "CONSTANT_FIELDS",
    "Issue",
    "MetricError",
    "ObjectScore",
    "ObjectTotals",
    "ReasoningScore",
    "Report",
    "STATE_FIELDS",
    "StateScore",
    "TruthSet",
    "VisualScore",
    "answer_correct",
    "answer_matches",
    "choice_correct",
    "choice_reward_fn",
    "composite",
    "evaluate",
    "extract_choice",
    "extract_keywords",
    "field_group",
    "foreground_mask",
    "goal_reward_fn",
    "laplacian_variance",
    "load_truth",
    "make_reward_funcs",
    "object_metrics",
    "parse_action",
    "parse_answer",
    "parse_state",
    "read_cells",
    "read_predictions",
    "reasoning_reward",
    "reasoning_reward_fn",
    "s_color",
    "s_edge",
    "s_hash",
    "state_fields",
    "state_reward",
    "state_reward_fn",
    "visual_chain_fields",
    "visual_reasoning_reward",
    "visual_reward",
    "visual_reward_fn",
]
