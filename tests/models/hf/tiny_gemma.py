"""Tiny random Gemma 2 and Gemma 3 (text) checkpoints, built with transformers' own classes (no download).

Sizes chosen so that every Gemma-specific path shows: head_dim 16 on a 32-wide stream of 4 heads (q, k, v are 64
wide), query_pre_attn_scalar 12 (not head_dim), a sliding window of 4-5 positions on 20+ token inputs, and for
Gemma 2 soft caps small enough to bite on the wide redraw (attention 5.0, logits 3.0).
"""

from __future__ import annotations

from pathlib import Path

import torch

from .tiny import byte_bpe_tokenizer, redraw, save_eager

BASE = dict(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=4, num_attention_heads=4,
            num_key_value_heads=2, head_dim=16, query_pre_attn_scalar=12, max_position_embeddings=128,
            hidden_activation="gelu_pytorch_tanh")  # fmt: skip
GEMMA2 = dict(sliding_window=4, attn_logit_softcapping=5.0, final_logit_softcapping=3.0)
# Gemma 3's two RoPE bases as published: 10⁴ for the sliding layers, 10⁶ for the full ones
ROPE3 = {"sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
         "full_attention": {"rope_type": "default", "rope_theta": 1000000.0}}  # fmt: skip
GEMMA3 = dict(num_hidden_layers=6, sliding_window=5, rope_parameters=ROPE3)  # 5 sliding : 1 full


def build_gemma(kind: str, folder: Path, seed: int = 0, **over) -> torch.nn.Module:
    """Save a tiny random "gemma2" or "gemma3_text" model to folder (eager attention); returns it."""
    import transformers as tf

    folder.mkdir(parents=True, exist_ok=True)
    if kind == "gemma2":
        model = tf.Gemma2ForCausalLM(tf.Gemma2Config(**{**BASE, **GEMMA2, **over}))
    elif kind == "gemma3_text":
        model = tf.Gemma3ForCausalLM(tf.Gemma3TextConfig(**{**BASE, **GEMMA3, **over}))
    else:
        raise ValueError(kind)
    redraw(model, seed)
    with torch.no_grad():  # Gemma's RMSNorm gains are zero-centred (it scales by 1 + w): w ~ 0 ± 0.2
        for name, p in model.named_parameters():
            if p.dim() == 1 and "norm" in name:
                p.sub_(1.0)
    save_eager(model, folder)
    byte_bpe_tokenizer(folder, bos=True)  # Gemma's tokenizer puts <bos> first
    return model
