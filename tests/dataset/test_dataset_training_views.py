"""Method views as TRL conversational records; numpy/torch/pandas formatting; the Hub dataset card."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from svot.dataset import SPLITS, VIEWS, export, iter_split, make_config, to_messages
from svot.dataset.card import HUB_SPLITS
from svot.dataset.methods import METHODS
from svot.dataset import as_classification
from svot.metrics.grpo import choice_reward_fn, goal_reward_fn, reasoning_reward_fn, state_reward_fn

datasets = pytest.importorskip("datasets", reason="the dev extra brings datasets")
datasets.disable_progress_bars()

SMALL = {"train": 1, "val": 1, "test_id": 1, "test_ood": 1}


@pytest.fixture(scope="module")
def inst():
    return next(iter_split("sokoban", 4, "val", seed=3, maps_per_split={"val": 1}))


def _parts(rec, key="prompt"):
    (msg,) = rec[key]
    return msg["content"]


def _texts(content) -> list[str]:
    return [content] if isinstance(content, str) else [p["text"] for p in content if p["type"] == "text"]


@pytest.mark.parametrize("method", METHODS)
def test_records_interleave_images_in_prompt_order(inst, method):
    """TRL fills ``{"type": "image"}`` parts from ``images`` one for one: parts must sit where the image belongs."""
    recs = to_messages(inst, method, image_size=64)
    states = inst.states
    for rec in recs:
        content = _parts(rec)
        for key in ("prompt", "completion", "prompt_classification"):
            for msg in rec[key]:
                assert all("<image>" not in t for t in _texts(msg["content"])), (rec["id"], key)
        assert rec["completion"][0]["role"] == "assistant" and rec["prompt"][0]["role"] == "user"
        if method == "wo-v":
            assert isinstance(content, str) and "images" not in rec
            continue
        n_parts = sum(1 for p in content if p["type"] == "image")
        assert n_parts == len(rec["images"]) >= 1
        # which state each image part shows, read from the text just before it
        shown = []
        for k, p in enumerate(content):
            if p["type"] != "image":
                continue
            before = content[k - 1]["text"]
            if before.endswith("Initial state (image: "):
                shown.append(0)
            elif "Image after step " in before.rsplit("\n", 1)[-1]:
                shown.append(int(before.rsplit("Image after step ", 1)[1].split(":")[0]))
            elif before.rstrip().endswith(("before step %d:" % rec["step"], "final state:")):
                shown.append(rec["step"] - 1 if rec["step"] else inst.n_steps)
            else:
                pytest.fail(f"{rec['id']}: an image part after {before[-40:]!r}")
        for idx, img in zip(shown, rec["images"]):
            assert np.array_equal(np.asarray(img), inst.image(idx, 64)), (rec["id"], idx)


def test_methods_follow_the_paper(inst):
    by = {m: to_messages(inst, m, image_size=32) for m in METHODS}
    n = inst.n_steps
    z = [s.z_text for s in inst.steps]
    # SVoT (Eq. 3-5): state + visualization per step and one goal; c_i^z then z_i
    kinds = [r["kind"] for r in by["svot"]]
    assert kinds == ["state", "visualization"] * n + ["goal"]
    for s, r in zip(inst.steps, by["svot"][0::2]):
        assert r["target"] == f"{s.reasoning}\n{s.z_text}"
    assert by["svot"][-1]["target"] == inst.answer and len(by["svot"][-1]["images"]) == n + 1
    # w/o-V: "without visualizations" - no visualization samples, no image
    assert [r["kind"] for r in by["wo-v"]] == ["state"] * n + ["goal"]
    assert all("images" not in r and "target_image" not in r for r in by["wo-v"])
    # w/o-RL-C: "only state representations and visualizations without transition reasoning chains"
    states = [r for r in by["wo-rl-c"] if r["kind"] == "state"]
    assert [r["target"] for r in states] == z
    for s in inst.steps:
        for r in by["wo-rl-c"]:
            assert s.reasoning not in "".join(_texts(_parts(r, "completion")))
    assert all(r["target_image"] is not None for r in by["wo-rl-c"] if r["kind"] == "visualization")
    # MVoT: "z_i = a_i" - actions and images, no state descriptions after the initial one
    mv = by["mvot"]
    assert [r["target"] for r in mv[:-1]] == [f"Action {s.index}: {s.action_text}" for s in inst.steps]
    for r in mv:
        text = "".join(_texts(_parts(r)))
        assert text.count(inst.initial_text) == 1
        assert all(s.state_text not in text.replace(inst.initial_text, "") or s.state_text == inst.initial_text
                   for s in inst.steps)
    assert len(mv[-1]["images"]) == n + 1
    # T-CoT: one sample, text chain z_1..z_n, then the answer; only v0 as input
    (tc,) = by["tcot"]
    pos = [tc["target"].index(x) for x in z]
    assert pos == sorted(pos) and tc["target"].endswith(inst.answer) and len(tc["images"]) == 1
    # step-wise: one image per sample, the state the step starts from
    assert all(len(r["images"]) == 1 for r in by["stepwise"])


def test_rewards_score_the_ground_truth_completions(inst):
    """svot's GRPO reward functions read the records' own columns: the truth scores 1."""
    for method in ("svot", "wo-v", "tcot"):
        recs = to_messages(inst, method, image_size=32)
        cols = {k: [r[k] for r in recs] for k in recs[0] if k not in ("prompt", "completion")}
        comps = [r["completion"] for r in recs]
        for fn in (state_reward_fn, goal_reward_fn) if method != "tcot" else (goal_reward_fn,):
            got = [x for x in fn(completions=comps, **cols) if x is not None]
            assert got and all(x == 1.0 for x in got), (method, fn.__name__, got)
        cls = [as_classification(r) for r in recs]
        goals = [r for r in cls if r["kind"] == "goal"]
        assert [r["target"] for r in goals] == [inst.correct_letter]
        assert sum(p["type"] == "image" for p in _parts(goals[0])) == len(goals[0].get("images", [])) \
            if method != "wo-v" else isinstance(_parts(goals[0]), str)
        assert "Choose one of" in "".join(_texts(_parts(goals[0])))
        cols = {k: [r[k] for r in cls] for k in cls[0] if k not in ("prompt", "completion")}
        got = [x for x in choice_reward_fn(completions=[r["completion"] for r in cls], **cols) if x is not None]
        assert got == [1.0]
        if method == "svot":
            got = [x for x in reasoning_reward_fn(completions=comps, **cols) if x is not None]
            assert len(got) == 2 * inst.n_steps and min(got) > 0.0


@pytest.fixture(scope="module")
def view_exports(tmp_path_factory):
    root = tmp_path_factory.mktemp("views")
    out = {}
    for view in VIEWS:
        cfg = make_config(root / view, domains=["sokoban"], sizes=[4], splits=["val"], view=view, maps_per_split=SMALL)
        export(cfg, quiet=True)
        out[view] = root / view
    return out


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("fmt", ["numpy", "torch", "pandas"])
def test_every_view_formats(view_exports, view, fmt):
    if fmt == "torch":
        pytest.importorskip("torch", reason="torch formatting needs torch (the rl or train extra)")
    root = view_exports[view]
    ds = datasets.load_dataset("parquet", data_files=str(root / "sokoban-4x4" / "val.parquet"),
                               cache_dir=str(root / ".hf"))["train"]
    f = ds.with_format(fmt)
    one, batch = f[0], f[: len(ds)]
    assert len(batch["id"]) == len(ds)
    if fmt == "pandas":  # a one-row frame
        assert list(one["id"]) == [ds[0]["id"]] and list(batch.columns) == list(ds.column_names)
    else:
        assert one["id"] == ds[0]["id"]
    if view == "instances" and fmt != "pandas":  # decoded images: HWC arrays (numpy), CHW tensors (torch)
        assert sorted(one["image"].shape) == [3, 256, 256]
        assert len(one["step_images"]) == ds[0]["n_steps"] and sorted(one["step_images"][0].shape) == [3, 256, 256]


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
@pytest.mark.parametrize("view", ["instances", "svot", "wo-v"])
def test_load_dataset_by_config(tmp_path, fmt, view):
    """``load_dataset(export_dir, "sokoban-4x4")``: that config's four splits, apart; every image column decoded."""
    cfg = make_config(tmp_path, domains=["sokoban", "frozenlake"], sizes=[4], view=view, format=fmt,
                      maps_per_split=SMALL)
    res = export(cfg, quiet=True)
    card = (tmp_path / "README.md").read_text()
    assert card.startswith("---\nconfigs:\n") and "config_name: frozenlake-4x4" in card
    dd = datasets.load_dataset(str(tmp_path), "sokoban-4x4", cache_dir=str(tmp_path / ".hf"))
    assert sorted(dd) == sorted(HUB_SPLITS.values())
    for row in res.rows:
        if row.dataset != "sokoban-4x4":
            continue
        ds = dd[HUB_SPLITS[row.split]]
        assert set(ds["domain"]) == {"sokoban"} and set(ds["split"]) == {row.split}
        assert len(ds) == row.stats["records"]
    r = dd["test_ood"][0]
    if view == "instances":
        assert isinstance(r["image"], Image.Image)
        assert len(r["step_images"]) == r["n_steps"] and all(isinstance(x, Image.Image) for x in r["step_images"])
    elif view == "svot":
        assert r["images"] and all(isinstance(x, Image.Image) for x in r["images"])
        assert sum(p["type"] == "image" for p in r["prompt"][0]["content"]) == len(r["images"])
    else:
        assert "images" not in r and isinstance(r["prompt"][0]["content"], str)
    assert json.loads((tmp_path / "manifest.json").read_text())["files"]["README.md"]["sha256"]


def test_records_count_matches_the_instances(view_exports):
    for view in METHODS:
        m = json.loads((view_exports[view] / "manifest.json").read_text())
        st = m["datasets"]["sokoban-4x4"]["splits"]["val"]
        per = {"svot": 2 * st["steps"] + st["instances"], "wo-rl-c": 2 * st["steps"] + st["instances"],
               "wo-v": st["steps"] + st["instances"], "stepwise": st["steps"] + st["instances"],
               "mvot": st["steps"] + st["instances"], "tcot": st["instances"]}[view]
        assert st["records"] == per, view
    assert SPLITS["val"].sequences == 2


def test_predictions_jsonl_carries_a_llama_factory_entry(tmp_path):
    """LLaMA-Factory's alpaca converter: prompt -> user turn, target -> response, file_names -> images
    resolved under --media_dir; its mm_plugin wants one ``<image>`` in the text per image."""
    cfg = make_config(tmp_path, domains=["sokoban"], sizes=[4], splits=["val"], view="predictions", format="jsonl",
                      maps_per_split=SMALL)
    res = export(cfg, quiet=True)
    split_dir = tmp_path / "sokoban-4x4" / "val"
    (entry,) = json.loads((split_dir / "dataset_info.json").read_text()).values()
    assert entry["formatting"] == "alpaca"
    cols = entry["columns"]
    rows = [json.loads(x) for x in (split_dir / entry["file_name"]).read_text().splitlines()]
    assert len(rows) == res.rows[0].stats["records"]
    for r in rows:
        assert isinstance(r[cols["response"]], str) and r[cols["response"]]
        assert r[cols["prompt"]].count("<image>") == len(r[cols["images"]]) >= 1
        assert all((split_dir / f).is_file() for f in r[cols["images"]])
    assert "sokoban-4x4/val/dataset_info.json" in res.manifest["files"]


def test_cli_method_view_same_bytes_with_two_workers(tmp_path, capsys):
    from svot.cli import main

    args = ["export", "--domains", "gather", "--sizes", "4", "--splits", "val", "--maps-per-split", "2",
            "--chunk-maps", "1", "--view", "mvot", "--quiet"]
    assert main(args + ["--out", str(tmp_path / "a")]) == 0
    assert main(args + ["--out", str(tmp_path / "b"), "--workers", "2"]) == 0
    a, b = (tmp_path / x / "gather-4x4" / "val.parquet" for x in "ab")
    assert a.read_bytes() == b.read_bytes()
    assert (tmp_path / "a" / "README.md").read_bytes() == (tmp_path / "b" / "README.md").read_bytes()
    capsys.readouterr()
    assert main(["export", "--domains", "gather", "--sizes", "4", "--view", "w/o-v", "--out", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert "unknown view 'w/o-v'" in err and all(m in err for m in METHODS)
