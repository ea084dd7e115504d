"""OLMo 2 (Olmo2ForCausalLM): config.json -> ModelConfig and its tensor names -> ours.

Llama's tensors and SwiGLU, but no norm before a sublayer: each adds RMSNorm(f(x)) to the stream
(norm_position="post_sub": post_attention_layernorm -> norm_self, post_feedforward_layernorm -> norm_ffn), and
a final model.norm. q and k are RMS-normalised over the WHOLE projection (q_norm: n_heads·head_dim gains, k_norm:
n_kv·head_dim), before the heads are split and before RoPE (qk_norm_scope="all"). Its statistics run over every
row of q (of k), so permuting the rows head by head to our RoPE pairs, and the gains with them, is exact.
"""

from __future__ import annotations

import dataclasses

import torch

from ...config import ModelConfig
from .common import UnsupportedModel
from .llama import llama_config, llama_rename

POST_NORMS = {"post_attention_layernorm": "norm_self", "post_feedforward_layernorm": "norm_ffn"}


def olmo2_config(c: dict) -> ModelConfig:
    if c.get("attention_bias"):
        raise UnsupportedModel(
            "OLMo 2 with attention_bias=true (biases on q, k, v, o; none in the MLP) is not supported"
        )
    cfg = llama_config({**c, "model_type": "llama", "mlp_bias": False})
    return dataclasses.replace(cfg, norm_position="post_sub", qk_norm=True, qk_norm_scope="all")


def olmo2_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    parts = name.split(".")
    if parts[:2] == ["model", "layers"] and len(parts) == 5 and parts[3] in POST_NORMS:
        return [(f"decoder.{parts[2]}.{POST_NORMS[parts[3]]}.{parts[4]}", t)]
    # the rest as Llama's: q_proj, k_proj and q_norm / k_norm (1-D, heads·head_dim) permuted head by head
    return llama_rename(name, t, cfg)
