"""SVoT datasets: sequences, intermediate states, transition reasoning, images, four-choice answers.

Build one instance, iterate a split lazily, or export splits to disk::

    import numpy as np
    from svot.dataset import iter_split, build_instance, make_config, export
    from svot.domains import DOMAINS, generate

    name = DOMAINS[0]                                           # any registered domain
    for inst in iter_split(name, 5, "test_id", seed=0):         # 120 instances, built map by map
        inst.steps[0].reasoning, inst.answer, inst.choices, inst.image(0)

    g = generate(name, 5, "id", np.random.default_rng(0))
    inst = build_instance(name, g.problem, [1, 1, 3, 0])       # any map, any actions

    result = export(make_config("data/", domains=[name], sizes=[5]), workers=2)
    print(result.summary())

The CLI (``svot export``) is a thin layer over :func:`make_config` and :func:`export`.

What an instance is (decisions, with the module that owns each):

* **Splits** (:mod:`~svot.dataset.spec`): train 100 maps × 5 sequences, val 30 × 2,
  test_id 60 × 2 (ID generator and lengths), test_ood 60 × 2 (OOD generator and
  lengths). Maps are deduplicated by their whole initial state across all four
  splits, drawn in that order, so a split never depends on which others are
  exported. ``maps_per_split`` shrinks a split for quick runs.
* **Sequences** (:mod:`~svot.dataset.instance`): lengths in Table 5's range, from the
  maximum-entropy law with the mean Table 5's counts imply, balanced over each split;
  train maps are drawn so that their goal-reaching plan fits the range, and the plan
  is their first sequence (except where ``DomainSpec.min_plan_length`` exceeds the
  range's maximum, so no plan can fit); others
  random: each step an applicable, non-fatal action with
  probability 0.75, any action otherwise (≈ 5–12 % of steps are inapplicable).
  Sequences stop at the step that enters a terminal state (a failure the spec's
  ``is_failure`` names, or the goal), and are
  redrawn if that leaves fewer actions than the range's minimum.
* **Reasoning chains** (:mod:`~svot.dataset.transitions`): derived from the ground
  actions the engine applied and, for an inapplicable move, from the precondition
  of the best-matching operator that failed; keyword fields ``{"field", "value"}``
  whose values appear verbatim in the chain; c^v lists the cells whose image changes.
* **Goal** (:mod:`~svot.dataset.wording`, :mod:`~svot.dataset.choices`): the final
  state's task fields as free-response text, and four choices per A.7 (Manhattan
  distance ≤ 2, valid values, one partially correct distractor, correct letter
  balanced over the split, each letter ⌊n/4⌋ or ⌈n/4⌉ times).
* **Per domain** (``svot/domains/<name>/``): the words (phrases, conclusions,
  description, question, answer format), the distractor rules, Table 5's counts
  and the early-stop allowance are the domain's, read through the hooks of its
  :class:`~svot.kernel.DomainSpec` (section "the dataset"); this package names no
  domain. A domain registered with :func:`svot.extend.register_domain` gets generic
  ones, derived from its PDDL predicates and operators, kinds and fields.
* **Rows** (:mod:`~svot.dataset.records`): one per instance, or one per prediction
  (state and visualization per step, one goal record carrying both goal forms, so
  records = instances + 2 × steps as Table 5 counts them).
* **Method views** (:mod:`~svot.dataset.methods`, :mod:`~svot.dataset.chat`): the
  samples each compared method trains on (SVoT, w/o-V, w/o-RL-C, MVoT, T-CoT,
  step-wise) as TRL conversational ``prompt`` / ``completion`` records with
  image parts in prompt order and an ``images`` column (:func:`to_messages`
  in memory, ``svot export --view <method>`` on disk; docs/training.md).

Modules: :mod:`~svot.dataset.spec` (Table 5 as data, splits, seeds),
:mod:`~svot.dataset.instance` (maps, sequences, instances),
:mod:`~svot.dataset.transitions` (reasoning chains), :mod:`~svot.dataset.choices`
(A.7 choice sets), :mod:`~svot.dataset.wording` (phrases, answers, domain
descriptions, read from each domain's spec), :mod:`~svot.dataset.prompts`, :mod:`~svot.dataset.records` (row
layout, schema), :mod:`~svot.dataset.writers`, :mod:`~svot.dataset.export`.
"""

from svot.dataset.chat import VIEWS, as_classification, as_messages, to_messages
from svot.dataset.choices import build_choices, check_choices
from svot.dataset.export import ExportConfig, ExportResult, export, format_summary, make_config
from svot.dataset.methods import METHODS, method_samples
from svot.dataset.instance import Instance, MapContext, MapPlan, Step, build_instance, iter_split, map_instances, plan_maps
from svot.dataset.records import INSTANCE_FEATURES, PREDICTION_FEATURES, instance_record, prediction_records
from svot.dataset.spec import LENGTHS, SPLIT_NAMES, SPLITS, TABLE5_PREDICTIONS, TABLE5_SIZES, predictions
from svot.dataset.transitions import build_chain, diagnose

__all__ = [
    "ExportConfig",
    "ExportResult",
    "INSTANCE_FEATURES",
    "Instance",
    "LENGTHS",
    "METHODS",
    "MapContext",
    "MapPlan",
    "PREDICTION_FEATURES",
    "SPLITS",
    "SPLIT_NAMES",
    "Step",
    "TABLE5_PREDICTIONS",
    "TABLE5_SIZES",
    "VIEWS",
    "as_classification",
    "as_messages",
    "build_chain",
    "build_choices",
    "build_instance",
    "check_choices",
    "diagnose",
    "export",
    "format_summary",
    "instance_record",
    "iter_split",
    "make_config",
    "map_instances",
    "method_samples",
    "plan_maps",
    "prediction_records",
    "predictions",
    "to_messages",
]
