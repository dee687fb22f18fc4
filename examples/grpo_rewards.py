"""SVoT's GRPO rewards, built from an exported split and called the way TRL's GRPOTrainer calls them.

No training and no TRL import: the script loads a split exported in the
training view (one row per prediction), builds the reward functions and their
weights with :func:`svot.metrics.grpo.make_reward_funcs`, and calls every
function as ``GRPOTrainer`` does, ``fn(prompts=..., completions=...,
completion_ids=..., **columns)`` with each dataset column as a list, then
combines them as TRL does (weighted ``nansum``, ``None`` = not applicable).

Two sets of completions are scored:

* the ground truth itself (state rows: the ``target`` text as a chat
  message; visualization rows: a chat message with the ``c^v`` text and the
  true image; goal rows: the ``answer`` text) — every reward is 1.0 (``r_v``
  up to the ``eps`` of its sharpness ratio);
* a corrupted copy (the player one cell off in the text, a blurred image, a
  wrong answer) — the rewards drop.

With TRL installed the same objects plug in directly::

    funcs, weights = make_reward_funcs("prm")
    GRPOTrainer(model=..., reward_funcs=funcs, args=GRPOConfig(reward_weights=weights, ...), train_dataset=ds)

Usage::

    svot export --domains sokoban --sizes 5 --splits train --view predictions --out data/
    python examples/grpo_rewards.py --data data/sokoban-5x5/train.parquet [--mode prm] [--limit 400]
    python examples/grpo_rewards.py            # exports a small split to a temporary directory first
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter

from svot.metrics.grpo import make_reward_funcs

BATCH = 8


def export_small(out: Path) -> Path:
    """A small training-view split (Sokoban 4x4, validation, 3 maps) through the dataset API."""
    from svot.dataset import export, make_config

    cfg = make_config(out, domains=["sokoban"], sizes=[4], splits=["val"], view="predictions", maps_per_split={"val": 3})
    export(cfg, quiet=True)
    return out / "sokoban-4x4" / "val.parquet"


def load_rows(path: Path, limit: int | None) -> list[dict]:
    """Rows as ``datasets`` yields them (images decoded to PIL); plain pyarrow if ``datasets`` is missing."""
    try:
        import datasets

        ds = datasets.load_dataset("parquet", data_files=str(path), split="train")
        if limit:
            ds = ds.select(range(min(limit, len(ds))))
        return [dict(r) for r in ds]
    except ImportError:
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
        return rows[:limit] if limit else rows


def _pil(value):
    if isinstance(value, Image.Image):
        return value
    import io

    return Image.open(io.BytesIO(value["bytes"]))


def truth_completion(row: dict):
    """The ground-truth completion of a row, in TRL's conversational format."""
    if row["kind"] == "visualization":
        content = [{"type": "text", "text": row["reasoning"]}, {"type": "image", "image": _pil(row["target_image"])}]
        return [{"role": "assistant", "content": content}]
    return [{"role": "assistant", "content": row["target"]}]


def _shift_player(text: str) -> str:
    """Move the player one cell in the state part ("Player: (r, c)" -> (r, c+1)) and every "changes to"."""
    text = re.sub(r"Player: \((\d+), (\d+)\)", lambda m: f"Player: ({m.group(1)}, {int(m.group(2)) + 1})", text)
    return re.sub(r"changes to \((\d+), (\d+)\)", lambda m: f"changes to ({m.group(1)}, {int(m.group(2)) + 1})", text)


def corrupted_completion(row: dict):
    """A plausible wrong completion: the player one cell off (text) or a blurred image."""
    if row["kind"] == "visualization":
        blurred = _pil(row["target_image"]).convert("RGB").filter(ImageFilter.GaussianBlur(3))
        return [{"role": "assistant", "content": [{"type": "text", "text": row["reasoning"]}, {"type": "image", "image": blurred}]}]
    if row["kind"] == "goal":
        return _shift_player(row["answer"])  # a plain string completion works too
    return [{"role": "assistant", "content": _shift_player(row["target"])}]


def call_like_trl(funcs, weights, rows: list[dict], completions: list) -> tuple[np.ndarray, np.ndarray]:
    """Per-function rewards (NaN = None) and the weighted nansum, as GRPOTrainer computes them."""
    prompts = [r["prompt"] for r in rows]
    columns = {k: [r[k] for r in rows] for k in rows[0] if k != "prompt"}
    per = np.full((len(rows), len(funcs)), np.nan)
    for j, fn in enumerate(funcs):
        out = fn(prompts=prompts, completions=completions, completion_ids=None, **columns)
        per[:, j] = [np.nan if v is None else v for v in out]
    total = np.nansum(per * np.asarray(weights)[None, :], axis=1)
    return per, total


def score(funcs, weights, rows, make_completion):
    per_kind = defaultdict(lambda: defaultdict(list))
    for i in range(0, len(rows), BATCH):
        batch = rows[i : i + BATCH]
        per, total = call_like_trl(funcs, weights, batch, [make_completion(r) for r in batch])
        for r, p, t in zip(batch, per, total):
            for fn, v in zip(funcs, p):
                if not math.isnan(v):
                    per_kind[r["kind"]][fn.__name__].append(v)
            per_kind[r["kind"]]["total"].append(t)
    return per_kind


def report(title: str, per_kind) -> None:
    print(title)
    for kind in ("state", "visualization", "goal"):
        if kind not in per_kind:
            continue
        vals = ", ".join(f"{name} {np.mean(v):.4f}" for name, v in per_kind[kind].items())
        print(f"  {kind:<13} ({len(per_kind[kind]['total'])} rows): {vals}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", help="a split exported with --view predictions (default: export a small one)")
    ap.add_argument("--mode", default="prm", choices=("prm", "orm"))
    ap.add_argument("--limit", type=int, default=400, help="rows to score (default 400; 0 = all)")
    ap.add_argument("--check", action="store_true", help="exit 1 unless the ground truth scores 1 on every reward")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.data) if args.data else export_small(Path(tmp) / "data")
        rows = load_rows(path, args.limit or None)
        funcs, weights = make_reward_funcs(args.mode)
        print(f"{path}: {len(rows)} rows; reward_funcs={[f.__name__ for f in funcs]} reward_weights={weights}")
        truth = score(funcs, weights, rows, truth_completion)
        report("ground truth as completions:", truth)
        report("corrupted completions (player one cell off, blurred image, wrong answer):", score(funcs, weights, rows, corrupted_completion))

    worst = min(min(v) for kinds in truth.values() for name, v in kinds.items() if name != "total")
    if args.check and worst < 1 - 1e-6:
        print(f"check failed: a ground-truth reward is {worst}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
