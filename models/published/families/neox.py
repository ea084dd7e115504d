"""GPT-NeoX (Pythia): config.json -> ModelConfig and its tensor names -> ours.

Three things set it apart from Llama:
- Parallel residual (use_parallel_residual, GPT-J's design): x + attn(ln1(x)) + mlp(ln2(x)), two LayerNorms of
  the same x, instead of one sublayer after the other (ModelConfig.parallel_residual). false is plain pre-norm.
- Partial rotary: RoPE turns only the first rotary_pct (Pythia: 1/4) of each head's dimensions, with frequencies
  over that width; the rest carry no position (ModelConfig.rotary_dim). The rotate-half -> interleaved
  permutation (common.half_to_interleaved) applies to that slice only; the pass-through dims keep their place.
- One fused query_key_value matrix laid out per head: transformers views its output as [heads, 3·head_dim] and
  chunks the last axis, so its rows are head 0's q, k, v, then head 1's, ... (not GPT-2's all-q, all-k, all-v).
Biases everywhere, exact-erf GELU, an untied output matrix (embed_out) by default.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import MAX_TOKENS, UnsupportedModel, _act, half_to_interleaved, rope_settings

DEFAULT_ROTARY_PCT = 0.25  # transformers' GPTNeoXConfig default when config.json gives none


def neox_config(c: dict) -> ModelConfig:
    d, heads = c["hidden_size"], c["num_attention_heads"]
    if d % heads:
        raise UnsupportedModel(f"hidden_size={d} is not divisible by num_attention_heads={heads}")
    head = d // heads
    params = c.get("rope_parameters") or c.get("rope_scaling") or {}
    pct = params.get("partial_rotary_factor", c.get("partial_rotary_factor", c.get("rotary_pct", DEFAULT_ROTARY_PCT)))
    rotary = int(head * pct)  # as transformers: rotary_ndims = int(head_size * partial_rotary_factor)
    if rotary < 2 or rotary % 2:
        raise UnsupportedModel(
            f"rotary_pct={pct} of head_dim {head} gives {rotary} rotated dims: RoPE turns pairs, it needs an even "
            "number >= 2"
        )
    if c.get("attention_bias", True) is False:
        raise UnsupportedModel("attention_bias=false is not supported: GPT-NeoX's MLP keeps its biases")
    if "rope_theta" not in params and "rope_theta" not in c:  # the original files: rotary_emb_base
        c = {**c, "rope_theta": float(c.get("rotary_emb_base", 10000.0))}
    theta, scaling = rope_settings(c)
    if scaling is not None:
        raise UnsupportedModel("RoPE scaling is not supported for GPT-NeoX (default RoPE is)")
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=d, n_heads=heads,
        d_ff=c["intermediate_size"], norm_position="pre", norm="layernorm", positional="rope",
        activation=_act(c.get("hidden_act", "gelu")), max_len=min(c["max_position_embeddings"], MAX_TOKENS),
        tie_embeddings=bool(c.get("tie_word_embeddings", False)), bias=True, norm_eps=c.get("layer_norm_eps", 1e-5),
        embed_scale=False, rope_base=theta, rotary_dim=None if rotary == head else rotary,
        parallel_residual=bool(c.get("use_parallel_residual", True)),
    )  # fmt: skip


NEOX_LAYER = {
    "input_layernorm": "norm_self",
    "post_attention_layernorm": "norm_ffn",
    "attention.dense": "self_attn.o",
    "mlp.dense_h_to_4h": "ffn.w1",
    "mlp.dense_4h_to_h": "ffn.w2",
}
NEOX_TOP = {
    "gpt_neox.embed_in.weight": "tok_emb.weight",
    "gpt_neox.final_layer_norm.weight": "dec_norm.weight",
    "gpt_neox.final_layer_norm.bias": "dec_norm.bias",
    "embed_out.weight": "head.weight",
}


def split_qkv(t: torch.Tensor, n_heads: int, d_head: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """query_key_value's weight [heads·3·dh, d] (or bias [heads·3·dh]), rows per head [q | k | v] -> q, k, v,
    each [heads·dh, ...] with head h at rows h·dh.. as our projections have them."""
    rest = t.shape[1:]
    per_head = t.reshape(n_heads, 3, d_head, *rest)
    q, k, v = (per_head[:, j].reshape(n_heads * d_head, *rest) for j in range(3))
    return q, k, v


def neox_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    if name in NEOX_TOP:
        return [] if (name == "embed_out.weight" and cfg.tie_embeddings) else [(NEOX_TOP[name], t)]
    parts = name.split(".")
    if parts[:2] != ["gpt_neox", "layers"]:
        return []
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    if module == "attention.query_key_value":
        q, k, v = split_qkv(t, cfg.n_heads, cfg.d_head)
        q, k = (half_to_interleaved(x, cfg.d_head, cfg.rope_dims) for x in (q, k))  # the rotated slice only
        return [(f"decoder.{i}.self_attn.{p}.{kind}", x) for p, x in zip("qkv", (q, k, v), strict=True)]
    # attention.bias / masked_bias (old causal-mask buffers) and rotary_emb.inv_freq are formulas: skipped
    return [(f"decoder.{i}.{NEOX_LAYER[module]}.{kind}", t)] if module in NEOX_LAYER else []
