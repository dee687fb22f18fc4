"""Evaluate any model on svot with Inspect (``pip install svot[eval]``).

Tasks (``inspect eval svot/<task> --model <provider>/<model> -T key=value``):

* :func:`~svot.inspect.tasks.goal` -- Table 1: goal prediction, four-choice (``form=C``)
  or free response (``form=F``), one domain x size x split, from an export or a seed.
* :func:`~svot.inspect.tasks.state` -- Table 2: single-step state prediction
  (c_i^z then z_i, scored per field by r_z and r_c).
* :func:`~svot.inspect.tasks.play` -- the model plays an env episode through a ``move`` tool.
* :func:`~svot.inspect.tasks.rulemaze_dmp` -- RuleMaze with the five DMP tools, EM / PR.
* :func:`~svot.inspect.tasks.rulemaze_direct` -- RuleMaze without tools (direct or CoT), EM / PR.

Reference models (registered with Inspect by the ``inspect_ai`` entry point):
``svot/oracle`` answers from the planner and the ground truth (100% on every task),
``svot/random`` answers at random from the task's answer space (the floor).

A run of svot tasks ends with the paper's table layouts (:mod:`svot.inspect.summary`);
``python -m svot.inspect.tables LOG_DIR`` prints them for every log under a
directory (:mod:`svot.inspect.tables`).
"""

try:
    import inspect_ai  # noqa: F401  (the eval extra)
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("svot.inspect needs Inspect: pip install 'svot[eval]' (inspect-ai)") from exc
