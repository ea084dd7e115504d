"""GPT-1 (openai-gpt, Radford et al. 2018): config.json -> ModelConfig and its tensor names -> ours.

GPT-2's tensors (Conv1D [in, out], a fused c_attn), but Vaswani's post-norm block: ln_1 normalises x + attn(x)
and ln_2 normalises that plus the MLP's output, with no final norm and no LayerNorm on the embeddings. Token and
learned position embeddings are added unscaled; the output matrix is the token embedding. Its `afn` "gelu" is
transformers' gelu_new (the tanh form): ACT_FNS in modeling_openai.py.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import UnsupportedModel
from .gpt2 import gpt2_rename

AFN = {"gelu": "gelu_tanh", "relu": "relu", "silu": "silu", "swish": "silu"}  # modeling_openai.ACT_FNS


def gpt1_config(c: dict) -> ModelConfig:
    afn = c.get("afn", "gelu")
    if afn not in AFN:
        raise UnsupportedModel(f"afn={afn!r} is not supported (known: {', '.join(AFN)})")
    if c.get("tie_word_embeddings", True) is False:
        raise UnsupportedModel("openai-gpt with tie_word_embeddings=false is not supported: its head is the embedding")
    d = c["n_embd"]
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["n_layer"], d_model=d, n_heads=c["n_head"],
        d_ff=4 * d, norm_position="post", norm="layernorm", activation=AFN[afn], positional="learned",
        max_len=c["n_positions"], tie_embeddings=True, bias=True, norm_eps=c.get("layer_norm_epsilon", 1e-5),
        embed_scale=False,
    )  # fmt: skip


TOP = {"tokens_embed.weight": "tok_emb.weight", "positions_embed.weight": "pos_emb.weight"}


def gpt1_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    """transformer.tokens_embed / positions_embed / h.i.* (the original files: without "transformer.");
    the blocks' tensors are GPT-2's (ln_1 -> norm_self, ln_2 -> norm_ffn: in a post-norm block each norm
    follows its sublayer's residual). lm_head.weight is the tied embedding: skipped."""
    name = name.removeprefix("transformer.")
    if name in TOP:
        return [(TOP[name], t)]
    return gpt2_rename(name, t, cfg) if name.startswith("h.") else []
