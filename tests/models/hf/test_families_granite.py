"""Granite MoE through the one Transformer and the toy MoE's modules, against transformers' eager forward: attention
of every layer and head, logits, hidden states and the router's probabilities within 1e-4, at k = 2 (untied) and at
k = 1 (tied, as granite-3.1 publishes, and a vocabulary large enough for LazyLogits), greedy generation with the KV
cache step by step, parameter counts and describe()."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models

from .test_families import check_forward, check_generation
from .tiny_granite import build_granite

pytest.importorskip("transformers")
CASES = {"k2-untied": (2, {}), "k1-tied-lazy": (1, {"tie_word_embeddings": True, "vocab_size": 8300})}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("granite")
    return {name: (build_granite(root / name, k, **over), root / name, k) for name, (k, over) in CASES.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_granite_matches_transformers_with_its_router(folders, name):
    hf, folder, k = folders[name]
    live = models.load(folder)
    cfg = live.config
    assert (cfg.n_experts, cfg.experts_top_k, cfg.moe_renormalize, live.meta["family"]) == (4, k, True, "Granite MoE")
    assert (cfg.attn_scale, cfg.embed_multiplier, cfg.residual_scale, cfg.logits_divisor) == (0.09, 3.0, 0.4, 2.5)
    ids = list(range(300, 324))
    check_forward(hf, live, ids)
    with torch.no_grad():
        out = hf(torch.tensor([ids]), output_router_logits=True)
    logits = torch.stack([r.float() for r in out.router_logits])  # [L, T, n], before Granite's top-k
    theirs = torch.softmax(logits, -1).numpy()
    np.testing.assert_allclose(live.run_ids(ids).router["decoder"], theirs, atol=1e-4, rtol=0)
    # Granite's gates are softmax over the top-k logits: the renormalised top-k of the softmax (1 at k = 1)
    from models.core import moe

    chosen, gates = moe.route(theirs, k, renormalize=True)
    top_logits, top_i = logits.topk(k, dim=-1)
    np.testing.assert_array_equal(chosen, top_i.numpy())
    np.testing.assert_allclose(gates, torch.softmax(top_logits, -1).numpy(), atol=1e-6, rtol=0)


@pytest.mark.parametrize("name", list(CASES))
def test_granite_generation_with_the_kv_cache_matches_step_by_step(folders, name):
    hf, folder, _ = folders[name]
    live = models.load(folder)
    check_generation(hf, live, [300, 301, 302, 303], 8)


@pytest.mark.parametrize("name", list(CASES))
def test_granite_parameter_count_and_description(folders, name):
    from models.analysis import parameter_counts
    from models.published.checkpoints import describe

    hf, folder, _ = folders[name]
    live = models.load(folder)
    built = sum(p.numel() for p in live.net.parameters())  # a tied head counted once
    assert sum(parameter_counts(live.config).values()) == built == sum(p.numel() for p in hf.parameters())
    e = describe(folder)
    assert (e.family, e.arch, e.error, e.params) == ("Granite MoE", "decoder", None, built)


def test_granite_config_mapping_of_a_published_layout():
    """A granite-3.1-1b-a400m-like config.json (top-level rope_theta, as older files have it): the multipliers map
    onto ModelConfig; a multiplier of 1 is left at its quiet default, but attention_multiplier 1 is a scale of 1."""
    from models.config import ModelConfig
    from models.published.families import granite_moe_config

    c = dict(model_type="granitemoe", vocab_size=49155, hidden_size=1024, intermediate_size=512, num_hidden_layers=24,
             num_attention_heads=16, num_key_value_heads=8, num_local_experts=32, num_experts_per_tok=8,
             max_position_embeddings=4096, rope_theta=10000000.0, tie_word_embeddings=True, hidden_act="silu",
             embedding_multiplier=12.0, residual_multiplier=0.22, attention_multiplier=0.015625, logits_scaling=6.0,
             rms_norm_eps=1e-6, router_aux_loss_coef=0.001)  # fmt: skip
    cfg = granite_moe_config(c)
    assert (cfg.n_experts, cfg.experts_top_k, cfg.d_head, cfg.kv_heads, cfg.rope_base) == (32, 8, 64, 8, 1e7)
    assert (cfg.attn_scale, cfg.embed_multiplier, cfg.residual_scale, cfg.logits_divisor) == (1 / 64, 12, 0.22, 6)
    assert not cfg.embed_scale and cfg.tie_embeddings and cfg.moe_aux_weight == 0.001
    assert ModelConfig.from_dict(cfg.to_dict()) == cfg
    plain = granite_moe_config({**c, "embedding_multiplier": 1, "residual_multiplier": 1.0, "logits_scaling": 1.0,
                                "attention_multiplier": 1.0})  # fmt: skip
    assert plain.attn_scale == 1.0 and not {"embed_multiplier", "residual_scale", "logits_divisor"} & set(
        plain.to_dict()
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [({"logits_divisor": 0.0}, "logits_divisor must be a positive"), ({"residual_scale": -1.0}, "residual_scale"),
     ({"embed_multiplier": float("nan")}, "embed_multiplier"),
     ({"residual_scale": 0.5, "norm_position": "post"}, "norm_position='pre'"),
     ({"logits_divisor": 2.0, "head_bias": True}, "head_bias=False")],
)  # fmt: skip
def test_granite_options_are_validated(change, message):
    from models.config import ModelConfig

    with pytest.raises(ValueError, match=message):
        ModelConfig(**change)
