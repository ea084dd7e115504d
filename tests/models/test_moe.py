"""Mixture of experts: the router's top-k and gate weights, the load-balancing loss by hand, total and
active parameter counts (Mixtral 8×7B's published 46.7B / 12.9B), training, and dense models unchanged."""

import dataclasses
import random

import numpy as np
import pytest
import torch

import models
from models import ModelConfig, analysis, variants
from models.core.blocks import FeedForward
from models.core.moe import MoEFeedForward, balance_loss, gate_weights, load_fractions
from models.loading import shipped_tokenizer
from models.teaching import catalog
from models.training.training import batch_loss


def tiny(**kw) -> ModelConfig:
    return ModelConfig(**{"n_layers": 1, "d_model": 16, "n_heads": 2, "d_ff": 32, "max_len": 32, **kw})


def test_gates_renormalise_over_the_top_k_and_switch_keeps_p_for_k1():
    probs = torch.tensor([[0.1, 0.5, 0.3, 0.1]])
    chosen, gates = gate_weights(probs, 2)
    assert chosen.tolist() == [[1, 2]]
    torch.testing.assert_close(gates, torch.tensor([[0.5 / 0.8, 0.3 / 0.8]]))  # Mixtral: softmax over the top 2
    # ... which is the softmax of the top-k logits
    logits = torch.log(probs)
    torch.testing.assert_close(gates, torch.softmax(logits.topk(2).values, -1))
    chosen, gates = gate_weights(probs, 1)
    assert chosen.tolist() == [[1]] and gates.tolist() == [[0.5]]  # Switch: p itself


def test_one_expert_top1_equals_the_dense_ffn_with_the_same_weights():
    for act in ("gelu", "swiglu", "relu"):
        cfg = tiny(activation=act, n_experts=1, experts_top_k=1)
        dense = FeedForward(cfg)
        moe = MoEFeedForward(cfg, FeedForward)
        moe.experts[0].load_state_dict(dense.state_dict())
        x = torch.randn(2, 5, 16)
        out, routing = moe(x)
        torch.testing.assert_close(out, dense(x))
        assert routing.aux.item() == pytest.approx(1.0)  # one expert: f = P = 1, n·f·P = 1


def test_each_token_runs_only_its_chosen_experts_weighted_by_the_gates():
    cfg = tiny(n_experts=4, experts_top_k=2)
    moe = MoEFeedForward(cfg, FeedForward)
    x = torch.randn(1, 6, 16)
    out, r = moe(x)
    for t in range(6):
        want = sum(r.gates[0, t, j] * moe.experts[int(r.chosen[0, t, j])](x[0, t]) for j in range(2))
        torch.testing.assert_close(out[0, t], want)
    assert r.probs.shape == (1, 6, 4) and r.chosen.shape == (1, 6, 2)


def test_aux_loss_is_n_sum_f_p_by_hand_and_one_when_balanced():
    probs = torch.tensor([[0.7, 0.2, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]])
    chosen, _ = gate_weights(probs, 1)  # experts 0, 0, 2, 0
    f = np.array([3, 0, 1]) / 4
    p = probs.numpy().mean(0)
    assert float(balance_loss(probs, chosen)) == pytest.approx(3 * float((f * p).sum()))
    np.testing.assert_allclose(load_fractions(chosen, 3).numpy(), f)
    chosen2, _ = gate_weights(probs, 2)  # k = 2: f over the 8 assignments, still sums to 1
    assert float(load_fractions(chosen2, 3).sum()) == pytest.approx(1.0)
    # a perfectly balanced router: uniform probabilities, every expert chosen equally often
    n = 4
    uniform = torch.full((8, n), 1 / n)
    even = torch.arange(8).remainder(n)[:, None]
    assert float(balance_loss(uniform, even)) == pytest.approx(1.0)
    # and a collapsed one (everything to expert 0, with probability 1) scores n
    collapsed = torch.zeros(8, n)
    collapsed[:, 0] = 1
    assert float(balance_loss(collapsed, torch.zeros(8, 1, dtype=torch.long))) == pytest.approx(n)


def test_parameter_counts_total_and_active_by_hand_and_match_the_module():
    cfg = tiny(n_experts=4, experts_top_k=2, activation="swiglu", tie_embeddings=False)
    d, ff, n = 16, 32, 4
    expert = 3 * d * ff
    total, active = analysis.parameter_counts(cfg), analysis.parameter_counts(cfg, active=True)
    assert total["ffn"] == n * expert + d * n
    assert active["ffn"] == 2 * expert + d * n
    assert {k: v for k, v in total.items() if k != "ffn"} == {k: v for k, v in active.items() if k != "ffn"}
    assert sum(total.values()) == sum(p.numel() for p in models.build(cfg).net.parameters())
    dense = dataclasses.replace(cfg, n_experts=0)
    assert analysis.parameter_counts(dense) == analysis.parameter_counts(dense, active=True)
    assert analysis.parameter_counts(dense)["ffn"] == expert


def test_mixtral_counts_46_7b_total_and_12_9b_active():
    p = catalog.MIXTRAL
    c = p.config
    assert (c.n_layers, c.d_model, c.n_heads, c.kv_heads, c.d_ff, c.n_experts, c.experts_top_k, c.vocab_size) == (
        32, 4096, 32, 8, 14336, 8, 2, 32000)  # fmt: skip
    assert round(catalog.total(p) / 1e9, 1) == 46.7
    assert round(catalog.active_total(p) / 1e9, 1) == 12.9
    # by hand: attention 2·d² + 2·d·(8·128) per layer; experts 3·d·d_ff each; router d·8; norms; embeddings + head
    d, L = 4096, 32
    attn = 2 * d * d + 2 * d * 8 * 128
    expert = 3 * d * 14336
    rest = L * (attn + d * 8 + 2 * d) + d + 2 * 32000 * d
    assert catalog.total(p) == rest + L * 8 * expert == 46_702_792_704
    assert catalog.active_total(p) == rest + L * 2 * expert == 12_879_925_248
    assert catalog.built_count(c) == catalog.total(p)  # the meta-device module agrees


def test_config_validation_and_dense_dicts_unchanged():
    with pytest.raises(ValueError, match="experts_top_k=3 is more than n_experts=2"):
        ModelConfig(n_experts=2, experts_top_k=3)
    with pytest.raises(ValueError, match="n_experts must be"):
        ModelConfig(n_experts=-1)
    with pytest.raises(ValueError, match="moe_aux_weight"):
        ModelConfig(n_experts=2, moe_aux_weight=float("nan"))
    assert "n_experts" not in ModelConfig().to_dict()  # a dense dict is what it was before MoE
    moe = ModelConfig(n_experts=4, experts_top_k=1)
    assert ModelConfig.from_dict(moe.to_dict()) == moe
    old = {k: v for k, v in ModelConfig().to_dict().items()}  # a saved config without the MoE fields loads
    assert ModelConfig.from_dict(old) == ModelConfig()


def test_shipped_models_have_no_experts_and_no_router():
    for name in ("decoder", "encoder"):
        m = models.load(name)
        assert m.config.n_experts == 0 and "n_experts" not in m.config.to_dict()
        assert m.run("the cat").router == {}


def test_trace_router_probabilities_are_per_layer_and_token():
    cfg = tiny(n_layers=2, n_experts=4, experts_top_k=2)
    tr = models.build(cfg).run("the cats are happy .")
    probs = tr.router["decoder"]
    assert probs.shape == (2, len(tr.tokens), 4)
    np.testing.assert_allclose(probs.sum(-1), 1, rtol=1e-5)
    ed = models.build(tiny(arch="encoder-decoder", n_experts=4, experts_top_k=1)).run("12", target="twelve")
    assert set(ed.router) == {"encoder", "decoder"}


def test_a_tiny_moe_decoder_learns_and_its_aux_loss_stays_finite():
    tok = shipped_tokenizer()
    cfg = ModelConfig(vocab_size=tok.vocab_size, n_layers=1, d_model=32, n_heads=2, d_ff=64, max_len=64,
                      n_experts=4, experts_top_k=2)  # fmt: skip
    torch.manual_seed(0)
    data = variants.Data(cfg, tok, seed=0)
    net = models.core.transformer.Transformer(cfg).train()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3)
    rng = random.Random(0)
    losses = []
    for _ in range(25):
        loss = batch_loss(net, rng, data.pool, tok, data.numbers, 8, 64)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    x = torch.randint(0, tok.vocab_size, (2, 16))
    _, aux = net(x, models.causal(16), cfg.scale, with_aux=True)
    aux = float(aux.detach())
    assert np.isfinite(losses).all() and np.isfinite(aux) and 1.0 <= aux <= 4.0
    assert np.mean(losses[-5:]) < losses[0] - 1.0
    assert any(p.grad is not None and p.grad.abs().sum() > 0 for p in net.decoder[0].ffn.router.parameters())


def test_aux_loss_is_at_most_n_over_k_reached_when_every_token_picks_the_same_k():
    n, k = 8, 2
    probs = torch.zeros(6, n)
    probs[:, :2] = 0.5  # all probability on experts 0 and 1, which every token chooses
    chosen, _ = gate_weights(probs, k)
    assert float(balance_loss(probs, chosen)) == pytest.approx(n / k)
    rand = torch.softmax(torch.randn(50, n) * 3, -1)
    assert 1.0 - 1e-6 <= float(balance_loss(rand, gate_weights(rand, k)[0])) <= n / k
