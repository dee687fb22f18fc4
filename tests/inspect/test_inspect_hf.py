"""One task through Inspect's real Hugging Face provider, on a tiny random model built here (no download)."""

from __future__ import annotations

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="the eval extra (inspect-ai) is not installed")

from svot.inspect.tasks import goal  # noqa: E402

# The test is in the slow lane and transformers, tokenizers and torch take seconds to import: they
# are imported when it runs, not when the fast lane collects this file.
CHAT_TEMPLATE = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}assistant:"


def tiny_model(path, corpus: list[str]) -> None:
    """A 2-layer, 32-wide Llama with random weights and a word-level tokenizer trained on ``corpus``."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=["<unk>", "<eos>"]))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<eos>", pad_token="<eos>")
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(path)
    cfg = LlamaConfig(vocab_size=tok.get_vocab_size(), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=4096,
                      eos_token_id=fast.eos_token_id, pad_token_id=fast.pad_token_id, bos_token_id=None)
    LlamaForCausalLM(cfg).save_pretrained(path)


@pytest.mark.slow
def test_goal_task_runs_on_the_hf_provider(tmp_path):
    pytest.importorskip("transformers", reason="the eval extra's transformers is not installed")
    pytest.importorskip("tokenizers", reason="the eval extra's tokenizers is not installed")
    torch = pytest.importorskip("torch", reason="torch (rl extra) is needed by the Hugging Face provider")
    torch.manual_seed(0)
    task = goal(domain="maze", size=5, form="C", maps=1, images=False)  # the provider is text-only
    corpus = [c.text for s in task.dataset for c in s.input[0].content if c.type == "text"] + ["A B C D user assistant"]
    tiny_model(tmp_path / "tiny", corpus)
    [log] = inspect_ai.eval(task, model=f"hf/{tmp_path / 'tiny'}", model_args={"device": "cpu"}, max_tokens=4,
                         limit=1, display="none", log_dir=str(tmp_path / "logs"))
    assert log.status == "success", log.error
    [sample] = log.samples
    assert sample.output.model and sample.output.completion is not None  # the provider generated
    score = sample.scores["goal_scorer"]
    assert score.value in ("C", "I") and score.metadata["kind"] == "goal"
    # the provider got the whole prompt as text, the image placeholders written out
    [part] = sample.input[0].content
    assert "Choose one of" in part.text and "[image not shown]" in part.text
