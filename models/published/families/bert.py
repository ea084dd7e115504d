"""BERT, RoBERTa (and MiniLM): config.json -> ModelConfig and their tensor names -> ours.

Post-norm encoders with learned positions and a LayerNorm after the embeddings. A masked-LM checkpoint carries
the MLM head (dense -> GELU -> LayerNorm, then the tied output matrix and a bias); a sentence encoder does not.
RoBERTa counts positions from padding_idx + 1, so its first rows are never used (position_offset).
"""

from __future__ import annotations

import torch

from ...config import ModelConfig
from .common import UnsupportedModel, _act


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
