"""The logit lens reads the model's own head; a knocked-out head is exactly zeroed (or uniform) and
nothing else changes; and knocking out the shipped decoder's induction heads breaks copying."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
import torch

import models
from models import analysis
from models.inspection import interventions, probes
from tests.models.hf.tiny import build

TEXT = "the cats that the dog sees are happy . alice met bob at the park . then alice gave bob a"


@pytest.fixture(scope="module")
def decoders(tmp_path_factory):
    root = tmp_path_factory.mktemp("lens")
    build("gpt2", root / "gpt2")
    build("llama", root / "llama")  # 4 query heads share 2 K/V heads (GQA), RoPE, RMSNorm
    return {"decoder": models.load("decoder"), "gpt2": models.load(root / "gpt2"), "llama": models.load(root / "llama")}


@pytest.mark.parametrize("name", ["decoder", "gpt2", "llama"])
def test_the_lens_last_layer_is_the_models_own_output(decoders, name):
    model = decoders[name]
    tr = model.run(TEXT)
    lens = interventions.logit_lens(model, tr)
    n_layers = model.config.n_layers + 1
    assert lens.top_ids.shape == lens.top_prob.shape == lens.final_prob.shape == (n_layers, len(tr.ids))
    logits = np.asarray(tr.logits, np.float64)
    p = np.exp(logits - logits.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_array_equal(lens.top_ids[-1], logits.argmax(-1))
    np.testing.assert_allclose(lens.top_prob[-1], p.max(-1), rtol=1e-5)
    np.testing.assert_array_equal(lens.final_ids, lens.top_ids[-1])
    np.testing.assert_allclose(lens.final_prob[-1], lens.top_prob[-1])
    # every layer: the same as reading that layer's stream through the final norm and head in one go
    net = model.net
    for layer in range(n_layers):
        full = net.logits(net.dec_norm(torch.from_numpy(tr.hidden["decoder"][layer]))).double().softmax(-1).numpy()
        np.testing.assert_array_equal(lens.top_ids[layer], full.argmax(-1))
        np.testing.assert_allclose(lens.final_prob[layer], full[np.arange(len(tr.ids)), lens.final_ids], rtol=1e-6)


def test_the_lens_is_computed_in_chunks_for_big_vocabularies(decoders, monkeypatch):
    model = decoders["gpt2"]
    tr = model.run(TEXT)
    whole = interventions.logit_lens(model, tr)
    monkeypatch.setattr(interventions, "LENS_CHUNK", 3 * model.config.vocab_size)  # 3 positions at a time
    chunked = interventions.logit_lens(model, tr)
    np.testing.assert_array_equal(chunked.top_ids, whole.top_ids)
    # float32 matmuls of another shape may round the last bit differently (oneDNN picks its kernel by shape: on
    # an AMX machine 3-row chunks and the whole matrix differ by ~1e-7): equal to float32's precision
    np.testing.assert_allclose(chunked.final_prob, whole.final_prob, rtol=1e-5)


def test_encoders_are_refused(decoders):
    enc = models.load("encoder")
    with pytest.raises(interventions.NotADecoder):
        interventions.logit_lens(enc, enc.run(TEXT))
    with pytest.raises(interventions.NotADecoder):
        interventions.knockout(enc, enc.source_ids(TEXT)[0], 0, 0)


@pytest.mark.parametrize("name", ["decoder", "gpt2", "llama"])
def test_no_ablation_is_bit_identical(decoders, name):
    model = decoders[name]
    ids = model.source_ids(TEXT)[0]
    assert np.array_equal(interventions.run_logits(model, ids).numpy(), np.asarray(model.run_ids(ids).logits))
    assert np.array_equal(interventions.run_logits(model, ids, {}).numpy(), np.asarray(model.run_ids(ids).logits))


def _zeroed_copy(model, layer, heads):
    """An independent knock-out: the head's input columns of W_O set to 0 in a copy of the weights."""
    other = copy.deepcopy(model)
    dh = model.config.d_head
    with torch.no_grad():
        for h in heads:
            other.net.decoder[layer].self_attn.o.weight[:, h * dh : (h + 1) * dh] = 0
    return other


@pytest.mark.parametrize("name", ["decoder", "gpt2", "llama"])
@pytest.mark.parametrize(("layer", "heads"), [(0, (1,)), (1, (0, 3))])
def test_zero_equals_zeroing_the_heads_columns_of_w_o(decoders, name, layer, heads):
    model = decoders[name]
    ids = model.source_ids(TEXT)[0]
    got = interventions.run_logits(model, ids, interventions.ablation(model, layer, heads, "zero"))
    want = _zeroed_copy(model, layer, heads).run_ids(ids).logits
    np.testing.assert_allclose(got.numpy(), np.asarray(want), rtol=1e-5, atol=1e-5)
    assert not np.allclose(got.numpy(), np.asarray(model.run_ids(ids).logits), atol=1e-4)  # it did change


@pytest.mark.parametrize("name", ["decoder", "llama"])
def test_uniform_rows_are_uniform_over_allowed_keys_and_other_heads_unchanged(decoders, name):
    model = decoders[name]
    net, ids = model.net, model.source_ids(TEXT)[0]
    src, mask, scale = torch.tensor([ids]), model.self_mask(len(ids)), model.config.scale
    _, base, _ = net.run_stack(net.decoder, src, mask, scale)
    _, recs, _ = net.run_stack(net.decoder, src, mask, scale, ablate={0: {1: "uniform"}})
    w = recs[0]["self_weights"][0].numpy()  # [H, T, T] of layer 0
    allowed = mask.numpy()
    np.testing.assert_allclose(w[1], allowed / allowed.sum(-1, keepdims=True), rtol=1e-6)
    others = [h for h in range(model.config.n_heads) if h != 1]
    np.testing.assert_array_equal(w[others], base[0]["self_weights"][0].numpy()[others])  # same layer, other heads
    # its output is the mean of the values it may see (GQA: its K/V group's values)
    _, k_v = recs[0]["present"]
    v = k_v[0, 1 // (model.config.n_heads // model.config.kv_heads)].numpy()  # (T, dh)
    means = np.cumsum(v, 0) / np.arange(1, len(ids) + 1)[:, None]
    block = net.decoder[0]
    h = block.norm_self(net.embed(src, torch.arange(len(ids)))) if block.pre else net.embed(src, torch.arange(len(ids)))
    q = torch.zeros(1, len(ids), model.config.n_heads * model.config.d_head)
    out, *_ = block.self_attn.forward(h, h, mask, scale, torch.arange(len(ids)), None, {1: "uniform"})
    zeroed, *_ = block.self_attn.forward(h, h, mask, scale, torch.arange(len(ids)), None, {1: "zero"})
    dh = model.config.d_head
    q[0, :, dh : 2 * dh] = torch.from_numpy(means)
    np.testing.assert_allclose((out - zeroed)[0].numpy(), (q @ block.self_attn.o.weight.T)[0].numpy(), atol=1e-5)


def test_knockout_reports_both_models(decoders):
    model = decoders["decoder"]
    ids = model.source_ids(TEXT)[0]
    ko = interventions.knockout(model, ids, 1, [0, 1, 2, 3], "zero", k=5)
    assert ko.heads == (0, 1, 2, 3) and len(ko.top_ids) == 5
    logits = np.asarray(model.run_ids(ids).logits, np.float64)
    p = np.exp(logits[-1] - logits[-1].max())
    np.testing.assert_allclose(ko.p_base, (p / p.sum())[ko.top_ids], rtol=1e-6)
    top = logits.max(-1, keepdims=True)
    lp = logits - (top + np.log(np.exp(logits - top).sum(-1, keepdims=True)))  # log-softmax
    assert ko.loss_base == pytest.approx(-lp[np.arange(len(ids) - 1), ids[1:]].mean(), rel=1e-6)
    assert ko.loss_knocked > ko.loss_base  # the prompt repeats "alice ... bob": copying it needs layer 1
    with pytest.raises(ValueError):
        interventions.knockout(model, ids, 5, 0)
    with pytest.raises(ValueError):
        interventions.knockout(model, ids, 0, 0, "half")
    assert np.isnan(interventions.knockout(model, ids[:1], 0, 0).loss_base)  # one token: nothing to predict


def test_knocking_out_the_induction_heads_breaks_copying_a_diffuse_head_barely(decoders):
    """The issue's test: [BOS] R R with R random tokens, accuracy of predicting R[j+1] in the second copy."""
    model = decoders["decoder"]
    induction = probes.induction_scores(model)  # [L, H]
    heads = np.argwhere(induction >= 0.5)  # the shipped decoder copies with all four heads of layer 1
    (layer,) = set(heads[:, 0].tolist())
    r = probes.random_span(random.Random(probes.HELD_OUT_SEED), model.config.vocab_size, 20)
    entropy = analysis.row_entropy(model.run_ids([1, *r, *r]).attention["decoder.self"])[:, :, 1:].mean(-1)
    d_layer, d_head = np.unravel_index(entropy.argmax(), entropy.shape)  # the most diffuse head on these inputs
    assert induction[d_layer, d_head] < 0.5
    base = interventions.copying_accuracy(model)
    knocked = interventions.copying_accuracy(model, interventions.ablation(model, layer, heads[:, 1], "zero"))
    diffuse = interventions.copying_accuracy(model, interventions.ablation(model, d_layer, [d_head], "zero"))
    assert base > 0.9
    assert knocked < 0.2  # measured 0.98 -> 0.00
    assert diffuse > base - 0.05  # measured 0.98 -> 0.96
