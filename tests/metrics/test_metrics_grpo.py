"""GRPO reward functions in TRL's convention, on a split exported in the training (predictions) view."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageFilter

from svot.metrics import MetricError
from svot.metrics.grpo import (
    choice_reward_fn,
    completion_image,
    goal_reward_fn,
    make_reward_funcs,
    make_state_reward_fn,
    reasoning_reward_fn,
    state_reward_fn,
    visual_reward_fn,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rows(exported_views) -> list[dict]:
    import pyarrow.parquet as pq

    (path,) = sorted(exported_views["parquet_predictions"].rglob("*.parquet"))
    return pq.read_table(path).to_pylist()


def columns(batch: list[dict]) -> dict:
    """What GRPOTrainer passes: every column but the prompt, one list entry per completion."""
    return {k: [r[k] for r in batch] for k in batch[0] if k != "prompt"}


def truth(row, chat: bool):
    if row["kind"] == "visualization":
        img = Image.open(io.BytesIO(row["target_image"]["bytes"]))
        if chat:
            return [{"role": "assistant", "content": [{"type": "text", "text": row["reasoning"]}, {"type": "image", "image": img}]}]
        return img
    text = row["target"]
    return [{"role": "assistant", "content": text}] if chat else text


@pytest.mark.parametrize("chat", [False, True], ids=["strings", "chat"])
def test_ground_truth_completions_score_one_and_others_get_none(rows, chat):
    comps = [truth(r, chat) for r in rows]
    cols = columns(rows)
    kinds = cols["kind"]
    assert {"state", "visualization", "goal"} <= set(kinds)
    expect = {
        state_reward_fn: {"state"},
        reasoning_reward_fn: {"state", "visualization"} if chat else {"state"},
        visual_reward_fn: {"visualization"},
        goal_reward_fn: {"goal"},
    }
    for fn, applies in expect.items():
        out = fn(prompts=[r["prompt"] for r in rows], completions=comps, completion_ids=None, **cols)
        assert len(out) == len(rows)
        for k, v in zip(kinds, out):
            if k in applies:
                assert v == pytest.approx(1.0, abs=1e-9), (fn.__name__, k)
            elif fn is not reasoning_reward_fn or k == "goal":
                assert v is None, (fn.__name__, k)


def test_classification_reward(rows):
    goals = [r for r in rows if r["kind"] == "goal"]
    cols = columns(goals)
    right = choice_reward_fn(completions=[f"The answer is ({r['target_classification']})" for r in goals], **cols)
    assert right == [1.0] * len(goals)
    wrong = choice_reward_fn(completions=["ABCD"[("ABCD".index(r["target_classification"]) + 1) % 4] for r in goals], **cols)
    assert wrong == [0.0] * len(goals)
    assert choice_reward_fn(completions=["no letter"] * len(goals), **cols) == [0.0] * len(goals)


def test_weights_combine_like_the_paper(rows):
    """TRL: total = nansum(weights * rewards), None -> NaN. PRM gives 0.5 r_c + 0.5 r_z / 0.5 r_c + 0.5 r_v."""
    funcs, weights = make_reward_funcs("prm")
    sample = [r for r in rows if r["kind"] == "state"][:4] + [r for r in rows if r["kind"] == "visualization"][:4]
    comps = []
    for r in sample:  # corrupt some so the rewards are not all 1
        if r["kind"] == "state":
            comps.append(r["target"].replace("Player: (", "Player: (9"))
        else:
            img = Image.open(io.BytesIO(r["target_image"]["bytes"])).filter(ImageFilter.GaussianBlur(1))
            comps.append([{"role": "assistant", "content": [{"type": "text", "text": r["reasoning"]}, {"type": "image", "image": img}]}])
    cols = columns(sample)
    per = np.array([[np.nan if v is None else v for v in fn(completions=comps, **cols)] for fn in funcs]).T
    total = np.nansum(per * np.array(weights)[None, :], axis=1)
    r_c, r_z, r_v = per[:, 0], per[:, 1], per[:, 2]
    for i, r in enumerate(sample):
        if r["kind"] == "state":
            assert total[i] == pytest.approx(0.5 * r_c[i] + 0.5 * r_z[i]) and r_z[i] < 1.0
        else:
            assert total[i] == pytest.approx(0.5 * r_c[i] + 0.5 * r_v[i]) and r_v[i] < 1.0
    funcs, weights = make_reward_funcs("orm")
    assert [f.__name__ for f in funcs] == ["state_reward_fn", "visual_reward_fn", "goal_reward_fn"] and weights == [0.5, 0.5, 1.0]
    with pytest.raises(MetricError):
        make_reward_funcs("dpo")


def test_unreadable_completions_score_zero_never_raise(rows):
    cols = columns(rows)
    junk = [None, 3, "", b"\x00\x01", {"role": "assistant"}, [{"content": [{"type": "image", "image": "missing.png"}]}]]
    comps = [junk[i % len(junk)] for i in range(len(rows))]
    for fn in (state_reward_fn, reasoning_reward_fn, visual_reward_fn, goal_reward_fn, choice_reward_fn):
        out = fn(completions=comps, **cols)
        assert all(v is None or v == 0.0 for v in out), fn.__name__


def test_custom_state_fields_and_missing_columns(rows):
    states = [r for r in rows if r["kind"] == "state"][:5]
    cols = columns(states)
    fn = make_state_reward_fn({"sokoban": ("player",)}, name="player_only")
    only_player = [r["target"].replace("Blocks:", "Blocks: (0, 0),") for r in states]
    assert fn.__name__ == "player_only" and fn(completions=only_player, **cols) == [1.0] * len(states)
    assert state_reward_fn(completions=only_player, **cols) != [1.0] * len(states)
    with pytest.raises(MetricError, match="state"):
        state_reward_fn(completions=only_player, kind=cols["kind"])
    with pytest.raises(MetricError, match="entries"):
        state_reward_fn(completions=only_player, **{**cols, "state": cols["state"][:2]})


def test_completion_image_forms(tmp_path):
    arr = np.zeros((8, 8, 3), np.uint8)
    arr[2:5, 3:6] = 200
    png = io.BytesIO()
    Image.fromarray(arr).save(png, format="PNG")
    (tmp_path / "x.png").write_bytes(png.getvalue())
    for form in (arr, Image.fromarray(arr), png.getvalue(), {"bytes": png.getvalue(), "path": None},
                 str(tmp_path / "x.png"), {"role": "assistant", "content": [{"type": "text", "text": "hi"}, {"type": "image", "image": Image.fromarray(arr)}]}):
        got = completion_image(form)
        assert got is not None and (got == arr).all()
    assert completion_image(b"not an image") is None and completion_image("just text") is None


def test_example_script_scores_the_ground_truth(exported_views):
    (path,) = sorted(exported_views["parquet_predictions"].rglob("*.parquet"))
    proc = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "grpo_rewards.py"), "--data", str(path), "--check"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "ground truth as completions" in proc.stdout and "corrupted completions" in proc.stdout
    # the rewards need no trl (checked in a fresh process: tests/test_training.py imports trl into this one)
    probe = subprocess.run([sys.executable, "-c", "import sys, svot.metrics.grpo; sys.exit('trl' in sys.modules)"],
                           capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert probe.returncode == 0, probe.stderr[-2000:]
