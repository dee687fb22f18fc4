"""After a run of svot tasks, print the paper's table layouts (an Inspect run-end hook).

Registered by the ``inspect_ai`` entry point, so ``inspect eval svot/goal ...``
ends with the Table 1 / Table 2 layouts of that run (and the RuleMaze and
play tables), printed after Inspect's own summary. Runs without svot tasks
print nothing; ``SVOT_INSPECT_TABLES=0`` turns it off.
"""

from __future__ import annotations

import os

from inspect_ai.hooks import Hooks, RunEnd, hooks

from svot.inspect.tables import collect_logs, format_models

ENV_SWITCH = "SVOT_INSPECT_TABLES"


def run_summary(logs) -> str | None:
    """The tables of a run's svot logs, or None when it ran no svot task."""
    ours = [log for log in logs if (log.eval.metadata or {}).get("svot_task")]
    if not ours:
        return None
    return format_models(collect_logs(ours))


@hooks(name="svot_tables", description="Print svot's table layouts after a run of svot tasks")
class SvotTables(Hooks):
    def enabled(self) -> bool:
        return os.environ.get(ENV_SWITCH, "1").strip() not in ("0", "false", "no", "off")

    async def on_run_end(self, data: RunEnd) -> None:
        if data.exception is not None:
            return
        text = run_summary(data.logs)
        if text:
            print(f"\n{text}\n", flush=True)
