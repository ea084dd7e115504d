"""GPT-2: config.json -> ModelConfig and its tensor names -> ours.

GPT-2's Conv1D stores weights as [in, out]: transposed here to nn.Linear's [out, in], and its fused c_attn
is split into q, k, v (stacked whole: all q rows, then all k, then all v).
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import UnsupportedModel, _act


def gpt2_config(c: dict) -> ModelConfig:
    if c.get("scale_attn_by_inverse_layer_idx"):
        raise UnsupportedModel("scale_attn_by_inverse_layer_idx=true is not supported")
    d = c["n_embd"]
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["n_layer"], d_model=d, n_heads=c["n_head"],
        d_ff=c.get("n_inner") or 4 * d, norm_position="pre", norm="layernorm",
        activation=_act(c.get("activation_function", "gelu_new")), positional="learned",
        max_len=c["n_positions"], tie_embeddings=c.get("tie_word_embeddings", True), bias=True,
        norm_eps=c.get("layer_norm_epsilon", 1e-5), embed_scale=False,
    )  # fmt: skip


GPT2_LAYER = {
    "ln_1": "norm_self",
    "ln_2": "norm_ffn",
    "attn.c_proj": "self_attn.o",
    "mlp.c_fc": "ffn.w1",
    "mlp.c_proj": "ffn.w2",
}


def gpt2_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    name = name.removeprefix("transformer.")
    top = {"wte.weight": "tok_emb.weight", "wpe.weight": "pos_emb.weight", "ln_f.weight": "dec_norm.weight",
           "ln_f.bias": "dec_norm.bias", "lm_head.weight": "head.weight"}  # fmt: skip
    if name in top:
        return [] if (name == "lm_head.weight" and cfg.tie_embeddings) else [(top[name], t)]
    parts = name.split(".")
    if parts[0] != "h":
        return []
    i, rest = parts[1], ".".join(parts[2:])
    if rest in ("attn.bias", "attn.masked_bias"):
        return []  # old checkpoints store the causal mask as a buffer
    module, kind = rest.rsplit(".", 1)
    linear = module in ("attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")
    if linear and kind == "weight":
        t = t.T  # Conv1D [in, out] -> Linear [out, in]
    if module == "attn.c_attn":
        q, k, v = t.chunk(3, dim=0)
        return [(f"decoder.{i}.self_attn.{p}.{kind}", x) for p, x in zip("qkv", (q, k, v), strict=True)]
    if module not in GPT2_LAYER:
        return []
    return [(f"decoder.{i}.{GPT2_LAYER[module]}.{kind}", t)]
