"""Mixtral through the one Transformer and the toy MoE's modules, against transformers' eager forward: attention
of every layer and head, logits, hidden states and the router's probabilities within 1e-4, at k = 2 and at k = 1
(where Mixtral's gate is 1), and greedy generation with the KV cache step by step."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models

from .test_families import check_forward, check_generation
from .tiny import byte_bpe_tokenizer, redraw, save_eager

pytest.importorskip("transformers")


def build_mixtral(folder, k: int, seed: int = 0):
    import transformers as tf

    cfg = tf.MixtralConfig(vocab_size=2048, hidden_size=32, intermediate_size=48, num_hidden_layers=2,
                           num_attention_heads=4, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=k,
                           max_position_embeddings=128, sliding_window=None)  # fmt: skip
    model = tf.MixtralForCausalLM(cfg)
    redraw(model, seed)
    save_eager(model, folder)
    byte_bpe_tokenizer(folder, bos=False)
    return model


@pytest.mark.parametrize("k", [2, 1])
def test_mixtral_matches_transformers_with_its_router(tmp_path, k):
    hf = build_mixtral(tmp_path / "mixtral", k)
    live = models.load(tmp_path / "mixtral")
    assert live.config.n_experts == 4 and live.config.experts_top_k == k and live.config.moe_renormalize
    assert live.meta["family"] == "Mixtral"
    ids = list(range(300, 324))
    check_forward(hf, live, ids)
    with torch.no_grad():
        out = hf(torch.tensor([ids]), output_router_logits=True)
    theirs = torch.stack([torch.softmax(r.float(), -1) for r in out.router_logits]).numpy()  # [L, T, n]
    np.testing.assert_allclose(live.run_ids(ids).router["decoder"], theirs, atol=1e-4, rtol=0)
    # the gates the pages show: renormalised at k = 1 too (a gate of 1)
    from models.core import moe

    _, gates = moe.route(theirs, k, renormalize=True)
    np.testing.assert_allclose(gates.sum(-1), 1.0, atol=1e-6)


def test_mixtral_generation_with_the_kv_cache_matches_step_by_step(tmp_path):
    hf = build_mixtral(tmp_path / "mixtral", 2, seed=3)
    live = models.load(tmp_path / "mixtral")
    check_generation(hf, live, [300, 301, 302, 303], 8)


def test_mixtral_parameter_count_matches_the_module(tmp_path):
    from models.analysis import parameter_counts
    from models.published.checkpoints import describe

    hf = build_mixtral(tmp_path / "mixtral", 2)
    live = models.load(tmp_path / "mixtral")
    built = sum(p.numel() for p in live.net.parameters())
    assert sum(parameter_counts(live.config).values()) == built == sum(p.numel() for p in hf.parameters())
    e = describe(tmp_path / "mixtral")
    assert (e.family, e.arch, e.error) == ("Mixtral", "decoder", None)
