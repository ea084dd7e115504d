"""Marian (opus-mt): config.json -> ModelConfig and its tensor names -> ours.

An encoder-decoder with post-norm blocks, scaled embeddings, SiLU ("swish") in a two-matrix FFN and a
sinusoidal table in Marian/fairseq's layout (every sine first, then every cosine: pe_layout="half"). The
table is a formula, rebuilt, never read from the file; one embedding matrix serves encoder, decoder and head.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import MAX_TOKENS, UnsupportedModel, _act


def marian_config(c: dict) -> ModelConfig:
    if c["encoder_layers"] != c["decoder_layers"] or c["encoder_attention_heads"] != c["decoder_attention_heads"]:
        raise UnsupportedModel("encoder and decoder of different depth or heads are not supported")
    if c.get("encoder_ffn_dim") != c.get("decoder_ffn_dim"):
        raise UnsupportedModel("encoder and decoder of different FFN width are not supported")
    if c.get("decoder_vocab_size", c["vocab_size"]) != c["vocab_size"] or not c.get(
        "share_encoder_decoder_embeddings", True
    ):
        raise UnsupportedModel("separate source and target vocabularies are not supported")
    if c.get("normalize_before"):
        raise UnsupportedModel("normalize_before=true is not supported")
    return ModelConfig(
        arch="encoder-decoder", vocab_size=c["vocab_size"], n_layers=c["encoder_layers"], d_model=c["d_model"],
        n_heads=c["encoder_attention_heads"], d_ff=c["encoder_ffn_dim"], norm_position="post", norm="layernorm",
        activation=_act(c.get("activation_function", "swish")), positional="sinusoidal", pe_layout="half",
        max_len=min(c["max_position_embeddings"], MAX_TOKENS), tie_embeddings=c.get("tie_word_embeddings", True),
        bias=True, embed_scale=bool(c.get("scale_embedding", True)), head_bias=True,
    )  # fmt: skip


MARIAN_LAYER = {"self_attn.q_proj": "self_attn.q", "self_attn.k_proj": "self_attn.k", "self_attn.v_proj": "self_attn.v",
                "self_attn.out_proj": "self_attn.o", "self_attn_layer_norm": "norm_self",
                "encoder_attn.q_proj": "cross_attn.q", "encoder_attn.k_proj": "cross_attn.k",
                "encoder_attn.v_proj": "cross_attn.v", "encoder_attn.out_proj": "cross_attn.o",
                "encoder_attn_layer_norm": "norm_cross", "fc1": "ffn.w1", "fc2": "ffn.w2",
                "final_layer_norm": "norm_ffn"}  # fmt: skip


def marian_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    if name in ("model.shared.weight", "model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"):
        return [("tok_emb.weight", t)]  # one table, shared by encoder, decoder (and the tied head)
    if name == "final_logits_bias":
        return [("head.bias", t.reshape(-1))]
    if name == "lm_head.weight":
        return [] if cfg.tie_embeddings else [("head.weight", t)]
    parts = name.split(".")
    if len(parts) < 5 or parts[2] != "layers":
        return []  # embed_positions: the sinusoidal table is a formula (rebuilt, Marian's layout)
    stack, i, module, kind = parts[1], parts[3], ".".join(parts[4:-1]), parts[-1]
    return [(f"{stack}.{i}.{MARIAN_LAYER[module]}.{kind}", t)] if module in MARIAN_LAYER else []
