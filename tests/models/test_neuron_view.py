"""The neuron view (models/inspection/neuron_view.py): Σ q⊙k × scale is the score the model computed, for every query,
key
and head of the toy decoder (RoPE), the toy encoder (learned positions), the encoder-decoder's two
self-attentions (sinusoidal) and a RoPE model with per-head q/k norm, partial rotary and GQA."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models.core.positional import apply_rope
from models.inspection.neuron_view import allowed_keys, extra_term, neuron_view

PROMPT = "the cats that the dog sees are happy ."


def _check_every_score(model: models.LiveModel, tr: models.Trace, kind: str) -> int:
    n_layers, n_heads, n, _ = tr.scores[kind].shape
    checked = 0
    for layer in range(n_layers):
        for head in range(n_heads):
            for i in range(n):
                keys = allowed_keys(tr, kind, layer, i)
                np.testing.assert_array_equal(keys, np.flatnonzero(np.isfinite(tr.scores[kind][layer, head, i])))
                for j in keys:
                    nv = neuron_view(model, tr, kind, layer, head, i, int(j))
                    assert nv.exact and nv.extra is None
                    np.testing.assert_allclose(nv.product.sum(), nv.dot)
                    assert nv.score == pytest.approx(nv.dot * tr.attn_scale)
                    assert abs(nv.score - tr.scores[kind][layer, head, i, j]) < 1e-5
                    checked += 1
    return checked


@pytest.mark.parametrize(
    ("name", "text", "target", "kinds"),
    [
        ("decoder", PROMPT, None, ["decoder.self"]),
        ("encoder", PROMPT, None, ["encoder.self"]),
        ("encoder-decoder", "1234", None, ["encoder.self", "decoder.self"]),
    ],
)
def test_sum_times_scale_is_the_traced_score(name, text, target, kinds):
    model = models.load(name)
    tr = model.run(text, target=target) if target else model.run(text)
    for kind in kinds:
        assert _check_every_score(model, tr, kind) > 0


def test_the_toy_decoder_is_a_rope_model_and_rotation_is_the_models():
    model = models.load("decoder")
    assert model.config.positional == "rope"
    tr = model.run(PROMPT)
    nv = neuron_view(model, tr, "decoder.self", 1, 2, 6, 2)
    assert nv.rope and nv.rope_dims == model.config.d_head
    inv = model.net.decoder[1].self_attn.inv_freq
    q = apply_rope(torch.tensor(nv.q)[None], torch.tensor([6]), inv)[0].numpy()
    k = apply_rope(torch.tensor(nv.k)[None], torch.tensor([2]), inv)[0].numpy()
    np.testing.assert_allclose(q, nv.q_rot, atol=1e-5)
    np.testing.assert_allclose(k, nv.k_rot, atol=1e-5)
    assert not np.allclose(nv.q, nv.q_rot)  # position 6 turns q
    np.testing.assert_allclose(np.linalg.norm(nv.q), np.linalg.norm(nv.q_rot), rtol=1e-5)  # a rotation keeps |q|
    # at position 0 nothing turns: before and after are the same vector
    first = neuron_view(model, tr, "decoder.self", 1, 2, 0, 0)
    np.testing.assert_allclose(first.q, first.q_rot, atol=1e-6)
    assert first.dot_unrotated == pytest.approx(first.dot, abs=1e-5)


def test_a_model_without_rope_has_nothing_to_rotate():
    model = models.load("encoder")
    nv = neuron_view(model, model.run(PROMPT), "encoder.self", 0, 1, 3, 5)
    assert not nv.rope and nv.rope_dims == 0
    np.testing.assert_array_equal(nv.q, nv.q_rot)
    np.testing.assert_array_equal(nv.k, nv.k_rot)


def test_qk_norm_partial_rotary_and_gqa():
    cfg = models.ModelConfig(arch="decoder", n_layers=2, d_model=32, n_heads=4, n_kv_heads=2, head_dim=12,
                             qk_norm=True, positional="rope", rotary_dim=4, seed=3)  # fmt: skip
    model = models.build(cfg)
    tr = model.run(PROMPT)
    assert _check_every_score(model, tr, "decoder.self") > 0
    nv = neuron_view(model, tr, "decoder.self", 1, 3, 7, 4)
    assert nv.rope_dims == 4
    np.testing.assert_allclose(nv.q[4:], nv.q_rot[4:])  # only the first rotary_dim dimensions turn
    assert not np.allclose(nv.q[:4], nv.q_rot[:4])
    gain = model.net.decoder[1].self_attn.q_norm
    assert gain is not None  # the per-head norm is applied before RoPE: q is the normalised vector
    same_group = neuron_view(model, tr, "decoder.self", 1, 2, 7, 4)  # heads 2 and 3 share key head 1
    np.testing.assert_array_equal(same_group.k_rot, nv.k_rot)


def test_attn_scale_of_the_run_is_used():
    model = models.load("decoder")
    tr = model.run(PROMPT, attn_scale=0.5)
    nv = neuron_view(model, tr, "decoder.self", 0, 0, 5, 1)
    assert nv.scale == 0.5
    assert abs(nv.score - tr.scores["decoder.self"][0, 0, 5, 1]) < 1e-5


def test_an_extra_term_is_named_and_bad_arguments_refused():
    model = models.load("decoder")
    assert extra_term(model) is None
    tr = model.run(PROMPT)
    with pytest.raises(ValueError, match="self-attention"):
        neuron_view(model, tr, "decoder.cross", 0, 0, 0, 0)
    with pytest.raises(ValueError, match="positions"):
        neuron_view(model, tr, "decoder.self", 0, 0, 0, 99)
    with pytest.raises(ValueError, match="layers"):
        neuron_view(model, tr, "decoder.self", 9, 0, 0, 0)
    assert list(allowed_keys(tr, "decoder.self", 0, 3)) == [0, 1, 2, 3]  # causal: the query and before
