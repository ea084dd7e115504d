"""Tiny random GPT-1, Phi, SmolLM3 and OLMo 2 checkpoints, built with transformers' own classes (no download),
saved as save_pretrained writes them, with the app's byte-level BPE as tokenizer.json (tiny.py's helpers)."""

from __future__ import annotations

from pathlib import Path

import torch

from .tiny import byte_bpe_tokenizer, redraw, save_eager

# The published vocabularies' special ids (SmolLM3: 128004, OLMo 2: 50279) are past a 2048-row tiny vocabulary
SMALL_IDS = dict(pad_token_id=None, bos_token_id=1, eos_token_id=2)
LLAMA_LIKE = dict(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=2, num_attention_heads=4,
                  num_key_value_heads=2, max_position_embeddings=128, **SMALL_IDS)  # fmt: skip


def build(kind: str, folder: Path, seed: int = 0, **over) -> torch.nn.Module:
    """Save a tiny random `kind` model (openai-gpt, phi, smollm3, olmo2) to folder; returns it (eval, eager)."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    if kind == "openai-gpt":  # post-norm, learned positions, Conv1D, tied head
        base = dict(vocab_size=2048, n_positions=64, n_embd=32, n_layer=2, n_head=4)
        model = tf.OpenAIGPTLMHeadModel(tf.OpenAIGPTConfig(**{**base, **over}))
    elif kind == "phi":  # head_dim 16, RoPE on its first half (8 dims), one LayerNorm per block
        base = dict(vocab_size=2048, hidden_size=64, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4,
                    max_position_embeddings=128, **SMALL_IDS)  # fmt: skip
        model = tf.PhiForCausalLM(tf.PhiConfig(**{**base, **over}))
    elif kind == "smollm3":  # 4 layers: the default interval of 4 makes layer 3 NoPE
        model = tf.SmolLM3ForCausalLM(tf.SmolLM3Config(**{**LLAMA_LIKE, "num_hidden_layers": 4, **over}))
    elif kind == "olmo2":
        model = tf.Olmo2ForCausalLM(tf.Olmo2Config(**{**LLAMA_LIKE, **over}))
    else:
        raise ValueError(kind)
    redraw(model, seed)
    save_eager(model, folder)
    byte_bpe_tokenizer(folder, bos=False)
    return model
