"""TRL's real GRPOTrainer with ``environment_factory=SVoTToolEnv``, offline on CPU (issue 46, item 6).

A two-layer Llama with random weights and a tokenizer trained here (svot.training) never calls a tool by
itself, so every reward would be 0 and GRPO's advantage 0 (docs/agents.md: the SFT warm-up). Here
``sequence_bias`` (a transformers generation option TRL passes through ``generation_kwargs``) stands in for
the warm-up: it pushes every prefix of four ``move`` calls, one per direction, so the model calls the tool and
samples the direction itself. The problem is a one-move maze, so the directions' rewards differ.
"""

from __future__ import annotations

import importlib.util
import warnings

import pytest

from svot.agents.trl_env import SVoTToolEnv, check_tool_calling, prompt_rows
from svot.errors import ConfigError

_TRAIN = ("trl", "transformers", "tokenizers", "accelerate", "torch", "datasets")
_MISSING = [m for m in _TRAIN if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(bool(_MISSING), reason=f"the train extra is missing: {', '.join(_MISSING)}")

DIRECTIONS = ("up", "down", "left", "right")
CALLS = [f'<tool_call>{{"name": "move", "arguments": {{"direction": "{d}"}}}}</tool_call><|im_end|>'
         for d in DIRECTIONS]


def _one_move_seed(eid: str) -> int:
    env = SVoTToolEnv()
    for seed in range(200):
        env.reset(id=eid, seed=seed)
        if len(env.episode.plan()) == 1:
            return seed
    raise AssertionError("no one-move problem in 200 seeds")


def _bias(tok) -> list:
    """Every prefix of every call, pushed up: the call is written whole, the direction is the model's choice."""
    seqs = {}
    for call in CALLS:
        ids = tok(call, add_special_tokens=False)["input_ids"]
        for k in range(1, len(ids) + 1):
            seqs[tuple(ids[:k])] = 20.0 + 10.0 * k  # a longer match wins over a shorter one
    return [[list(s), b] for s, b in seqs.items()]


@pytest.fixture(scope="module")
def tiny():
    from svot.training import tiny_text_model

    env = SVoTToolEnv()
    texts = [env.reset(id="SVoT/Maze-5x5-v0", seed=s) for s in range(5)] + CALLS * 5
    return tiny_text_model(texts)


def test_check_tool_calling_refuses_a_template_without_tools(tiny):
    _model, tok = tiny
    check_tool_calling(tok)  # svot's template and parser agree
    saved = tok.chat_template
    try:
        tok.chat_template = "{% for m in messages %}{{ m['content'] }}<|im_end|>{% endfor %}"
        with pytest.raises(ConfigError, match="drops tool calls"):
            check_tool_calling(tok)
    finally:
        tok.chat_template = saved


@pytest.mark.slow
def test_grpo_environment_factory_two_steps(tiny, tmp_path):
    import datasets  # the train extra
    import trl

    model, tok = tiny
    eid = "SVoT/Maze-5x5-v0"
    seed = _one_move_seed(eid)
    rows = prompt_rows([eid], seeds=[seed, seed])
    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
                          max_completion_length=96, max_steps=2, report_to="none", use_cpu=True,
                          save_strategy="no", logging_steps=1, bf16=False, dataloader_num_workers=0,
                          disable_tqdm=True, max_tool_calling_iterations=2, temperature=1.0, seed=0,
                          generation_kwargs={"sequence_bias": _bias(tok)})
    check_tool_calling(tok)
    trainer = trl.GRPOTrainer(model=model, args=args, processing_class=tok,
                              train_dataset=datasets.Dataset.from_list(rows), environment_factory=SVoTToolEnv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = trainer.train()
    assert out.global_step == 2
    logs = [h for h in trainer.state.log_history if "tools/call_frequency" in h]
    assert len(logs) == 2
    assert all(h["tools/call_frequency"] > 0 for h in logs), logs
    assert any(h["reward_std"] > 0 for h in logs), logs  # some rollouts won, some did not: GRPO has a signal
    rewards = [h["rewards/SVoTToolEnv/mean"] for h in logs]
    assert all(0.0 <= r <= 1.0 for r in rewards)
    print({k: [h.get(k) for h in logs] for k in ("loss", "reward", "reward_std", "tools/call_frequency",
                                                  "tools/failure_frequency")})


@pytest.mark.slow
def test_grpo_vlm_tools_returning_images(tmp_path):
    """SVoTImageToolEnv's move answers with the frame: stock TRL 1.16 feeds it to a tiny Qwen2-VL, and every
    forward pass that carries images has as many image tokens as image features (the TRL #5663 failure is a
    mismatch raised inside the model's forward)."""
    import datasets  # the train extra
    import trl

    from svot.agents.trl_env import SVoTImageToolEnv
    from svot.training import tiny_vision_model

    env = SVoTImageToolEnv()
    model, proc = tiny_vision_model([env.reset(id="SVoT/Maze-5x5-v0", seed=s) for s in range(5)] + CALLS * 5)
    check_tool_calling(proc, SVoTImageToolEnv)
    seen = []

    def record(module, args, kwargs):
        ids, grid = kwargs.get("input_ids"), kwargs.get("image_grid_thw")
        if ids is not None and grid is not None:
            merge = model.config.vision_config.spatial_merge_size ** 2
            seen.append((int((ids == model.config.image_token_id).sum()), int(grid.prod(-1).sum()) // merge))

    model.register_forward_pre_hook(record, with_kwargs=True)
    seed = _one_move_seed("SVoT/Maze-5x5-v0")
    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
                          max_completion_length=128, max_steps=2, report_to="none", use_cpu=True,
                          save_strategy="no", logging_steps=1, bf16=False, dataloader_num_workers=0,
                          disable_tqdm=True, max_tool_calling_iterations=1, seed=0,
                          generation_kwargs={"sequence_bias": _bias(proc.tokenizer)})
    trainer = trl.GRPOTrainer(model=model, args=args, processing_class=proc, environment_factory=SVoTImageToolEnv,
                              train_dataset=datasets.Dataset.from_list(prompt_rows([eid := "SVoT/Maze-5x5-v0"],
                                                                                   seeds=[seed, seed])))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = trainer.train()
    assert out.global_step == 2 and eid
    logs = [h for h in trainer.state.log_history if "tools/call_frequency" in h]
    assert all(h["tools/call_frequency"] > 0 for h in logs)
    assert seen and all(tokens == features > 0 for tokens, features in seen), seen
