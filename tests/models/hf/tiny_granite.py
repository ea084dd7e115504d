"""Tiny random Granite MoE checkpoints, built with transformers' own GraniteMoeForCausalLM (no download).

Every Granite multiplier is far from 1 so that a missing or misplaced one shows: embeddings × 3, each sublayer's
output × 0.4 before the residual add, q·k × 0.09 (not 1/sqrt(8) = 0.354), logits / 2.5. Four experts of width 24
on a 32-wide stream; the published layout (input_linear [E, 2I, d], output_linear, router.layer) is what
save_pretrained writes.
"""

from __future__ import annotations

from pathlib import Path

import torch

from .tiny import byte_bpe_tokenizer, redraw, save_eager

MULTIPLIERS = dict(embedding_multiplier=3.0, residual_multiplier=0.4, attention_multiplier=0.09, logits_scaling=2.5)
BASE = dict(vocab_size=2048, hidden_size=32, intermediate_size=24, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, num_local_experts=4, max_position_embeddings=128, **MULTIPLIERS)  # fmt: skip


def build_granite(folder: Path, k: int, seed: int = 0, **over) -> torch.nn.Module:
    """Save a tiny random GraniteMoe model routing each token to k of 4 experts to folder; returns it (eager)."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    model = tf.GraniteMoeForCausalLM(tf.GraniteMoeConfig(**{**BASE, "num_experts_per_tok": k, **over}))
    redraw(model, seed)
    save_eager(model, folder)
    byte_bpe_tokenizer(folder, bos=False)
    return model
