"""models.teaching.norms: BatchNorm mixes the batch and its padding into a sentence, LayerNorm and RMSNorm do not;
pre- vs
post-norm gradients at initialisation as Xiong et al. 2020 (Theorem 1) predict: the last layer's gradient is
about sqrt(L) times larger in post-norm."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models.teaching import norms

PROMPT = "the cat sat on the mat ."


@pytest.fixture(scope="module")
def model():
    return models.load("decoder")


@pytest.fixture(scope="module")
def comparison(model):
    return norms.compare(model, PROMPT)


def test_batchnorm_changes_the_prompt_with_the_batch_and_the_padding_layernorm_and_rmsnorm_exactly_not(comparison):
    assert comparison.change_others["batchnorm"].min() > 0.05
    assert comparison.change_padding["batchnorm"].min() > 0.05
    for kind in ("layernorm", "rmsnorm"):
        assert np.all(comparison.change_others[kind] == 0.0)  # bit for bit
        assert np.all(comparison.change_padding[kind] == 0.0)


def test_batchnorm_statistics_are_per_feature_over_batch_and_positions_padding_included(model):
    x, lengths, _ = norms.padded_batch(model, [PROMPT, *norms.OTHERS_A])
    assert min(lengths) < x.shape[1]  # there is padding
    y = norms.normalise(x, "batchnorm")
    flat = x.reshape(-1, x.shape[-1]).double()  # every (sentence, position), [PAD] included
    by_hand = (x.double() - flat.mean(0)) / torch.sqrt(flat.var(0, correction=0) + 1e-5)
    torch.testing.assert_close(y.double(), by_hand, atol=1e-4, rtol=1e-4)
    real = torch.cat([x[i, :n] for i, n in enumerate(lengths)]).double()
    assert not torch.allclose(flat.mean(0), real.mean(0), atol=1e-3)  # the padding moved the statistics


def test_layernorm_gives_each_token_mean_0_and_variance_1_rmsnorm_keeps_the_mean(comparison):
    mean, std, _ = comparison.after["layernorm"]
    np.testing.assert_allclose(mean, 0, atol=1e-6)
    np.testing.assert_allclose(std**2, 1, atol=1e-4)  # var / (var + eps)
    mean_rms, _, rms = comparison.after["rmsnorm"]
    np.testing.assert_allclose(rms, 1, atol=1e-4)
    before_mean = comparison.before[0]
    assert np.abs(mean_rms).max() > 0.01  # not centred ...
    np.testing.assert_allclose(mean_rms, before_mean / comparison.before[2], rtol=1e-4)  # ... only rescaled


def test_pad_shares_are_counted(comparison):
    la = comparison.lengths["A"]
    assert comparison.pad_share["A"] == pytest.approx(1 - sum(la) / (len(la) * max(la)))
    assert comparison.pad_share["A+pad"] > comparison.pad_share["A"]


@pytest.fixture(scope="module")
def grads(model):
    return norms.depth_gradients(tokenizer=model.tokenizer)


def test_post_norm_gradients_grow_towards_the_output_relative_to_pre_norm(grads):
    """Measured (3 seeds, 16 layers): pre-norm's W2 gradient falls from the first layer to the last (0.27), post-norm's
    stays about level (0.89), so post/pre grows from about 1.2 at layer 1 to about 4 at layer 16."""
    pre, post = grads.pre.mean(0), grads.post.mean(0)
    assert grads.ratio(grads.pre) < 0.45
    assert grads.ratio(grads.post) > 0.6
    ratio = post / pre
    assert ratio[-1] > 3.0 and ratio[-1] > 2 * ratio[0]
    assert np.all(grads.post[:, -1] > 2 * grads.pre[:, -1])  # for every seed


@pytest.mark.parametrize("n_layers", [4, 16])
def test_last_layer_ratio_is_about_sqrt_depth(model, n_layers):
    g = norms.depth_gradients(tokenizer=model.tokenizer, n_layers=n_layers)
    ratio = g.post.mean(0)[-1] / g.pre.mean(0)[-1]
    assert ratio == pytest.approx(np.sqrt(n_layers), rel=0.2)  # measured 2.00 and 3.97
