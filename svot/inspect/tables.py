"""The paper's table layouts from Inspect logs: ``python -m svot.inspect.tables LOG [LOG ...]``.

Each argument is a log file or a log directory (every ``.eval`` / ``.json``
log under it). Samples are pooled per model; every score's metadata (written
by :mod:`svot.inspect.scorers`) says which cell it belongs to:

* goal scores -> Table 1 (C and F accuracy per domain x size x split) and
  Table 2 scores -> per-field single-step accuracy, r_c and r_z: both printed
  by :class:`svot.metrics.report.Report`, the layout ``svot evaluate`` prints;
* RuleMaze scores -> EM / PR per seen / unseen group and the unseen average (the
  RuleMaze paper's Tables 2-3), one row per scenario and mode;
* episode scores -> success, steps over the plan, inapplicable moves.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from svot.metrics.report import GroupStats, Report, text_table
from svot.rulemaze.dataset import TEST_GROUPS
from svot.rulemaze.metrics import Scores


def log_paths(sources) -> list[str]:
    out: list[str] = []
    for src in sources:
        p = Path(src)
        if p.is_dir():
            out += [info.name for info in list_eval_logs(str(p))]
        else:
            out.append(str(p))
    return out


def _add(pair: dict, key: str, ok: bool) -> None:
    c = pair.setdefault(key, [0, 0])
    c[0] += bool(ok)
    c[1] += 1


class ModelTables:
    """Everything scored for one model."""

    def __init__(self, model: str):
        self.model = model
        self.groups: dict[tuple, GroupStats] = {}
        self.rulemaze: dict[str, dict[str, list]] = {}  # row label -> group -> [(em, pr, malformed)]
        self.episodes: dict[tuple, list[dict]] = {}

    def _g(self, md: dict) -> GroupStats:
        return self.groups.setdefault((md["domain"], int(md["size"]), md["split"]), GroupStats())

    def add(self, task_meta: dict, score) -> None:
        md = score.metadata or {}
        kind = md.get("kind")
        if kind == "goal":
            g = self._g(md)
            ok = score.value == "C"
            if md["form"] == "C":
                g.choice_n += 1
                g.choice_correct += ok
                g.choice_unreadable += bool(md.get("unreadable"))
            else:
                g.answer_n += 1
                g.answer_correct += ok
        elif kind == "state":
            g = self._g(md)
            g.state_n += 1
            g.state_reward += float(score.value)
            for f, ok in md["matches"].items():
                _add(g.state_fields, f, ok)
        elif kind == "reasoning" and md.get("scored"):
            g = self._g(md)
            g.reasoning_n += 1
            g.reasoning_reward += float(score.value)
            for col, ok in md["columns"].items():
                _add(g.reasoning_fields, col, ok)
        elif kind == "rulemaze":
            row = f"{md['scenario']} {task_meta.get('mode', '')}".strip()
            v = score.value
            self.rulemaze.setdefault(row, {}).setdefault(md["group"], []).append(
                (float(v["em"]), float(v["pr"]), bool(md.get("malformed"))))
        elif kind == "episode":
            key = (md["domain"], int(md["size"]), md["split"])
            self.episodes.setdefault(key, []).append({**md, **score.value})

    def text(self) -> str:
        parts = [f"Model: {self.model}"]
        rep = Report(groups=self.groups, issues=[], lines=0, scored=0)
        for t in (rep.table_goal(), rep.table_steps()):
            if t:
                parts.append(t)
        if self.groups:
            parts.append(rep.table_coverage())
        if self.rulemaze:
            parts.append(self.rulemaze_table())
        if self.episodes:
            parts.append(self.episode_table())
        return "\n\n".join(parts)

    def rulemaze_table(self) -> str:
        """RuleMaze Tables 2-3 layout: EM / PR (%) per seen / unseen group and the unseen average."""
        head = [["", "", "Seen", "", "Unseen easy", "", "Unseen medium", "", "Unseen hard", "", "Unseen avg", "", ""],
                ["Scenario", "Mode"] + ["EM", "PR"] * 5 + ["items"]]
        rows = []
        for label in sorted(self.rulemaze):
            groups = self.rulemaze[label]
            scenario, _, mode = label.partition(" ")
            row, unseen, counts = [scenario, mode], [], []
            for g in TEST_GROUPS:
                vals = groups.get(g)
                if not vals:
                    row += ["-", "-"]
                    continue
                n = len(vals)
                s = Scores(sum(v[0] for v in vals) / n, sum(v[1] for v in vals) / n, n, sum(v[2] for v in vals))
                row += [f"{100 * s.em:.1f}", f"{100 * s.pr:.1f}"]
                counts.append(f"{g}={n}" + (f" ({s.malformed} unreadable)" if s.malformed else ""))
                if g != "seen":
                    unseen.append(s)
            if unseen:
                row += [f"{100 * sum(s.em for s in unseen) / len(unseen):.1f}",
                        f"{100 * sum(s.pr for s in unseen) / len(unseen):.1f}"]
            else:
                row += ["-", "-"]
            rows.append(row + [", ".join(counts)])
        return "RuleMaze Table 2/3 layout: EM / PR (%)\n" + text_table(head, rows, left=2, span=1)

    def episode_table(self) -> str:
        rows = []
        for (d, n, s), eps in sorted(self.episodes.items()):
            wins = [e for e in eps if e["success"]]
            over = [e["steps_over_plan"] for e in wins if not math.isnan(e["steps_over_plan"])]
            optimal = {e.get("plan_optimal") for e in eps}
            plan = "optimal" if optimal == {True} else "not optimal" if optimal == {False} else "env.plan"
            rows.append([f"{d}-{n}x{n}", s, str(len(eps)), f"{100 * len(wins) / len(eps):.1f}",
                         f"{sum(over) / len(over):.2f}" if over else "-",
                         f"{sum(e['inapplicable'] for e in eps) / len(eps):.2f}", plan])
        head = [["env", "split", "episodes", "success %", "steps over plan", "inapplicable/ep", "plan"]]
        return "Interactive play\n" + text_table(head, rows, left=2)


def collect(sources) -> dict[str, ModelTables]:
    """Tables per model from log files / directories."""
    return collect_logs(read_eval_log(path) for path in log_paths(sources))


def collect_logs(logs) -> dict[str, ModelTables]:
    """Tables per model from :class:`inspect_ai.log.EvalLog` objects (read from disk when headers only)."""
    models: dict[str, ModelTables] = {}
    for log in logs:
        if log.status == "success" and not log.samples and log.location:
            log = read_eval_log(log.location)
        if log.status != "success" or not log.samples:
            continue
        mt = models.setdefault(log.eval.model, ModelTables(log.eval.model))
        task_meta = dict(log.eval.metadata or {})
        for sample in log.samples:
            for score in (sample.scores or {}).values():
                mt.add(task_meta, score)
    return models


def tables_text(sources) -> str:
    return format_models(collect(sources))


def format_models(models: dict[str, ModelTables]) -> str:
    if not models:
        return "no successful svot evaluation logs found"
    return "\n\n\n".join(models[m].text() for m in sorted(models))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m svot.inspect.tables", description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+", help="Inspect log files or directories")
    args = ap.parse_args(argv)
    print(tables_text(args.logs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
