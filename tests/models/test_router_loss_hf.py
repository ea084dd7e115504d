"""Issue 41, item 13: the load-balancing loss the Explorer and the lab show (models/core/moe.py: n · Σ f_i · P_i, the
f_i
summing to 1 over the T·k assignments) against transformers' `load_balancing_loss_func` (Mixtral's, which Granite
MoE's configs train with): transformers' f_i count each token's k choices against the T tokens, so they sum to k
and its loss is k × ours for one layer; over several layers it pools the tokens before the product."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from models.core import moe

pytest.importorskip("transformers")
from transformers.models.mixtral.modeling_mixtral import load_balancing_loss_func


@pytest.mark.parametrize(("n", "k"), [(8, 1), (8, 2), (4, 3), (32, 8)])
def test_transformers_reports_k_times_the_apps_value(n, k):
    torch.manual_seed(n * 10 + k)
    logits = torch.randn(37, n) * 2.0  # one layer, 37 tokens
    probs = torch.softmax(logits, dim=-1).numpy()
    _, ours = moe.balance_of(probs, k)
    theirs = float(load_balancing_loss_func((logits,), num_experts=n, top_k=k))
    np.testing.assert_allclose(theirs / ours, k, rtol=1e-5)


@pytest.mark.parametrize("k", [1, 2])
def test_an_even_load_is_1_here_and_k_there(k):
    n = 4
    logits = torch.zeros(8, n)  # uniform probabilities; top-k of ties: torch.topk's first k, the same on both sides
    probs = torch.softmax(logits, dim=-1).numpy()
    load, ours = moe.balance_of(probs, k)
    theirs = float(load_balancing_loss_func((logits,), num_experts=n, top_k=k))
    assert load.sum() == pytest.approx(1.0)
    assert theirs == pytest.approx(k * ours)


def test_over_layers_transformers_pools_the_tokens_first():
    n, k = 8, 2
    torch.manual_seed(0)
    layers = (torch.randn(20, n) * 3.0, torch.randn(20, n) * 0.1)  # a peaked router, a nearly flat one
    per_layer = [moe.balance_of(torch.softmax(x, -1).numpy(), k)[1] for x in layers]
    pooled = moe.balance_of(torch.softmax(torch.cat(layers), -1).numpy(), k)[1]
    theirs = float(load_balancing_loss_func(layers, num_experts=n, top_k=k))
    np.testing.assert_allclose(theirs, k * pooled, rtol=1e-5)
    assert abs(theirs - k * np.mean(per_layer)) > 1e-3  # not k × the mean of the layers' values
