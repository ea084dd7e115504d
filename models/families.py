"""Published model families onto the one Transformer: their config.json -> ModelConfig, their tensor names -> ours.

Each family is two pure functions. `config(c)` reads a config.json as published (transformers >= 5 writes
`rope_parameters`; older files have top-level `rope_theta` and `rope_scaling`: both are read).
`rename(name, tensor, cfg)` gives our name and the tensor in our layout (or None to skip a buffer).

Two layout changes happen here, once, at load:
- GPT-2's Conv1D stores weights as [in, out]: transposed to nn.Linear's [out, in], and its fused
  c_attn is split into q, k, v.
- Llama-family RoPE pairs dimension i with i + d_head/2 ("rotate half"); ours pairs 2i with 2i+1
  (RoFormer's own layout). The rows of the published q and k projections are permuted so that their
  dimension i lands on our 2i and i + d_head/2 on 2i + 1. q·k is unchanged by applying one
  permutation to both q and k, so scores and attention are exactly the published model's, and one
  rotation function serves every model in the app (instead of a second RoPE code path).
"""

from __future__ import annotations

import torch

from .config import ModelConfig

# Real models read at most this many tokens here: a 256-token trace of a 24-layer model is already
# hundreds of MB of attention, and a forward on 2 CPU cores takes seconds (bench/pretrained_speed.py).
MAX_TOKENS = 256
ACTIVATIONS = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu",
               "swish": "silu", "silu": "silu"}  # fmt: skip


class UnsupportedModel(ValueError):
    """A config this app cannot map onto its Transformer; the message says which setting and why."""


def _act(name: str) -> str:
    if name not in ACTIVATIONS:
        raise UnsupportedModel(f"activation {name!r} is not supported (known: {', '.join(ACTIVATIONS)})")
    return ACTIVATIONS[name]


def rope_settings(c: dict) -> tuple[float, tuple[float, float, float, int] | None]:
    """(θ base, Llama 3.1 scaling or None) from either config layout."""
    params = c.get("rope_parameters") or {}
    scaling = c.get("rope_scaling") or params
    theta = float(params.get("rope_theta", c.get("rope_theta", 10000.0)))
    kind = scaling.get("rope_type", scaling.get("type", "default")) if scaling else "default"
    if kind == "default":
        return theta, None
    if kind == "llama3":
        return theta, (
            float(scaling["factor"]),
            float(scaling["low_freq_factor"]),
            float(scaling["high_freq_factor"]),
            int(scaling["original_max_position_embeddings"]),
        )
    raise UnsupportedModel(f"RoPE scaling {kind!r} is not supported (default and llama3 are)")


# ----------------------------------------------------------------- GPT-2


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


# ----------------------------------------------------------------- Llama, Qwen2, Mistral


def llama_config(c: dict) -> ModelConfig:
    d, heads = c["hidden_size"], c["num_attention_heads"]
    if c.get("head_dim") not in (None, d // heads):
        raise UnsupportedModel(f"head_dim={c['head_dim']} differs from hidden_size / heads = {d // heads}")
    if c.get("hidden_act", "silu") != "silu":
        raise UnsupportedModel(f"hidden_act={c['hidden_act']!r}: the gated FFN here is SwiGLU (SiLU)")
    qwen = c.get("model_type") == "qwen2"
    attention_bias, mlp_bias = bool(c.get("attention_bias")), bool(c.get("mlp_bias"))
    if attention_bias != mlp_bias:
        raise UnsupportedModel("attention_bias and mlp_bias differ; this app has one bias switch for both")
    window = c.get("sliding_window") if c.get("model_type") == "mistral" else None
    if qwen and c.get("use_sliding_window"):
        raise UnsupportedModel("Qwen2 with use_sliding_window=true is not supported")
    theta, llama3 = rope_settings(c)
    return ModelConfig(
        arch="decoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=d, n_heads=heads,
        n_kv_heads=c.get("num_key_value_heads") or heads, d_ff=c["intermediate_size"], norm_position="pre",
        norm="rmsnorm", activation="swiglu", positional="rope", max_len=min(c["max_position_embeddings"], MAX_TOKENS),
        tie_embeddings=bool(c.get("tie_word_embeddings", False)), bias=attention_bias, qkv_bias=qwen,
        norm_eps=c.get("rms_norm_eps", 1e-6), embed_scale=False, rope_base=theta, rope_llama3=llama3,
        sliding_window=window,
    )  # fmt: skip


LLAMA_LAYER = {
    "self_attn.q_proj": "self_attn.q",
    "self_attn.k_proj": "self_attn.k",
    "self_attn.v_proj": "self_attn.v",
    "self_attn.o_proj": "self_attn.o",
    "mlp.gate_proj": "ffn.w1",
    "mlp.up_proj": "ffn.w3",
    "mlp.down_proj": "ffn.w2",
    "input_layernorm": "norm_self",
    "post_attention_layernorm": "norm_ffn",
}


def half_to_interleaved(t: torch.Tensor, d_head: int) -> torch.Tensor:
    """Permute the output rows of a q or k projection (weight [heads·dh, d] or bias [heads·dh]) from
    rotate-half pairs (i, i + dh/2) to interleaved pairs (2i, 2i + 1)."""
    half = d_head // 2
    perm = torch.stack([torch.arange(half), torch.arange(half) + half], dim=1).reshape(-1)  # 0, h, 1, h+1, ...
    heads = t.shape[0] // d_head
    return t.reshape(heads, d_head, *t.shape[1:])[:, perm].reshape(t.shape)


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
    if module in ("self_attn.q_proj", "self_attn.k_proj"):
        t = half_to_interleaved(t, cfg.d_head)
    return [(f"decoder.{i}.{LLAMA_LAYER[module]}.{kind}", t)]


# ----------------------------------------------------------------- BERT, RoBERTa (and MiniLM)


def bert_config(c: dict) -> ModelConfig:
    if c.get("position_embedding_type", "absolute") != "absolute":
        raise UnsupportedModel("only absolute position embeddings are supported")
    roberta = c.get("model_type") in ("roberta", "xlm-roberta")
    # a masked-LM checkpoint (BertForMaskedLM, RobertaForMaskedLM) carries the MLM head; a sentence encoder not
    mlm = any(a.endswith(("ForMaskedLM", "ForPreTraining")) for a in c.get("architectures") or [])
    offset = (c.get("pad_token_id", 1) + 1) if roberta else 0  # RoBERTa counts positions from padding_idx + 1
    return ModelConfig(
        arch="encoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=c["hidden_size"],
        n_heads=c["num_attention_heads"], d_ff=c["intermediate_size"], norm_position="post", norm="layernorm",
        activation=_act(c.get("hidden_act", "gelu")), positional="learned",
        max_len=c["max_position_embeddings"] - offset, tie_embeddings=True, bias=True,
        norm_eps=c.get("layer_norm_eps", 1e-12), embed_scale=False, embed_norm=True,
        type_vocab_size=c.get("type_vocab_size", 2), position_offset=offset,
        mlm_head=mlm, head_bias=mlm,
    )  # fmt: skip


BERT_LAYER = {
    "attention.self.query": "self_attn.q",
    "attention.self.key": "self_attn.k",
    "attention.self.value": "self_attn.v",
    "attention.output.dense": "self_attn.o",
    "attention.output.LayerNorm": "norm_self",
    "intermediate.dense": "ffn.w1",
    "output.dense": "ffn.w2",
    "output.LayerNorm": "norm_ffn",
}
BERT_TOP = {
    "embeddings.word_embeddings.weight": "tok_emb.weight",
    "embeddings.position_embeddings.weight": "pos_emb.weight",
    "embeddings.token_type_embeddings.weight": "type_emb.weight",
    "embeddings.LayerNorm.weight": "emb_norm.weight",
    "embeddings.LayerNorm.bias": "emb_norm.bias",
    # the MLM head: BERT's cls.predictions.*, RoBERTa's lm_head.*
    "cls.predictions.transform.dense.weight": "mlm.0.weight",
    "cls.predictions.transform.dense.bias": "mlm.0.bias",
    "cls.predictions.transform.LayerNorm.weight": "mlm.2.weight",
    "cls.predictions.transform.LayerNorm.bias": "mlm.2.bias",
    "cls.predictions.bias": "head.bias",
    "cls.predictions.decoder.bias": "head.bias",
    "lm_head.dense.weight": "mlm.0.weight",
    "lm_head.dense.bias": "mlm.0.bias",
    "lm_head.layer_norm.weight": "mlm.2.weight",
    "lm_head.layer_norm.bias": "mlm.2.bias",
    "lm_head.bias": "head.bias",
    "lm_head.decoder.bias": "head.bias",
}


def bert_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    name = name.removeprefix("bert.").removeprefix("roberta.")
    if name in BERT_TOP:
        ours = BERT_TOP[name]
        return [] if ours.startswith(("mlm", "head")) and not cfg.mlm_head else [(ours, t)]
    parts = name.split(".")
    if parts[:2] != ["encoder", "layer"]:
        return []  # pooler, position_ids buffers, the tied decoder weight
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    return [(f"encoder.{i}.{BERT_LAYER[module]}.{kind}", t)] if module in BERT_LAYER else []


# ----------------------------------------------------------------- Marian (opus-mt)


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


# ----------------------------------------------------------------- the table

FAMILIES = {
    "gpt2": ("GPT-2", gpt2_config, gpt2_rename),
    "llama": ("Llama", llama_config, llama_rename),
    "qwen2": ("Qwen2", llama_config, llama_rename),
    "mistral": ("Mistral", llama_config, llama_rename),
    "bert": ("BERT", bert_config, bert_rename),
    "roberta": ("RoBERTa", bert_config, bert_rename),
    "marian": ("Marian", marian_config, marian_rename),
}


def family_of(c: dict) -> str:
    kind = c.get("model_type")
    if kind not in FAMILIES:
        raise UnsupportedModel(
            f"model_type {kind!r} is not supported; supported: {', '.join(FAMILIES)}"
            if kind
            else "config.json has no model_type"
        )
    return kind
