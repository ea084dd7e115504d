"""Gemma 2 and Gemma 3 (text): config.json -> ModelConfig and their tensor names -> ours.

What sets them apart from Llama (each a ModelConfig option, models/config.py):
- Four RMSNorms a block, one before AND one after each sublayer: x + post(f(pre(x))) (norm_position="sandwich";
  input_layernorm / post_attention_layernorm around attention, pre_ / post_feedforward_layernorm around the MLP).
- Every RMSNorm scales by (1 + w) with w stored zero-centred: the loader adds 1 to each gain once, so our
  RMSNorm x·rsqrt(mean(x²) + eps)·g is Gemma's x·rsqrt(mean(x²) + eps)·(1 + w), eps inside the root as theirs.
- Embeddings × √hidden_size (embed_scale), a GeGLU MLP: down(GELU_tanh(gate(x)) ⊙ up(x)) (activation="geglu"),
  the scale on q·k is query_pre_attn_scalar^-½ (attn_scale), not head_dim^-½, and head_dim is set on its own.
- Sliding and full layers (layer_types): a sliding layer sees only the last sliding_window positions.
  Gemma 2 alternates them (sliding first); Gemma 3 has five sliding layers to one full one, and two RoPE bases:
  10⁴ for the sliding layers (rope_local_base), 10⁶ for the full ones (rope_base).
- Gemma 2 soft-caps the attention scores before the mask, cap·tanh(s / cap) (attn_softcap, 50), and the logits
  (final_softcap, 30). Gemma 3 drops both and instead normalises each head's q and k ((1 + w) RMSNorms, qk_norm).
RoPE pairs i with i + d_head/2 as in Llama: the q and k rows (and Gemma 3's q/k norm gains) are permuted at load.

Not here: "gemma3" (Gemma3ForConditionalGeneration, the multimodal 4B-27B): its text part is nested under
text_config and its full layers use linear RoPE scaling (factor 8), which this app does not implement.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import ACTIVATIONS, MAX_TOKENS, UnsupportedModel, half_to_interleaved, rope_settings

LABELS = {"gemma2": "Gemma 2", "gemma3_text": "Gemma 3"}
# transformers' Gemma2Config / Gemma3TextConfig defaults, for keys a config.json leaves out
HEAD_DIM, QUERY_PRE_ATTN_SCALAR, SLIDING_WINDOW = 256, 256, 4096
SOFTCAPS = {"gemma2": (50.0, 30.0), "gemma3_text": (None, None)}  # (attention, final logits)
GEMMA3_THETA = {"full_attention": 1_000_000.0, "sliding_attention": 10_000.0}
GEMMA3_PATTERN = 6  # sliding_window_pattern: every 6th layer is full


def layer_kinds(c: dict, kind: str) -> tuple[str, ...]:
    """layer_types as published, else transformers' default: Gemma 2 alternates sliding, full, ...; Gemma 3 makes
    every sliding_window_pattern-th layer (6th) full."""
    n = c["num_hidden_layers"]
    if c.get("layer_types"):
        kinds = tuple(c["layer_types"])
        unknown = sorted(set(kinds) - set(GEMMA3_THETA))
        if unknown or len(kinds) != n:
            raise UnsupportedModel(f"layer_types {kinds} must name {n} layers, each full_ or sliding_attention")
        return kinds
    every = 2 if kind == "gemma2" else int(c.get("sliding_window_pattern") or GEMMA3_PATTERN)
    return tuple("sliding_attention" if (i + 1) % every else "full_attention" for i in range(n))


def _default_rope(params: dict | None, what: str) -> None:
    kind = (params or {}).get("rope_type", (params or {}).get("type", "default"))
    if kind != "default":
        raise UnsupportedModel(f"RoPE scaling {kind!r} of the {what} layers is not supported (default RoPE is)")


def gemma3_rope(c: dict) -> tuple[float, float]:
    """(θ of the full layers, θ of the sliding layers). Published two ways: nested rope_parameters
    {sliding_attention: {rope_theta: 1e4}, full_attention: {rope_theta: 1e6}} (transformers >= 5), or top-level
    rope_theta (full) and rope_local_base_freq (sliding) with rope_scaling (full layers only)."""
    params = c.get("rope_parameters") or {}
    if set(params) & set(GEMMA3_THETA):
        full, local = params.get("full_attention") or {}, params.get("sliding_attention") or {}
    else:  # older files: top-level keys (a flat rope_parameters, if any, is the full layers')
        full, local = {**(c.get("rope_scaling") or {}), **params}, {}
    _default_rope(full, "full")
    _default_rope(local, "sliding")
    theta = float(full.get("rope_theta", c.get("rope_theta", GEMMA3_THETA["full_attention"])))
    local_theta = float(local.get("rope_theta", c.get("rope_local_base_freq", GEMMA3_THETA["sliding_attention"])))
    return theta, local_theta


def gemma_config(c: dict) -> ModelConfig:
    kind = c.get("model_type")
    if kind not in LABELS:
        raise UnsupportedModel(f"model_type {kind!r} is not a Gemma text model (gemma2, gemma3_text)")
    label = LABELS[kind]
    act = c.get("hidden_activation") or c.get("hidden_act") or "gelu_pytorch_tanh"
    if ACTIVATIONS.get(act) != "gelu_tanh":
        raise UnsupportedModel(f"hidden_activation={act!r}: {label}'s gated MLP here is GeGLU with gelu_pytorch_tanh")
    if c.get("attention_bias"):
        raise UnsupportedModel(f"{label} with attention_bias=true is not supported")
    if c.get("use_bidirectional_attention"):
        raise UnsupportedModel(f"{label} with use_bidirectional_attention=true (an encoder) is not supported")
    d, heads = c["hidden_size"], c["num_attention_heads"]
    head_dim = c.get("head_dim") or HEAD_DIM
    kinds = layer_kinds(c, kind)
    window = c.get("sliding_window", SLIDING_WINDOW) if "sliding_attention" in kinds else None
    if "sliding_attention" in kinds and not window:
        raise UnsupportedModel(f"{label}: layer_types has sliding layers but sliding_window is {window!r}")
    if kind == "gemma2":
        theta, scaling = rope_settings(c)
        if scaling is not None:
            raise UnsupportedModel("RoPE scaling is not supported for Gemma 2 (default RoPE is)")
        local_theta = None
    else:
        theta, local_theta = gemma3_rope(c)
    attn_cap, final_cap = SOFTCAPS[kind]
    attn_cap = c.get("attn_logit_softcapping", attn_cap)
    final_cap = c.get("final_logit_softcapping", final_cap)
    sliding = window is not None
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=d, n_heads=heads,
        n_kv_heads=c.get("num_key_value_heads") or heads, d_ff=c["intermediate_size"], norm_position="sandwich",
        norm="rmsnorm", activation="geglu", positional="rope",
        attn_scale=float(c.get("query_pre_attn_scalar", QUERY_PRE_ATTN_SCALAR)) ** -0.5,
        max_len=min(c.get("max_position_embeddings", MAX_TOKENS), MAX_TOKENS),
        tie_embeddings=bool(c.get("tie_word_embeddings", True)), norm_eps=c.get("rms_norm_eps", 1e-6),
        embed_scale=True, rope_base=theta, sliding_window=window, qk_norm=kind == "gemma3_text",
        head_dim=None if head_dim * heads == d else head_dim,
        layer_types=kinds if sliding else None,  # every layer full: the plain causal model
        rope_local_base=local_theta if sliding and local_theta != theta else None,
        attn_softcap=None if attn_cap is None else float(attn_cap),
        final_softcap=None if final_cap is None else float(final_cap),
    )  # fmt: skip


GEMMA_LAYER = {
    "self_attn.q_proj": "self_attn.q",
    "self_attn.k_proj": "self_attn.k",
    "self_attn.v_proj": "self_attn.v",
    "self_attn.o_proj": "self_attn.o",
    "self_attn.q_norm": "self_attn.q_norm",  # Gemma 3
    "self_attn.k_norm": "self_attn.k_norm",
    "mlp.gate_proj": "ffn.w1",
    "mlp.up_proj": "ffn.w3",
    "mlp.down_proj": "ffn.w2",
    "input_layernorm": "norm_self",
    "post_attention_layernorm": "post_self",
    "pre_feedforward_layernorm": "norm_ffn",
    "post_feedforward_layernorm": "post_ffn",
}
ROTATED = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.q_norm", "self_attn.k_norm")
NORMS = ("self_attn.q_norm", "self_attn.k_norm", "input_layernorm", "post_attention_layernorm",
         "pre_feedforward_layernorm", "post_feedforward_layernorm")  # fmt: skip


def gemma_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    """Gemma's tensor names -> ours; every RMSNorm gain w -> 1 + w (Gemma's norms scale by (1 + w))."""
    if name == "model.embed_tokens.weight":
        return [("tok_emb.weight", t)]
    if name == "model.norm.weight":
        return [("dec_norm.weight", 1.0 + t)]
    if name == "lm_head.weight":
        return [] if cfg.tie_embeddings else [("head.weight", t)]
    parts = name.split(".")
    if parts[:2] != ["model", "layers"]:
        return []
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    if module not in GEMMA_LAYER:
        return []
    if module in NORMS:
        t = 1.0 + t
    if module in ROTATED:  # rotate-half pairs -> ours; the q/k norm gains [d_head] move with their dimensions
        t = half_to_interleaved(t, cfg.d_head)
    return [(f"decoder.{i}.{GEMMA_LAYER[module]}.{kind}", t)]
