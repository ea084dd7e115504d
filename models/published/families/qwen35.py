"""Qwen3.5 (text): config.json -> ModelConfig and its tensor names -> ours.

Published as Qwen3_5ForConditionalGeneration (model_type "qwen3_5"): the text model's settings under text_config,
its weights under model.language_model.*, lm_head.weight at the top level; the vision tower (model.visual.*) and the
multi-token-prediction head (mtp.*) are skipped. A text-only folder (Qwen3_5ForCausalLM, "qwen3_5_text": settings at
the top, weights under model.*) reads the same.

What sets it apart from Qwen3 (models/config.py options):
- A hybrid: layer_types mixes "linear_attention" (Gated DeltaNet, models/core/linear_attention.py; by default three of
  every four layers) with "full_attention" (softmax) layers.
- The softmax layers gate their output: q_proj gives each head [query | gate] (2·head_dim rows a head), and the
  head's output is multiplied by sigmoid(gate) before o_proj (attn_output_gate; the gate rows become self_attn.gate).
- head_dim 256, RoPE on the first quarter of each head (partial_rotary_factor 0.25, rotary_dim); its M-RoPE is
  plain 1-D RoPE for text, whose three position ids (time, height, width) are equal.
- Every RMSNorm scales by (1 + w) with w stored zero-centred (the loader adds 1, as for Gemma), except the gated
  norm inside the linear layers (linear_attn.norm), which scales by plain w.
RoPE pairs i with i + rotary_dim/2 as in Llama: the query rows, k rows and q/k norm gains are permuted at load.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import MAX_TOKENS, UnsupportedModel, half_to_interleaved

# transformers' Qwen3_5TextConfig defaults, for keys a config.json leaves out
HEAD_DIM, PARTIAL_ROTARY, FULL_EVERY, CONV_KERNEL = 256, 0.25, 4, 4
LINEAR = {"linear_num_key_heads": 16, "linear_num_value_heads": 32, "linear_key_head_dim": 128,
          "linear_value_head_dim": 128}  # fmt: skip
KINDS = ("linear_attention", "full_attention")


def text_config(c: dict) -> dict:
    """The text model's settings: text_config of the published multimodal wrapper, or the file itself."""
    return c.get("text_config") or c if c.get("model_type") == "qwen3_5" else c


def _rope(t: dict) -> tuple[float, float]:
    """(θ, partial rotary factor). Default RoPE or M-RoPE (mrope_section: for text the same 1-D rotation)."""
    params = t.get("rope_parameters") or t.get("rope_scaling") or {}
    kind = params.get("rope_type", params.get("type", "default"))
    if kind not in ("default", "mrope"):
        raise UnsupportedModel(f"Qwen3.5 RoPE scaling {kind!r} is not supported (default and M-RoPE are)")
    theta = float(params.get("rope_theta", t.get("rope_theta", 10000.0)))
    return theta, float(params.get("partial_rotary_factor", t.get("partial_rotary_factor", PARTIAL_ROTARY)))


def qwen35_config(c: dict) -> ModelConfig:
    t = text_config(c)
    n = t["num_hidden_layers"]
    every = int(t.get("full_attention_interval", FULL_EVERY))
    kinds = tuple(t.get("layer_types") or ("full_attention" if (i + 1) % every == 0 else "linear_attention"
                                           for i in range(n)))  # fmt: skip
    if len(kinds) != n or set(kinds) - set(KINDS):
        raise UnsupportedModel(f"layer_types {list(kinds)} must name {n} layers, each linear_ or full_attention")
    if t.get("hidden_act", "silu") != "silu":
        raise UnsupportedModel(f"hidden_act={t['hidden_act']!r}: Qwen3.5's MLP and short conv here use SiLU")
    if t.get("attention_bias"):
        raise UnsupportedModel("Qwen3.5 with attention_bias=true is not supported")
    if t.get("num_experts") or t.get("num_local_experts"):
        raise UnsupportedModel("Qwen3.5-MoE (its experts) is not supported; the dense Qwen3.5 is")
    d, heads = t["hidden_size"], t["num_attention_heads"]
    head_dim = t.get("head_dim") or HEAD_DIM
    theta, partial = _rope(t)
    rotary = int(head_dim * partial)
    tie = c.get("tie_word_embeddings", False)  # the wrapper's own flag ties (transformers' ForConditionalGeneration)
    lin = {k: int(t.get(k, v)) for k, v in LINEAR.items()}
    return ModelConfig(
        arch="decoder", vocab_size=t["vocab_size"], n_layers=n, d_model=d, n_heads=heads,
        n_kv_heads=t.get("num_key_value_heads") or heads, d_ff=t["intermediate_size"], norm_position="pre",
        norm="rmsnorm", activation="swiglu", positional="rope",
        max_len=min(t.get("max_position_embeddings", MAX_TOKENS), MAX_TOKENS), tie_embeddings=bool(tie),
        norm_eps=t.get("rms_norm_eps", 1e-6), embed_scale=False, rope_base=theta, qk_norm=True,
        head_dim=None if head_dim * heads == d else head_dim, rotary_dim=rotary if rotary < head_dim else None,
        layer_types=kinds, attn_output_gate=True, linear_key_heads=lin["linear_num_key_heads"],
        linear_value_heads=lin["linear_num_value_heads"], linear_key_dim=lin["linear_key_head_dim"],
        linear_value_dim=lin["linear_value_head_dim"],
        linear_conv_kernel=int(t.get("linear_conv_kernel_dim", CONV_KERNEL)),
    )  # fmt: skip


LAYER = {
    "self_attn.k_proj": "self_attn.k",
    "self_attn.v_proj": "self_attn.v",
    "self_attn.o_proj": "self_attn.o",
    "self_attn.q_norm": "self_attn.q_norm",
    "self_attn.k_norm": "self_attn.k_norm",
    "linear_attn.in_proj_qkv": "self_attn.qkv",
    "linear_attn.in_proj_z": "self_attn.z",
    "linear_attn.in_proj_b": "self_attn.b",
    "linear_attn.in_proj_a": "self_attn.a",
    "linear_attn.out_proj": "self_attn.o",
    "linear_attn.norm": "self_attn.norm",  # the gated norm: plain w
    "mlp.gate_proj": "ffn.w1",
    "mlp.up_proj": "ffn.w3",
    "mlp.down_proj": "ffn.w2",
    "input_layernorm": "norm_self",
    "post_attention_layernorm": "norm_ffn",
}
ZERO_CENTRED = ("input_layernorm", "post_attention_layernorm", "self_attn.q_norm", "self_attn.k_norm")
ROTATED = ("self_attn.k_proj", "self_attn.q_norm", "self_attn.k_norm")


def qwen35_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    """Qwen3.5's tensor names -> ours: (1 + w) norm gains, q_proj split into query and gate, RoPE rows permuted."""
    if name == "lm_head.weight":
        return [] if cfg.tie_embeddings else [("head.weight", t)]
    prefix = next((p for p in ("model.language_model.", "model.") if name.startswith(p)), None)
    if prefix is None or name.startswith("model.visual."):
        return []  # the vision tower, mtp.* (multi-token prediction)
    rest = name[len(prefix) :]
    if rest == "embed_tokens.weight":
        return [("tok_emb.weight", t)]
    if rest == "norm.weight":
        return [("dec_norm.weight", 1.0 + t)]
    parts = rest.split(".")
    if parts[0] != "layers":
        return []
    i, module, kind = parts[1], ".".join(parts[2:-1]), parts[-1]
    ours = f"decoder.{i}.self_attn"
    if module == "self_attn.q_proj":  # per head [query | gate]: 2·head_dim rows a head
        h, dh = cfg.n_heads, cfg.d_head
        both = t.reshape(h, 2, dh, *t.shape[1:])
        query = half_to_interleaved(both[:, 0].reshape(h * dh, *t.shape[1:]), dh, cfg.rope_dims)
        return [(f"{ours}.q.{kind}", query), (f"{ours}.gate.{kind}", both[:, 1].reshape(h * dh, *t.shape[1:]))]
    if module == "linear_attn.conv1d":
        return [(f"{ours}.conv", t.reshape(t.shape[0], -1))]  # [C, 1, K] -> [C, K]
    if module == "linear_attn" and kind in ("dt_bias", "A_log"):
        return [(f"{ours}.{kind}", t)]
    if module not in LAYER:
        return []
    if module in ZERO_CENTRED:
        t = 1.0 + t
    if module in ROTATED:
        t = half_to_interleaved(t, cfg.d_head, cfg.rope_dims)
    return [(f"decoder.{i}.{LAYER[module]}.{kind}", t)]
