"""T5 and Flan-T5 (T5ForConditionalGeneration): config.json -> ModelConfig and its tensor names -> ours.

An encoder-decoder with pre-norm RMSNorm blocks (T5LayerNorm: no centring, no bias), no biases anywhere, no
1/sqrt(d) on q·k (attn_scale=1.0: T5's initialisation folds it into W_Q), unscaled embeddings and no additive
positions: instead each stack has ONE learned table [buckets, heads] in its block 0
(relative_attention_bias), added to q·k of every layer's self-attention by the bucket of (key - query position):
the encoder's buckets look both ways, the decoder's only at the past; cross-attention has none
(positional="relative", models/positional.relative_bucket). One embedding matrix (`shared`) serves encoder,
decoder and, unless the file stores its own lm_head (Flan-T5, T5 v1.1), the head.

The FFN: t5-small's DenseReluDense (wi, relu, wo) or Flan-T5's gated-gelu (GELU_tanh(wi_0·x) ⊙ wi_1·x, then wo:
activation "geglu", wi_0 -> w1 the gate, wi_1 -> w3). head_rescale: the decoder's final hidden state ×
d_model^-0.5 before the head, as transformers 5 does when `scale_decoder_outputs` (or, in files written before
it, `tie_word_embeddings` is not false: original T5 yes, v1.1 and Flan-T5 no).
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import MAX_TOKENS, UnsupportedModel, _act

GATED = {"gelu": "geglu", "silu": "swiglu"}  # transformers: "gated-gelu" uses gelu_new (the tanh form)
# transformers 5 forces T5's tie_word_embeddings to True, and unties on load when the file stores a different
# lm_head (Flan-T5): the loader unties these families' head when the file stores this tensor.
UNTIE_WHEN_STORED = {"t5": "lm_head.weight"}


def t5_config(c: dict) -> ModelConfig:
    layers = c["num_layers"]
    decoder_layers = c.get("num_decoder_layers") or layers
    if decoder_layers != layers:
        raise UnsupportedModel(
            f"num_layers={layers} encoder blocks but num_decoder_layers={decoder_layers}: this app's Transformer has "
            "one n_layers for both stacks of an encoder-decoder"
        )
    proj = c.get("feed_forward_proj", "relu")
    parts = proj.split("-")
    if len(parts) == 2 and parts[0] == "gated" and parts[1] in GATED:
        activation = GATED[parts[1]]
    elif len(parts) == 1:
        activation = _act(proj)
    else:
        raise UnsupportedModel(f"feed_forward_proj={proj!r} is not supported (relu, gelu, gated-gelu, gated-silu are)")
    d, heads, d_kv = c["d_model"], c["num_heads"], c["d_kv"]
    if "scale_decoder_outputs" in c:  # transformers >= 5 writes it
        rescale = bool(c["scale_decoder_outputs"])
    else:  # older files: the tie flag said it (original T5: tied and rescaled; v1.1, Flan-T5: neither)
        rescale = c.get("tie_word_embeddings") is not False
    return ModelConfig(
        arch="encoder-decoder", vocab_size=c["vocab_size"], n_layers=layers, d_model=d, n_heads=heads,
        head_dim=None if d_kv * heads == d else d_kv, d_ff=c["d_ff"], norm_position="pre", norm="rmsnorm",
        activation=activation, positional="relative", attn_scale=1.0,
        max_len=min(c.get("n_positions", 512), MAX_TOKENS), tie_embeddings=True, bias=False,
        norm_eps=c.get("layer_norm_epsilon", 1e-6), embed_scale=False,
        rel_buckets=c.get("relative_attention_num_buckets", 32),
        rel_max_distance=c.get("relative_attention_max_distance", 128), head_rescale=rescale,
    )  # fmt: skip


ATTENTION = {"SelfAttention": "self_attn", "EncDecAttention": "cross_attn"}
FFN = {"wi": "w1", "wi_0": "w1", "wi_1": "w3", "wo": "w2"}  # wi_0: the gate (GELU_tanh), wi_1: the linear branch
EMBEDDINGS = ("shared.weight", "encoder.embed_tokens.weight", "decoder.embed_tokens.weight")


def t5_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    if name in EMBEDDINGS:
        return [("tok_emb.weight", t)]  # one table for encoder, decoder (and the tied head)
    if name == "lm_head.weight":
        return [] if cfg.tie_embeddings else [("head.weight", t)]
    parts = name.split(".")
    stack = {"encoder": "enc", "decoder": "dec"}.get(parts[0])
    if stack is None:
        return []
    if parts[1] == "final_layer_norm":
        return [(f"{stack}_norm.weight", t)]
    if parts[1] != "block" or len(parts) < 7:
        return []
    i, sub, module = parts[2], int(parts[4]), parts[5]
    if module in ATTENTION:
        if parts[6] == "relative_attention_bias":  # block 0's table, shared by the stack (a cross one is ignored)
            return [(f"{stack}_rel_bias.weight", t)] if module == "SelfAttention" else []
        return [(f"{parts[0]}.{i}.{ATTENTION[module]}.{parts[6]}.weight", t)]
    if module == "DenseReluDense":
        return [(f"{parts[0]}.{i}.ffn.{FFN[parts[6]]}.weight", t)]
    if module == "layer_norm":  # layer 0: before self-attention; decoder layer 1: before cross-attention; last: FFN
        last = 2 if parts[0] == "decoder" else 1
        norm = "norm_self" if sub == 0 else "norm_ffn" if sub == last else "norm_cross"
        return [(f"{parts[0]}.{i}.{norm}.weight", t)]
    return []
