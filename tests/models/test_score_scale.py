"""Issue 41, item 1: the factor s on q·k and its reason, per family (models/core/score_scale.py). T5 has no scale and a
relative bias; Granite's s is attention_multiplier (1/d_k for granite-3.1, not 1/√d_k); Gemma's is
query_pre_attn_scalar^-½ and Gemma 2 soft-caps; every other model is Vaswani's 1/√d_k. The configs below are the
published config.json fields each family mapping reads (models/published/families/)."""

from __future__ import annotations

import math

import pytest

from models.config import ModelConfig
from models.core.score_scale import query_pre_attn_scalar, scale_reason, score_form
from models.published.families import gemma_config, granite_moe_config, llama_config, t5_config

T5_SMALL = {"model_type": "t5", "vocab_size": 32128, "d_model": 512, "d_kv": 64, "d_ff": 2048, "num_layers": 6,
            "num_heads": 8}  # fmt: skip
GRANITE_31 = {"model_type": "granitemoe", "vocab_size": 49155, "hidden_size": 1024, "intermediate_size": 512,
              "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 8, "num_local_experts": 32,
              "num_experts_per_tok": 8, "max_position_embeddings": 4096, "rope_theta": 10000000.0,
              "tie_word_embeddings": True, "hidden_act": "silu", "embedding_multiplier": 12.0,
              "residual_multiplier": 0.22, "attention_multiplier": 0.015625, "logits_scaling": 6.0}  # fmt: skip
GEMMA_2_2B = {"model_type": "gemma2", "vocab_size": 256000, "hidden_size": 2304, "intermediate_size": 9216,
              "num_hidden_layers": 26, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
              "query_pre_attn_scalar": 256, "sliding_window": 4096, "attn_logit_softcapping": 50.0,
              "final_logit_softcapping": 30.0, "hidden_activation": "gelu_pytorch_tanh"}  # fmt: skip
GEMMA_3_270M = {"model_type": "gemma3_text", "vocab_size": 262144, "hidden_size": 640, "intermediate_size": 2048,
                "num_hidden_layers": 18, "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 256,
                "query_pre_attn_scalar": 256, "sliding_window": 512, "rope_theta": 1000000.0,
                "rope_local_base_freq": 10000.0, "hidden_activation": "gelu_pytorch_tanh"}  # fmt: skip
LLAMA_32_1B = {"model_type": "llama", "vocab_size": 128256, "hidden_size": 2048, "intermediate_size": 8192,
               "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8, "rope_theta": 500000.0,
               "max_position_embeddings": 131072}  # fmt: skip


def test_t5_has_no_scale_and_a_relative_bias():
    cfg = t5_config(T5_SMALL)
    assert cfg.d_head == 64
    assert scale_reason(cfg) == (1.0, "t5")  # not "1/√64 = 1.0000"
    assert score_form(cfg) == "relative"


def test_granites_scale_is_its_attention_multiplier():
    cfg = granite_moe_config(GRANITE_31)
    s, reason = scale_reason(cfg)
    assert reason == "granite" and s == 0.015625 == 1 / cfg.d_head  # 1/64, not 1/√64 = 0.125
    assert score_form(cfg) == "scaled"


@pytest.mark.parametrize(("published", "form"), [(GEMMA_2_2B, "softcap"), (GEMMA_3_270M, "scaled")])
def test_gemmas_scale_is_query_pre_attn_scalar_and_gemma_2_soft_caps(published, form):
    cfg = gemma_config(published)
    s, reason = scale_reason(cfg)
    assert reason == "gemma" and math.isclose(s, 256**-0.5)
    assert math.isclose(query_pre_attn_scalar(cfg), 256.0)
    assert score_form(cfg) == form
    assert (cfg.attn_softcap == 50.0) == (form == "softcap")


def test_gemmas_scalar_need_not_be_d_head():
    cfg = gemma_config({**GEMMA_3_270M, "query_pre_attn_scalar": 12})
    s, reason = scale_reason(cfg)
    assert reason == "gemma" and math.isclose(s, 12**-0.5) and not math.isclose(s, cfg.d_head**-0.5)
    assert math.isclose(query_pre_attn_scalar(cfg), 12.0)


@pytest.mark.parametrize("cfg", [llama_config(LLAMA_32_1B), ModelConfig(), ModelConfig(d_model=512, n_heads=8)])
def test_every_other_model_is_one_over_sqrt_dk(cfg):
    s, reason = scale_reason(cfg)
    assert reason == "default" and math.isclose(s, 1 / math.sqrt(cfg.d_head))
    assert score_form(cfg) == "scaled"


def test_the_labs_hand_set_scales_are_named_as_such():
    assert scale_reason(ModelConfig(attn_scale=1.0)) == (1.0, "one")
    assert scale_reason(ModelConfig(attn_scale=1 / 16)) == (1 / 16, "inverse")  # d_head 16: μP's 1/d_k
    assert scale_reason(ModelConfig(attn_scale=0.3))[1] == "config"
    # a mixture of experts from the lab (no renormalisation) is not Granite
    assert scale_reason(ModelConfig(n_experts=4, experts_top_k=2, attn_scale=1.0))[1] == "one"
