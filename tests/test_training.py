"""One step of TRL's real SFTTrainer and GRPOTrainer (with svot's rewards) on svot records, offline.

The models are built locally from configs with random weights (svot.training):
a two-layer Llama for the text-only view (wo-v) and a tiny Qwen2-VL for an
interleaved image view (svot). Needs the train extra.
"""

from __future__ import annotations

import importlib.util
import warnings

import pytest

from svot.dataset import iter_split, to_messages
from svot.metrics.grpo import make_reward_funcs
from svot.training import texts_of, tiny_text_model, tiny_vision_model

# Checked without importing: trl and transformers take seconds to import, and collection imports every module.
_TRAIN = ("trl", "transformers", "tokenizers", "accelerate", "torch", "datasets")
_MISSING = [m for m in _TRAIN if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(bool(_MISSING), reason=f"the train extra (pip install 'svot[train]') is missing: "
                                                       f"{', '.join(_MISSING)}")


@pytest.fixture(scope="module")
def trl():
    import trl  # the train extra

    return trl


@pytest.fixture(scope="module")
def datasets():
    import datasets  # the train (or dev) extra

    datasets.disable_progress_bars()
    return datasets


COMMON = dict(max_steps=1, report_to="none", use_cpu=True, save_strategy="no", logging_steps=1, bf16=False,
              dataloader_num_workers=0, disable_tqdm=True)


@pytest.fixture(scope="module")
def inst():
    return next(iter_split("sokoban", 4, "val", seed=3, maps_per_split={"val": 1}))


def _train(trainer) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = trainer.train()
    assert out.global_step == 1
    return trainer.state.log_history[0]


@pytest.mark.slow
def test_sft_text_view(inst, tmp_path, trl, datasets):
    recs = to_messages(inst, "wo-v")
    model, tok = tiny_text_model(texts_of(recs))
    before = [p.detach().clone() for p in model.parameters()]
    args = trl.SFTConfig(output_dir=str(tmp_path), per_device_train_batch_size=2, max_length=None, **COMMON)
    log = _train(trl.SFTTrainer(model=model, args=args, train_dataset=datasets.Dataset.from_list(recs),
                            processing_class=tok))
    assert log["loss"] > 0 and log["num_tokens"] > 0
    assert any((a != b).any() for a, b in zip(before, model.parameters())), "one step changed no weight"


@pytest.mark.slow
def test_grpo_text_view_with_svot_rewards(inst, tmp_path, trl, datasets):
    recs = [r for r in to_messages(inst, "wo-v") if r["kind"] == "state"][:1]
    model, tok = tiny_text_model(texts_of(recs))
    funcs, weights = make_reward_funcs("prm")  # visual_reward_fn returns None: wo-v has no visualization rows
    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=2, num_generations=2,
                      max_completion_length=8, reward_weights=weights, **COMMON)
    log = _train(trl.GRPOTrainer(model=model, reward_funcs=funcs, args=args,
                             train_dataset=datasets.Dataset.from_list(recs), processing_class=tok))
    # the state rows' rewards were computed (random tokens score 0), the others do not apply
    assert log["rewards/state_reward_fn/mean"] == 0.0 and log["rewards/reasoning_reward_fn/mean"] is not None
    assert log["rewards/visual_reward_fn/mean"] is None and log["rewards/goal_reward_fn/mean"] is None


def _vision_records(inst, kinds):
    return [r for r in to_messages(inst, "svot", image_size=64) if r["kind"] in kinds]


@pytest.mark.slow
def test_sft_vision_view_interleaves_images(inst, tmp_path, trl, datasets):
    """TRL's collator puts each image's vision tokens where its part stands in the prompt."""
    recs = _vision_records(inst, ("state", "visualization"))[2:4]  # step 2: two images, v0 and v1
    model, proc = tiny_vision_model(texts_of(recs))
    args = trl.SFTConfig(output_dir=str(tmp_path), per_device_train_batch_size=2, max_length=None, **COMMON)
    trainer = trl.SFTTrainer(model=model, args=args, train_dataset=datasets.Dataset.from_list(recs),
                         processing_class=proc)
    batch = trainer.data_collator([dict(r) for r in trainer.train_dataset])
    tok = proc.tokenizer
    start = tok.convert_tokens_to_ids("<|vision_start|>")
    assert batch["image_grid_thw"].shape[0] == sum(len(r["images"]) for r in recs)
    for row, rec in zip(batch["input_ids"].tolist(), recs):
        starts = [k for k, t in enumerate(row) if t == start]
        assert len(starts) == len(rec["images"]) == 2
        before = [tok.decode(row[max(0, k - 12):k]) for k in starts]
        assert before[0].endswith("(image: ") and before[1].endswith("Image after step 1: ")
    log = _train(trainer)
    assert log["loss"] > 0


@pytest.mark.slow
def test_grpo_vision_view_with_svot_rewards(inst, tmp_path, trl, datasets):
    recs = _vision_records(inst, ("visualization",))[1:2]
    model, proc = tiny_vision_model(texts_of(recs))
    funcs, weights = make_reward_funcs("prm")
    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=2, num_generations=2,
                      max_completion_length=8, reward_weights=weights, **COMMON)
    log = _train(trl.GRPOTrainer(model=model, reward_funcs=funcs, args=args,
                             train_dataset=datasets.Dataset.from_list(recs), processing_class=proc))
    # a text model draws no image: r_v is computed and is 0; r_c is computed on the c^v text
    assert log["rewards/visual_reward_fn/mean"] == 0.0 and log["rewards/reasoning_reward_fn/mean"] is not None
    assert log["rewards/state_reward_fn/mean"] is None


@pytest.mark.slow
def test_sft_rulemaze_stepwise_trl_records(tmp_path, trl, datasets):
    """RuleMaze step-wise samples (one image each, --formats trl) through SFTTrainer on a tiny Qwen2-VL."""
    from svot.rulemaze import dataset as D

    cfg = D.make_config(tmp_path / "rm", scenarios=["RegularMaze"], seed=3, train=2, test_per_group=1,
                        pool_size=2000, formats="trl", image_size=96)
    D.export(cfg, quiet=True)
    train = datasets.load_dataset("parquet", data_files=str(tmp_path / "rm" / "regularmaze" / "trl" /
                                                            "train_stepwise.parquet"),
                                  cache_dir=str(tmp_path / ".hf"))["train"].select(range(2))
    model, proc = tiny_vision_model(texts_of(train))
    args = trl.SFTConfig(output_dir=str(tmp_path / "out"), per_device_train_batch_size=2, max_length=None, **COMMON)
    log = _train(trl.SFTTrainer(model=model, args=args, train_dataset=train, processing_class=proc))
    assert log["loss"] > 0
