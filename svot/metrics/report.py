"""What :func:`svot.metrics.evaluate` returns: statistics per (domain, size, split), and the
paper's tables printed from them (Tables 1, 2, 3 and 7)."""

from __future__ import annotations

from dataclasses import dataclass, field

from svot.domains import SPECS
from svot.metrics.objects import ObjectTotals

SPLIT_ORDER = ("test_id", "test_ood", "val", "train")
SPLIT_LABELS = {"test_id": "ID", "test_ood": "OOD", "val": "val", "train": "train"}


@dataclass
class GroupStats:
    """Counts for one (domain, size, split)."""

    choice_n: int = 0
    choice_correct: int = 0
    choice_unreadable: int = 0
    answer_n: int = 0
    answer_correct: int = 0
    state_n: int = 0
    state_reward: float = 0.0
    state_fields: dict = field(default_factory=dict)  # field -> [correct, n]
    reasoning_n: int = 0
    reasoning_reward: float = 0.0
    reasoning_fields: dict = field(default_factory=dict)  # column -> [correct, n]
    visual_chain_n: int = 0
    visual_chain_reward: float = 0.0
    image_n: int = 0
    rv_sum: float = 0.0
    objects: ObjectTotals = field(default_factory=ObjectTotals)

    @property
    def c(self) -> float | None:
        return self.choice_correct / self.choice_n if self.choice_n else None

    @property
    def f(self) -> float | None:
        return self.answer_correct / self.answer_n if self.answer_n else None

    @property
    def r_z(self) -> float | None:
        return self.state_reward / self.state_n if self.state_n else None

    @property
    def r_c(self) -> float | None:
        return self.reasoning_reward / self.reasoning_n if self.reasoning_n else None

    @property
    def r_cv(self) -> float | None:
        """Mean r_c of the visualization chains c^v."""
        return self.visual_chain_reward / self.visual_chain_n if self.visual_chain_n else None

    @property
    def r_v(self) -> float | None:
        return self.rv_sum / self.image_n if self.image_n else None

    def to_dict(self) -> dict:
        o = self.objects
        return {
            "classification": {"n": self.choice_n, "correct": self.choice_correct, "accuracy": self.c, "no_letter": self.choice_unreadable},
            "free_response": {"n": self.answer_n, "correct": self.answer_correct, "accuracy": self.f},
            "state": {
                "n": self.state_n,
                "r_z": self.r_z,
                "fields": {k: {"correct": c, "n": n, "accuracy": c / n if n else None} for k, (c, n) in self.state_fields.items()},
            },
            "reasoning": {
                "n": self.reasoning_n,
                "r_c": self.r_c,
                "fields": {k: {"correct": c, "n": n, "accuracy": c / n if n else None} for k, (c, n) in self.reasoning_fields.items()},
            },
            "visual_reasoning": {"n": self.visual_chain_n, "r_c": self.r_cv},
            "images": {
                "n": self.image_n,
                "r_v": self.r_v,
                "fg_acc": o.fg_accuracy,
                "bkg_err": o.bg_error_rate,
                "full_acc": o.full_accuracy,
                "fg_cells": o.fg_cells,
                "fg_correct": o.fg_correct,
                "bg_cells": o.bg_cells,
                "bg_errors": o.bg_errors,
                "full": o.full,
            },
        }


def _domain_rank(d: str) -> tuple:
    """Tables list the domains in the registry's order (the paper's for the built-in ones, then domains
    registered later); domains not registered come last, by name."""
    order = list(SPECS)
    return (order.index(d) if d in order else len(order), d)


def _title(d: str) -> str:
    """A table heading: the domain's title (its name when it is not registered)."""
    return SPECS[d].title if d in SPECS else d


def _split_rank(s: str) -> tuple:
    return (SPLIT_ORDER.index(s) if s in SPLIT_ORDER else len(SPLIT_ORDER), s)


def _pct(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{100 * x:.{digits}f}"


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.4f}"


def text_table(header: list[list[str]], rows: list[list[str]], left: int = 1, span: int = 0) -> str:
    """Plain-text table: ``left`` leading columns left-aligned, the rest right-aligned.

    The first ``span`` header rows are section titles: each starts at its
    column and may run over the following (empty) columns without widening them.
    """
    allrows = header + rows
    ncol = max(len(r) for r in allrows)
    allrows = [r + [""] * (ncol - len(r)) for r in allrows]
    widths = [max(len(r[i]) for r in allrows[span:]) for i in range(ncol)]
    starts = [sum(widths[:i]) + 2 * i for i in range(ncol)]

    def fmt(r):
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()

    def fmt_span(r):
        out = ""
        for i, c in enumerate(r):
            if c:
                out = out + " " * (max(starts[i], len(out) + 2 if out else 0) - len(out)) + c
        return out

    lines = [fmt_span(r) for r in allrows[:span]] + [fmt(r) for r in allrows[span : len(header)]]
    lines.append("  ".join("-" * w for w in widths))
    lines += [fmt(r) for r in allrows[len(header) :]]
    return "\n".join(lines)


@dataclass
class Report:
    """The result of :func:`evaluate`: statistics per (domain, size, split), the issues, the tables."""

    groups: dict  # (domain, size, split) -> GroupStats
    issues: list
    lines: int  # records read (non-blank lines)
    scored: int  # records matched to an instance
    data: str = ""
    predictions: str | None = None
    notes: list = field(default_factory=list)  # e.g. deprecated keys read under their new name

    # ------------------------------------------------------------------ views
    def issue_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for i in self.issues:
            out[i.kind] = out.get(i.kind, 0) + 1
        return dict(sorted(out.items()))

    def _keys(self) -> list[tuple]:
        return sorted(self.groups, key=lambda k: (_domain_rank(k[0]), k[1], _split_rank(k[2])))

    def _domains(self, pred) -> list[str]:
        return sorted({k[0] for k, g in self.groups.items() if pred(g)}, key=_domain_rank)

    def _splits(self, pred) -> list[str]:
        return sorted({k[2] for k, g in self.groups.items() if pred(g)}, key=_split_rank)

    def _pooled(self, domain: str, split: str, size: int | None = None) -> GroupStats | None:
        gs = [g for (d, n, s), g in self.groups.items() if d == domain and s == split and (size is None or n == size)]
        if not gs:
            return None
        out = GroupStats()
        for g in gs:
            out.image_n += g.image_n
            out.rv_sum += g.rv_sum
            out.objects.merge(g.objects)
        return out

    # ------------------------------------------------------------------ tables
    def table_goal(self) -> str | None:
        """Table 1 layout: rows = size; columns = domain x split x {C, F}; accuracy in %."""
        has = lambda g: g.choice_n or g.answer_n  # noqa: E731
        domains, splits = self._domains(has), self._splits(has)
        if not domains:
            return None
        sizes = sorted({k[1] for k, g in self.groups.items() if has(g)})
        h1, h2, h3 = [""], [""], ["Size"]
        for d in domains:
            for s in splits:
                h1 += [_title(d) if s == splits[0] else "", ""]
                h2 += [SPLIT_LABELS.get(s, s), ""]
                h3 += ["C", "F"]
        rows = []
        for n in sizes:
            r = [str(n)]
            for d in domains:
                for s in splits:
                    g = self.groups.get((d, n, s))
                    r += [_pct(g.c) if g else "-", _pct(g.f) if g else "-"]
            rows.append(r)
        title = "Table 1 layout: goal accuracy (%), classification (C) and free response (F)"
        return title + "\n" + text_table([h1, h2, h3], rows, span=2)

    def table_steps(self) -> str | None:
        """Table 2 layout, one block per domain: per-field single-step accuracy (%) of c_i and z_i."""
        has = lambda g: g.state_n or g.reasoning_n or g.visual_chain_n  # noqa: E731
        blocks = []
        for d in self._domains(has):
            keys = [k for k in self._keys() if k[0] == d and has(self.groups[k])]
            cfields: list[str] = []
            zfields: list[str] = []
            for k in keys:
                for f in self.groups[k].reasoning_fields:
                    if f not in cfields:
                        cfields.append(f)
                for f in self.groups[k].state_fields:
                    if f not in zfields:
                        zfields.append(f)
            h1 = ["", ""] + (["Transition reasoning chain"] + [""] * (len(cfields) + 1) if cfields else [])
            h1 += ["Intermediate state"] + [""] * (len(zfields) + 1) if zfields else []
            vis = any(self.groups[k].visual_chain_n for k in keys)
            h1 += ["Visualization chain", ""] if vis else []
            h2 = ["Size", "Split"] + (["N"] + cfields + ["r_c"] if cfields else []) + (["N"] + zfields + ["r_z"] if zfields else [])
            h2 += ["N", "r_c(c^v)"] if vis else []
            rows = []
            for k in keys:
                g = self.groups[k]
                r = [str(k[1]), SPLIT_LABELS.get(k[2], k[2])]
                if cfields:
                    r += [str(g.reasoning_n)] + [_pct(acc(g.reasoning_fields.get(f)), 2) for f in cfields] + [_num(g.r_c)]
                if zfields:
                    r += [str(g.state_n)] + [_pct(acc(g.state_fields.get(f)), 2) for f in zfields] + [_num(g.r_z)]
                if vis:
                    r += [str(g.visual_chain_n), _num(g.r_cv)]
                rows.append(r)
            blocks.append(f"Table 2 layout: single-step accuracy (%) - {_title(d)}\n" + text_table([h1, h2], rows, left=2, span=1))
        if not blocks:
            return None
        note = (
            "(N: steps scored; a field column counts the steps whose ground truth has that field, e.g. blocked_by "
            "only blocked moves; r_c, r_z: mean rewards, Eq. 6)"
        )
        return "\n\n".join(blocks) + "\n" + note

    def table_visual(self) -> str | None:
        """Table 3 layout (Table 6 per size): mean r_v; rows = split, columns = domain sizes and all sizes."""
        has = lambda g: g.image_n  # noqa: E731
        domains, splits = self._domains(has), self._splits(has)
        if not domains:
            return None
        cols = []
        for d in domains:
            sizes = sorted({k[1] for k, g in self.groups.items() if k[0] == d and has(g)})
            cols += [(d, n) for n in sizes] + ([(d, None)] if len(sizes) > 1 else [])
        h1 = ["Split"] + [_title(d) if i == 0 or cols[i - 1][0] != d else "" for i, (d, _n) in enumerate(cols)]
        h2 = [""] + [str(n) if n is not None else "all" for _d, n in cols]
        rows = []
        for s in splits:
            r = [SPLIT_LABELS.get(s, s)]
            for d, n in cols:
                g = self._pooled(d, s, n)
                r.append(_num(g.r_v) if g else "-")
            rows.append(r)
        return "Table 3 layout: mean visual reward r_v\n" + text_table([h1, h2], rows)

    def table_objects(self) -> str | None:
        """Table 7 layout: FGAcc / BkgErr / FullAcc (%); rows = split x metric, columns = domain x size."""
        has = lambda g: g.objects.images  # noqa: E731
        domains, splits = self._domains(has), self._splits(has)
        if not domains:
            return None
        cols = [(d, n) for d in domains for n in sorted({k[1] for k, g in self.groups.items() if k[0] == d and has(g)})]
        h1 = ["Split", "Metric"] + [_title(d) if i == 0 or cols[i - 1][0] != d else "" for i, (d, _n) in enumerate(cols)]
        h2 = ["", ""] + [str(n) for _d, n in cols]
        rows = []
        for s in splits:
            for name, get in (
                ("FGAcc", lambda o: o.fg_accuracy),
                ("BkgErr", lambda o: o.bg_error_rate),
                ("FullAcc", lambda o: o.full_accuracy),
            ):
                r = [SPLIT_LABELS.get(s, s) if name == "FGAcc" else "", name]
                for d, n in cols:
                    g = self.groups.get((d, n, s))
                    r.append(_pct(get(g.objects), 2) if g and g.objects.images else "-")
                rows.append(r)
        return "Table 7 layout: object-level image correctness (%)\n" + text_table([h1, h2], rows, left=2)

    def table_coverage(self) -> str:
        """How many predictions each table scored, per dataset and split."""
        rows = []
        for k in self._keys():
            g = self.groups[k]
            rows.append(
                [f"{k[0]}-{k[1]}x{k[1]}", k[2], str(g.choice_n), str(g.choice_unreadable), str(g.answer_n), str(g.reasoning_n), str(g.state_n), str(g.image_n)]
            )
        head = [["dataset", "split", "C", "no letter", "F", "c_i steps", "z_i steps", "images"]]
        return "Scored predictions\n" + text_table(head, rows, left=2)

    def tables(self, max_issues: int = 20) -> str:
        parts = [
            f"svot evaluate: {self.scored} of {self.lines} prediction records matched an instance"
            + (f" ({self.predictions})" if self.predictions else "")
        ]
        for t in (self.table_goal(), self.table_steps(), self.table_visual(), self.table_objects()):
            if t:
                parts.append(t)
        if self.groups:
            parts.append(self.table_coverage())
        if self.issues:
            counts = ", ".join(f"{k} {v}" for k, v in self.issue_counts().items())
            lines = [f"Issues: {len(self.issues)} ({counts})"]
            lines += [f"  {i}" for i in self.issues[: max(0, max_issues)]]
            if len(self.issues) > max_issues:
                lines.append(f"  ... {len(self.issues) - max_issues} more (see --json)")
            parts.append("\n".join(lines))
        else:
            parts.append("Issues: none")
        if self.notes:
            parts.append("Notes:\n" + "\n".join(f"  {n}" for n in self.notes))
        return "\n\n".join(parts)

    def to_dict(self) -> dict:
        return {
            "data": self.data,
            "predictions": self.predictions,
            "records": self.lines,
            "scored": self.scored,
            "groups": [
                {"domain": d, "size": n, "split": s, **self.groups[(d, n, s)].to_dict()} for d, n, s in self._keys()
            ],
            "issue_counts": self.issue_counts(),
            "notes": list(self.notes),
            "issues": [
                {"line": i.line, "kind": i.kind, "message": i.message, "id": i.id, "step": i.step} for i in self.issues
            ],
        }


def acc(pair) -> float | None:
    if not pair or not pair[1]:
        return None
    return pair[0] / pair[1]
