"""Tiny offline models for smoke-testing a training pipeline on svot data (the ``train`` extra).

No model hub is needed: :func:`tiny_text_model` trains a byte-level BPE
tokenizer on the given texts with the ``tokenizers`` library and builds a
two-layer Llama with random weights; :func:`tiny_vision_model` does the same
for Qwen2-VL (a vision tower of one block, a two-layer language model and a
``Qwen2VLProcessor`` whose chat template turns each ``{"type": "image"}`` part
into the image's vision tokens where the part stands). They learn nothing
useful; they let a CI run ``SFTTrainer`` / ``GRPOTrainer`` on an svot export
end to end in seconds. For real runs use a real checkpoint (docs/training.md).
"""

from __future__ import annotations

from typing import Iterable

SPECIALS = ["<|endoftext|>", "<|pad|>", "<|im_start|>", "<|im_end|>"]
VISION_SPECIALS = ["<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]

TOOL_SPECIALS = ["<tool_call>", "</tool_call>"]

#: ChatML; string contents, or lists of parts where an image part becomes the vision tokens. Tool calling
#: (Hermes style, as TRL's agent training needs it): ``tools`` are listed in a system turn, an assistant's
#: ``tool_calls`` are rendered as ``<tool_call>{"name": …, "arguments": {…}}</tool_call>`` after its content, and a
#: ``tool`` message is a turn of its own. Conversations without tools render as before. Prefix-preserving: a turn
#: renders the same whatever follows it (TRL's ``is_chat_template_prefix_preserving``).
CHAT_TEMPLATE = (
    "{%- if tools -%}<|im_start|>system\nYou can call these tools:"
    "{%- for tool in tools %}\n{{ tool | tojson }}{%- endfor %}\n"
    "\nTo call one, answer with a tool_call block holding {\"name\": ..., \"arguments\": {...}}.<|im_end|>"
    "{%- endif -%}"
    "{%- for message in messages -%}"
    "<|im_start|>{{ message['role'] }}\n"
    "{%- if message['content'] is string -%}{{ message['content'] }}"
    "{%- elif message['content'] -%}{%- for part in message['content'] -%}"
    "{%- if part['type'] == 'image' -%}<|vision_start|><|image_pad|><|vision_end|>"
    "{%- elif part['type'] == 'text' -%}{{ part['text'] }}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{%- if message['tool_calls'] is defined and message['tool_calls'] -%}"
    "{%- for call in message['tool_calls'] -%}"
    "<tool_call>{\"name\": {{ call['function']['name'] | tojson }}, \"arguments\": "
    "{%- if call['function']['arguments'] is string %} {{ call['function']['arguments'] }}"
    "{%- else %} {{ call['function']['arguments'] | tojson }}{%- endif -%}"
    "}</tool_call>"
    "{%- endfor -%}{%- endif -%}"
    "<|im_end|>\n"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}<|im_start|>assistant\n{%- endif -%}"
)

#: How transformers' ``tokenizer.parse_response`` reads a completion rendered by :data:`CHAT_TEMPLATE`: content,
#: then any ``<tool_call>`` JSON blocks (TRL's tool loop calls the tools it finds). Set by :func:`tiny_tokenizer`;
#: :func:`svot.agents.trl.check_tool_calling` proves template and parser agree.
RESPONSE_TEMPLATE = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant",  # the template writes no newline after a role
    "fields": {
        "tool_calls": {
            "open": "<tool_call>",
            "close_pattern": r"</tool_call>\s*",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}


def texts_of(records: Iterable[dict]) -> list[str]:
    """Every text in conversational records (prompt and completion parts), to train a tokenizer on."""
    out = []
    for r in records:
        for key in ("prompt", "completion"):
            for msg in r.get(key) or ():
                c = msg["content"]
                if isinstance(c, str):
                    out.append(c)
                else:
                    out += [p["text"] for p in c if p.get("type") == "text" and p.get("text")]
    return out


def tiny_tokenizer(texts: Iterable[str], vocab_size: int = 512, vision: bool = False):
    """A byte-level BPE tokenizer trained on ``texts``, as a ``PreTrainedTokenizerFast`` with :data:`CHAT_TEMPLATE`."""
    # tokenizers and transformers: the train extra
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    specials = SPECIALS + TOOL_SPECIALS + (VISION_SPECIALS if vision else [])
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=specials,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(list(texts), trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|pad|>",
                                   bos_token=None, unk_token=None)
    if vision:
        fast.image_token = "<|image_pad|>"
        fast.video_token = "<|video_pad|>"
    fast.add_special_tokens({"additional_special_tokens": TOOL_SPECIALS + (VISION_SPECIALS if vision else [])})
    fast.chat_template = CHAT_TEMPLATE
    fast.response_template = RESPONSE_TEMPLATE
    return fast


def tiny_text_model(texts: Iterable[str], *, hidden: int = 32, layers: int = 2, seed: int = 0):
    """``(model, tokenizer)``: a random-weight ``LlamaForCausalLM`` and a tokenizer trained on ``texts``."""
    import torch  # the train extra
    from transformers import LlamaConfig, LlamaForCausalLM

    tok = tiny_tokenizer(texts)
    cfg = LlamaConfig(vocab_size=len(tok), hidden_size=hidden, intermediate_size=2 * hidden,
                      num_hidden_layers=layers, num_attention_heads=2, num_key_value_heads=2,
                      max_position_embeddings=8192, pad_token_id=tok.pad_token_id,
                      eos_token_id=tok.eos_token_id, bos_token_id=None, tie_word_embeddings=True)
    torch.manual_seed(seed)
    model = LlamaForCausalLM(cfg)
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    return model, tok


def tiny_vision_model(texts: Iterable[str], *, hidden: int = 32, layers: int = 2, image_pixels: int = 56 * 56,
                      seed: int = 0):
    """``(model, processor)``: a random-weight ``Qwen2VLForConditionalGeneration`` and a ``Qwen2VLProcessor``.

    Images are resized to at most ``image_pixels`` pixels (56 x 56: 4 patches of 14 px
    merged 2 x 2 into one vision token per image), so a step costs little.
    """
    import torch  # the train extra
    from transformers import (
        Qwen2VLConfig,
        Qwen2VLForConditionalGeneration,
        Qwen2VLImageProcessorPil,
        Qwen2VLProcessor,
    )

    tok = tiny_tokenizer(texts, vision=True)
    ids = {t: tok.convert_tokens_to_ids(t) for t in VISION_SPECIALS}
    head = hidden // 2
    cfg = Qwen2VLConfig(
        text_config=dict(vocab_size=len(tok), hidden_size=hidden, intermediate_size=2 * hidden,
                         num_hidden_layers=layers, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=8192, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id,
                         bos_token_id=None,
                         rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                          "mrope_section": [head // 4, head // 8, head // 8]}),
        vision_config=dict(depth=1, embed_dim=hidden, hidden_size=hidden, num_heads=2, mlp_ratio=2,
                           patch_size=14, spatial_merge_size=2, temporal_patch_size=2),
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
        tie_word_embeddings=True,
    )
    torch.manual_seed(seed)
    model = Qwen2VLForConditionalGeneration(cfg)
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    size = {"shortest_edge": image_pixels, "longest_edge": image_pixels}
    class _ImageOnlyProcessor(Qwen2VLProcessor):
        """Qwen2-VL's processor without a video processor: that one (and its class check) needs torchvision."""

        def check_argument_for_proper_class(self, argument_name, argument):
            if argument is None:
                return None
            return super().check_argument_for_proper_class(argument_name, argument)

    # the PIL image processor: the default (fast) one needs torchvision
    processor = _ImageOnlyProcessor(
        image_processor=Qwen2VLImageProcessorPil(size=size, min_pixels=image_pixels, max_pixels=image_pixels),
        tokenizer=tok,
        chat_template=CHAT_TEMPLATE,
    )
    return model, processor
