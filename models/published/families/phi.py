"""Phi (phi-1, phi-1.5, phi-2; PhiForCausalLM): config.json -> ModelConfig and its tensor names -> ours.

A parallel block with ONE LayerNorm: x + attn(ln(x)) + mlp(ln(x)) (ModelConfig.shared_block_norm; GPT-NeoX
has two norms there). Partial rotary as Pythia (partial_rotary_factor, phi-2: 0.4 of 80 dims): the rotate-half
-> interleaved permutation (common.half_to_interleaved) applies to that slice of q and k only. Biases on every
projection and on the logits (lm_head), gelu_new, a final LayerNorm, an untied head by default. qk_layernorm
(a LayerNorm over each head's q and k before RoPE) maps to qk_norm; its gain and bias move with the q/k rows.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import MAX_TOKENS, UnsupportedModel, _act, half_to_interleaved, rope_settings

DEFAULT_PARTIAL_ROTARY = 0.5  # transformers' PhiConfig default


def phi_config(c: dict) -> ModelConfig:
    d, heads = c["hidden_size"], c["num_attention_heads"]
    head = c.get("head_dim") or d // heads
    params = c.get("rope_parameters") or c.get("rope_scaling") or {}
    pct = params.get("partial_rotary_factor", c.get("partial_rotary_factor", DEFAULT_PARTIAL_ROTARY))
    rotary = int(head * pct)  # as transformers: int(head_dim * partial_rotary_factor)
    if rotary < 2 or rotary % 2:
        raise UnsupportedModel(
            f"partial_rotary_factor={pct} of head_dim {head} gives {rotary} rotated dims: RoPE turns pairs, it needs "
            "an even number >= 2"
        )
    qk_norm = bool(c.get("qk_layernorm", False))
    if qk_norm and head * heads != d:
        raise UnsupportedModel("qk_layernorm with head_dim != hidden_size / heads is not supported")
    theta, scaling = rope_settings(c)
    if scaling is not None:
        raise UnsupportedModel("RoPE scaling is not supported for Phi (default RoPE is)")
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=d, n_heads=heads,
        n_kv_heads=c.get("num_key_value_heads") or heads, d_ff=c["intermediate_size"], norm_position="pre",
        norm="layernorm", activation=_act(c.get("hidden_act", "gelu_new")), positional="rope",
        max_len=min(c["max_position_embeddings"], MAX_TOKENS), tie_embeddings=bool(c.get("tie_word_embeddings", False)),
        bias=True, head_bias=True, norm_eps=c.get("layer_norm_eps", 1e-5), embed_scale=False, rope_base=theta,
        rotary_dim=None if rotary == head else rotary, head_dim=None if head * heads == d else head,
        parallel_residual=True, shared_block_norm=True, qk_norm=qk_norm,
    )  # fmt: skip


PHI_LAYER = {
    "self_attn.q_proj": "self_attn.q",
    "self_attn.k_proj": "self_attn.k",
    "self_attn.v_proj": "self_attn.v",
    "self_attn.dense": "self_attn.o",
    "self_attn.q_layernorm": "self_attn.q_norm",
    "self_attn.k_layernorm": "self_attn.k_norm",
    "mlp.fc1": "ffn.w1",
    "mlp.fc2": "ffn.w2",
    "input_layernorm": "norm_self",
}
ROTATED = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.q_layernorm", "self_attn.k_layernorm")
PHI_TOP = {
    "model.embed_tokens.weight": "tok_emb.weight",
    "model.final_layernorm.weight": "dec_norm.weight",
    "model.final_layernorm.bias": "dec_norm.bias",
    "lm_head.weight": "head.weight",
    "lm_head.bias": "head.bias",
}


def phi_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    if name in PHI_TOP:
        return [] if (name == "lm_head.weight" and cfg.tie_embeddings) else [(PHI_TOP[name], t)]
    parts = name.split(".")
    if parts[:2] != ["model", "layers"] or "rotary_emb" in name:
        return []
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    if module not in PHI_LAYER:
        return []
    if module in ROTATED:  # rows (and the per-head norm's gain and bias) of the rotated slice -> our pairs
        t = half_to_interleaved(t, cfg.d_head, cfg.rope_dims)
    return [(f"decoder.{i}.{PHI_LAYER[module]}.{kind}", t)]
