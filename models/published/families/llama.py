"""Llama, Qwen2, Mistral and Qwen3: config.json -> ModelConfig and their tensor names -> ours.

One mapping for the four: pre-norm RMSNorm blocks, SwiGLU, RoPE, GQA. They differ in a few switches:
Qwen2 has biases on q, k, v only; Mistral a sliding window; Qwen3 normalises each head's q and k (RMSNorm over
head_dim, before RoPE) and sets head_dim on its own (Qwen3-0.6B: 16 heads × 128 on a 1024-wide stream).

Their RoPE pairs dimension i with i + d_head/2 ("rotate half"); the loader permutes the rows of the q and k
projections to our interleaved pairs (common.half_to_interleaved), and Qwen3's q_norm / k_norm gains with them:
the norm's statistics run over the whole head, so permuting the head's dimensions and the gain together
gives the published model's q and k, permuted, and q·k is unchanged.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import MAX_TOKENS, UnsupportedModel, half_to_interleaved, rope_settings

LABELS = {"llama": "Llama", "qwen2": "Qwen2", "mistral": "Mistral", "qwen3": "Qwen3"}
QWEN3_HEAD_DIM = 128  # transformers' Qwen3Config default, when config.json does not say


def llama_config(c: dict) -> ModelConfig:
    kind = c.get("model_type")
    label = LABELS.get(kind, "Llama")
    d, heads = c["hidden_size"], c["num_attention_heads"]
    head_dim = c.get("head_dim") or (QWEN3_HEAD_DIM if kind == "qwen3" else d // heads)
    if c.get("hidden_act", "silu") != "silu":
        raise UnsupportedModel(f"hidden_act={c['hidden_act']!r}: the gated FFN here is SwiGLU (SiLU)")
    attention_bias, mlp_bias = bool(c.get("attention_bias")), bool(c.get("mlp_bias"))
    if kind == "qwen3" and attention_bias:
        raise UnsupportedModel("Qwen3 with attention_bias=true (biases on q, k, v and o, not the MLP) is not supported")
    if attention_bias != mlp_bias:
        raise UnsupportedModel("attention_bias and mlp_bias differ; this app has one bias switch for both")
    window = c.get("sliding_window") if kind == "mistral" else None
    if kind in ("qwen2", "qwen3"):
        if c.get("use_sliding_window"):
            raise UnsupportedModel(f"{label} with use_sliding_window=true is not supported")
        other = sorted(set(c.get("layer_types") or []) - {"full_attention"})
        if other:
            raise UnsupportedModel(f"{label} layer_types {other} are not supported: every layer must be full_attention")
    theta, llama3 = rope_settings(c)
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=d, n_heads=heads,
        n_kv_heads=c.get("num_key_value_heads") or heads, d_ff=c["intermediate_size"], norm_position="pre",
        norm="rmsnorm", activation="swiglu", positional="rope", max_len=min(c["max_position_embeddings"], MAX_TOKENS),
        tie_embeddings=bool(c.get("tie_word_embeddings", False)), bias=attention_bias, qkv_bias=kind == "qwen2",
        norm_eps=c.get("rms_norm_eps", 1e-6), embed_scale=False, rope_base=theta, rope_llama3=llama3,
        sliding_window=window, qk_norm=kind == "qwen3",
        head_dim=None if head_dim * heads == d else head_dim,  # None: d / heads, and the config's dict as before
    )  # fmt: skip


LLAMA_LAYER = {
    "self_attn.q_proj": "self_attn.q",
    "self_attn.k_proj": "self_attn.k",
    "self_attn.v_proj": "self_attn.v",
    "self_attn.o_proj": "self_attn.o",
    "self_attn.q_norm": "self_attn.q_norm",  # Qwen3
    "self_attn.k_norm": "self_attn.k_norm",
    "mlp.gate_proj": "ffn.w1",
    "mlp.up_proj": "ffn.w3",
    "mlp.down_proj": "ffn.w2",
    "input_layernorm": "norm_self",
    "post_attention_layernorm": "norm_ffn",
}
ROTATED = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.q_norm", "self_attn.k_norm")


def llama_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    top = {"model.embed_tokens.weight": "tok_emb.weight", "model.norm.weight": "dec_norm.weight",
           "lm_head.weight": "head.weight"}  # fmt: skip
    if name in top:
        return [] if (name == "lm_head.weight" and cfg.tie_embeddings) else [(top[name], t)]
    parts = name.split(".")
    if parts[:2] != ["model", "layers"] or "rotary_emb" in name:
        return []
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    if module not in LLAMA_LAYER:
        return []
    if module in ROTATED:  # rotate-half pairs -> ours; the q/k norm gains [d_head] move with their dimensions
        t = half_to_interleaved(t, cfg.d_head)
    return [(f"decoder.{i}.{LLAMA_LAYER[module]}.{kind}", t)]
