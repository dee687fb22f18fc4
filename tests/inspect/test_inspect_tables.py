"""The tables read back from Inspect logs, and the command line: ``inspect eval svot/<task>``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("inspect_ai", reason="the eval extra (inspect-ai) is not installed")

from inspect_ai import eval as inspect_eval  # noqa: E402

from svot.inspect.summary import run_summary  # noqa: E402
from svot.inspect.tables import collect, main, tables_text  # noqa: E402
from svot.inspect.tasks import goal, state  # noqa: E402


def test_tables_from_logs(tmp_path, capsys):
    logs = tmp_path / "logs"
    tasks = [goal(domain="maze", size=5, form="C", maps=1), goal(domain="maze", size=5, form="F", maps=1),
             state(domain="maze", size=5, maps=1, limit=1)]
    for model in ("svot/oracle", "svot/random"):
        inspect_eval(tasks, model=model, log_dir=str(logs), display="none")
    models = collect([logs])
    assert set(models) == {"svot/oracle", "svot/random"}
    oracle = models["svot/oracle"].groups[("maze", 5, "test_id")]
    assert (oracle.choice_n, oracle.choice_correct, oracle.answer_n, oracle.answer_correct) == (2, 2, 2, 2)
    assert oracle.state_n == oracle.reasoning_n > 0 and oracle.r_z == oracle.r_c == 1.0
    random = models["svot/random"].groups[("maze", 5, "test_id")]
    assert random.choice_n == 2 and random.state_n == oracle.state_n
    text = tables_text([logs])
    assert "Model: svot/oracle" in text and "Model: svot/random" in text
    assert "Table 1 layout" in text and "Table 2 layout: single-step accuracy (%) - Maze" in text
    capsys.readouterr()  # drop what the runs printed (their run-end tables among it)
    assert main([str(logs)]) == 0
    assert capsys.readouterr().out.strip() == text
    # the run-end summary: the same tables for a run's svot logs, nothing for a run without svot tasks
    run_logs = inspect_eval(tasks[0], model="svot/oracle", log_dir=str(tmp_path / "run"), display="none")
    assert "Table 1 layout" in run_summary(run_logs)
    assert run_summary([log.model_copy(update={"eval": log.eval.model_copy(update={"metadata": {}})})
                        for log in run_logs]) is None


@pytest.mark.slow
def test_inspect_cli_finds_svot_tasks_and_models(tmp_path):
    """The ``inspect_ai`` entry point: ``inspect eval svot/goal --model svot/oracle`` with task arguments."""
    exe = shutil.which("inspect", path=os.path.dirname(sys.executable))
    if exe is None:
        pytest.skip("the inspect command is not installed next to this Python")
    logs = tmp_path / "logs"
    out = subprocess.run([exe, "eval", "svot/goal", "--model", "svot/oracle", "-T", "domain=gather", "-T", "size=5",
                          "-T", "form=F", "-T", "maps=1", "--log-dir", str(logs), "--display", "plain"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-2000:]
    # the run ends with svot's tables (the run-end hook the entry point registers)
    assert "Table 1 layout" in out.stdout and "Model: svot/oracle" in out.stdout
    [model] = collect([logs]).values()
    g = model.groups[("gather", 5, "test_id")]
    assert g.answer_n == 2 and g.answer_correct == 2
