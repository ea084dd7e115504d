"""ALBERT, DistilBERT, ELECTRA: config.json -> ModelConfig and their tensor names -> ours.

All three are BERT's post-norm encoder with learned positions and a LayerNorm after the embeddings.
- ALBERT (Lan et al. 2020): embeddings E wide (albert-base-v2: 128) projected to the 768-wide stream by
  embedding_hidden_mapping_in, and ONE layer's weights used by all 12 layers (cross-layer sharing: 11.7M
  parameters instead of BERT-base's 110M). Its one layer is written under every layer index here; the
  Transformer holds one Block n_layers times (shared_layers), so every index names the same weights.
  The MLM head maps back to E (dense H -> E, activation, LayerNorm) before the tied [V, E] matrix.
- DistilBERT (Sanh et al. 2019): BERT with 6 layers, no token types and its own tensor names.
- ELECTRA (Clark et al. 2020): the discriminator (ElectraForPreTraining) ends in one logit per token, "was
  this token replaced?" (detector_head: Trace.logits [T, 1], LiveModel.replaced_prob); the generator
  (ElectraForMaskedLM) is a masked LM whose head maps to E like ALBERT's. electra-small: E = 128, H = 256.
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .bert import BERT_LAYER
from .common import UnsupportedModel, _act

MLM_ARCHS = ("ForMaskedLM", "ForPreTraining")


def _archs(c: dict) -> list[str]:
    return list(c.get("architectures") or [])


def _absolute(c: dict) -> None:
    if c.get("position_embedding_type", "absolute") != "absolute":
        raise UnsupportedModel("only absolute position embeddings are supported")


# ------------------------------------------------------------------ ALBERT
def albert_config(c: dict) -> ModelConfig:
    _absolute(c)
    for key in ("num_hidden_groups", "inner_group_num"):
        if c.get(key, 1) != 1:
            raise UnsupportedModel(
                f"{key}={c[key]}: only ALBERT with one shared layer (num_hidden_groups = inner_group_num = 1, as every "
                "published ALBERT) is supported"
            )
    if not any(a.endswith(MLM_ARCHS) for a in _archs(c)):
        raise UnsupportedModel(
            f"ALBERT architectures {_archs(c)}: only AlbertForMaskedLM / AlbertForPreTraining (with the MLM head) "
            "are supported"
        )
    act = _act(c.get("hidden_act", "gelu_new"))
    return ModelConfig(
        arch="encoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=c["hidden_size"],
        n_heads=c["num_attention_heads"], d_ff=c["intermediate_size"], norm_position="post", norm="layernorm",
        activation=act, positional="learned", max_len=c["max_position_embeddings"], tie_embeddings=True,
        bias=True, norm_eps=c.get("layer_norm_eps", 1e-12), embed_scale=False, embed_norm=True,
        type_vocab_size=c.get("type_vocab_size", 2), mlm_head=True, head_bias=True,
        embedding_size=c.get("embedding_size", 128), shared_layers=True, mlm_activation=act,
    )  # fmt: skip


ALBERT_LAYER = {
    "attention.query": "self_attn.q",
    "attention.key": "self_attn.k",
    "attention.value": "self_attn.v",
    "attention.dense": "self_attn.o",
    "attention.LayerNorm": "norm_self",
    "ffn": "ffn.w1",
    "ffn_output": "ffn.w2",
    "full_layer_layer_norm": "norm_ffn",
}
ALBERT_TOP = {
    "embeddings.word_embeddings.weight": "tok_emb.weight",
    "embeddings.position_embeddings.weight": "pos_emb.weight",
    "embeddings.token_type_embeddings.weight": "type_emb.weight",
    "embeddings.LayerNorm.weight": "emb_norm.weight",
    "embeddings.LayerNorm.bias": "emb_norm.bias",
    "encoder.embedding_hidden_mapping_in.weight": "emb_proj.weight",
    "encoder.embedding_hidden_mapping_in.bias": "emb_proj.bias",
    "predictions.dense.weight": "mlm.0.weight",
    "predictions.dense.bias": "mlm.0.bias",
    "predictions.LayerNorm.weight": "mlm.2.weight",
    "predictions.LayerNorm.bias": "mlm.2.bias",
    "predictions.bias": "head.bias",
    "predictions.decoder.bias": "head.bias",
}
ALBERT_SHARED = "encoder.albert_layer_groups.0.albert_layers.0."


def albert_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    name = name.removeprefix("albert.")
    if name in ALBERT_TOP:
        return [(ALBERT_TOP[name], t)]
    if not name.startswith(ALBERT_SHARED):
        return []  # pooler, sop_classifier, buffers, the tied decoder weight
    module, kind = name[len(ALBERT_SHARED) :].rsplit(".", 1)
    if module not in ALBERT_LAYER:
        return []
    # the one shared layer, under every layer index: all name the same Block (shared_layers)
    return [(f"encoder.{i}.{ALBERT_LAYER[module]}.{kind}", t) for i in range(cfg.n_layers)]


# ------------------------------------------------------------------ DistilBERT
def distilbert_config(c: dict) -> ModelConfig:
    # sinusoidal_pos_embds: true fills position_embeddings with a sine table at init; the table is saved in the
    # weights like a learned one and read back as such (tests/models/hf/test_families_encoders.py checks it)
    mlm = any(a.endswith("ForMaskedLM") for a in _archs(c))
    act = _act(c.get("activation", "gelu"))
    return ModelConfig(
        arch="encoder", vocab_size=c["vocab_size"], n_layers=c["n_layers"], d_model=c["dim"], n_heads=c["n_heads"],
        d_ff=c["hidden_dim"], norm_position="post", norm="layernorm", activation=act, positional="learned",
        max_len=c["max_position_embeddings"], tie_embeddings=True, bias=True, norm_eps=1e-12, embed_scale=False,
        embed_norm=True, type_vocab_size=0, mlm_head=mlm, head_bias=mlm, mlm_activation=act if mlm else None,
    )  # fmt: skip


DISTILBERT_LAYER = {
    "attention.q_lin": "self_attn.q",
    "attention.k_lin": "self_attn.k",
    "attention.v_lin": "self_attn.v",
    "attention.out_lin": "self_attn.o",
    "sa_layer_norm": "norm_self",
    "ffn.lin1": "ffn.w1",
    "ffn.lin2": "ffn.w2",
    "output_layer_norm": "norm_ffn",
}
DISTILBERT_TOP = {
    "embeddings.word_embeddings.weight": "tok_emb.weight",
    "embeddings.position_embeddings.weight": "pos_emb.weight",
    "embeddings.LayerNorm.weight": "emb_norm.weight",
    "embeddings.LayerNorm.bias": "emb_norm.bias",
    "vocab_transform.weight": "mlm.0.weight",
    "vocab_transform.bias": "mlm.0.bias",
    "vocab_layer_norm.weight": "mlm.2.weight",
    "vocab_layer_norm.bias": "mlm.2.bias",
    "vocab_projector.bias": "head.bias",
}


def distilbert_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    name = name.removeprefix("distilbert.")
    if name in DISTILBERT_TOP:
        ours = DISTILBERT_TOP[name]
        return [] if ours.startswith(("mlm", "head")) and not cfg.mlm_head else [(ours, t)]
    parts = name.split(".")
    if parts[:2] != ["transformer", "layer"]:
        return []  # position_ids buffers, the tied vocab_projector.weight
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    return [(f"encoder.{i}.{DISTILBERT_LAYER[module]}.{kind}", t)] if module in DISTILBERT_LAYER else []


# ------------------------------------------------------------------ ELECTRA
def electra_config(c: dict) -> ModelConfig:
    _absolute(c)
    archs = _archs(c)
    detector = "ElectraForPreTraining" in archs
    if not detector and "ElectraForMaskedLM" not in archs:
        raise UnsupportedModel(
            f"ELECTRA architectures {archs}: only the discriminator (ElectraForPreTraining) and the generator "
            "(ElectraForMaskedLM) are supported"
        )
    h = c["hidden_size"]
    e = c.get("embedding_size") or h
    act = _act(c.get("hidden_act", "gelu"))
    tied = not detector and c.get("tie_word_embeddings", True)
    return ModelConfig(
        arch="encoder", vocab_size=c["vocab_size"], n_layers=c["num_hidden_layers"], d_model=h,
        n_heads=c["num_attention_heads"], d_ff=c["intermediate_size"], norm_position="post", norm="layernorm",
        activation=act, positional="learned", max_len=c["max_position_embeddings"], tie_embeddings=tied,
        bias=True, norm_eps=c.get("layer_norm_eps", 1e-12), embed_scale=False, embed_norm=True,
        type_vocab_size=c.get("type_vocab_size", 2), mlm_head=not detector, head_bias=True,
        embedding_size=e if e != h else None,  # embeddings_project exists only when E differs from H
        detector_head=detector,  # the generator's head: dense -> exact GELU (whatever hidden_act) -> LayerNorm(E)
    )  # fmt: skip


ELECTRA_TOP = {
    "embeddings.word_embeddings.weight": "tok_emb.weight",
    "embeddings.position_embeddings.weight": "pos_emb.weight",
    "embeddings.token_type_embeddings.weight": "type_emb.weight",
    "embeddings.LayerNorm.weight": "emb_norm.weight",
    "embeddings.LayerNorm.bias": "emb_norm.bias",
    "embeddings_project.weight": "emb_proj.weight",
    "embeddings_project.bias": "emb_proj.bias",
    # the discriminator: dense -> activation -> dense_prediction (one logit)
    "discriminator_predictions.dense.weight": "mlm.0.weight",
    "discriminator_predictions.dense.bias": "mlm.0.bias",
    "discriminator_predictions.dense_prediction.weight": "head.weight",
    "discriminator_predictions.dense_prediction.bias": "head.bias",
    # the generator: dense -> GELU -> LayerNorm, then the tied [V, E] matrix and its bias
    "generator_predictions.dense.weight": "mlm.0.weight",
    "generator_predictions.dense.bias": "mlm.0.bias",
    "generator_predictions.LayerNorm.weight": "mlm.2.weight",
    "generator_predictions.LayerNorm.bias": "mlm.2.bias",
    "generator_lm_head.bias": "head.bias",
}


def electra_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    name = name.removeprefix("electra.")
    if name in ELECTRA_TOP:
        return [(ELECTRA_TOP[name], t)]
    if name == "generator_lm_head.weight":
        return [] if cfg.tie_embeddings else [("head.weight", t)]  # tied: the word embeddings themselves
    parts = name.split(".")
    if parts[:2] != ["encoder", "layer"]:
        return []  # position_ids buffers, the tied generator_lm_head.weight
    i, module, kind = parts[2], ".".join(parts[3:-1]), parts[-1]
    return [(f"encoder.{i}.{BERT_LAYER[module]}.{kind}", t)] if module in BERT_LAYER else []
