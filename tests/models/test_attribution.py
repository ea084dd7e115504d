"""Direct logit attribution against TransformerLens 4.3.0 (the head results of its cache through the final norm's
frozen scale, apply_ln=True) and the identities it must keep: the parts add up to the metric, a head whose W_O is
zero has no direct effect, a model that cannot be attributed says why.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch

import models
from models import attribution

from .hf.tiny import build
from .test_patching import ANSWER, CLEAN, WRONG, boot

pytest.importorskip("transformers")
pytest.importorskip("transformer_lens")
warnings.filterwarnings("ignore", message=".*token_id.*")


@pytest.fixture(scope="module", params=["gpt2", "qwen2"])
def pair_(request, tmp_path_factory):
    """GPT-2 (LayerNorm, biases) and Qwen2 (RMSNorm, GQA, q/k/v biases)."""
    return boot(request.param, tmp_path_factory.mktemp("dla") / request.param)


def test_direct_matches_transformerlens(pair_):
    """TransformerLens's recipe: cache.stack_head_results(apply_ln=True) divides each head's result at the last
    position by the final norm's scale (centred for LayerNorm); its bridge keeps the norm's gain unfolded, so the
    gain multiplies before the dot product with W_U[:, answer] − W_U[:, wrong]."""
    live, bridge = pair_
    _, cache = bridge.run_with_cache(torch.tensor([CLEAN]))
    stack = cache.stack_head_results(layer=-1, pos_slice=-1, apply_ln=True)[:, 0]  # [L·H, d]
    gain = live.net.dec_norm.weight.detach()
    du = bridge.W_U[:, ANSWER] - bridge.W_U[:, WRONG]
    theirs = ((stack * gain) @ du).detach().numpy().reshape(live.config.n_layers, live.config.n_heads)
    d = attribution.direct(live, CLEAN, ANSWER, WRONG)
    np.testing.assert_allclose(d.heads, theirs, atol=1e-5, rtol=0)
    logits = bridge(torch.tensor([CLEAN]))[0, -1].detach()
    assert d.total == pytest.approx(float(logits[ANSWER] - logits[WRONG]), abs=1e-5)


def test_parts_add_up_to_the_metric_in_float64(pair_):
    live, _ = pair_
    d = attribution.direct(live, torch.tensor([CLEAN]), ANSWER, WRONG)
    assert d.heads.sum() + d.rest == d.total
    assert d.embed + d.mlps.sum() + d.attn_bias.sum() + d.bias == pytest.approx(d.rest, abs=1e-12)
    assert sum(d.parts.values()) == pytest.approx(d.total, abs=1e-9)
    assert d.total == pytest.approx(d.model_metric, abs=1e-5) and d.capped_metric == d.model_metric
    assert not d.softcapped and d.exists.all() and d.mlps.shape == (live.config.n_layers,)
    assert set(d.parts) >= {"embed", "bias", "L0H0", "L1 mlp", "L1 attn bias"}


def test_toy_decoder_parts_add_up():
    model = models.load("decoder")
    model.net.double()
    ids = [1, *range(40, 60), *range(40, 50)]
    d = attribution.direct(model, ids, 50, 41)
    assert d.total == pytest.approx(d.model_metric, abs=1e-5)
    assert d.heads.shape == (2, 4) and d.heads.sum() + d.rest == d.total


def test_a_head_whose_output_matrix_is_zero_has_no_direct_effect(tmp_path):
    build("llama", tmp_path / "llama")
    live = models.load(tmp_path / "llama")
    live.net.double()
    dh = live.config.d_head
    with torch.no_grad():
        live.net.decoder[0].self_attn.o.weight[:, 1 * dh : 2 * dh] = 0.0
    d = attribution.direct(live, CLEAN, ANSWER, WRONG)
    assert d.heads[0, 1] == 0.0 and np.abs(d.heads).max() > 1e-3
    assert d.total == pytest.approx(d.model_metric, abs=1e-5)


def test_what_cannot_be_attributed_says_why():
    with pytest.raises(ValueError, match="decoder-only"):
        attribution.direct(models.load("encoder"), [2, 40, 41, 3], 5, 6)
    with pytest.raises(ValueError, match="vocabulary"):
        attribution.direct(models.load("decoder"), [1, 40, 41], 5, 10**6)
