"""The post-training page's margins figure (lessons/posttrain_margins.py): before any run, the shipped decoder's
margins on the held-out pairs, equal to log π(chosen) − log π(rejected) computed from the model itself; after a
run, the trained (DPO) margins with the shipped ones beside them."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import models
from models import posttrain_run
from models.training import posttrain as P
from tests.pages.apptest import array, figures, open_app


def _logprob_difference() -> np.ndarray:
    """log π(chosen|x) − log π(rejected|x) of each held-out pair, from the decoder's own log-softmax, pair by pair."""
    m = models.load("decoder")
    out = []
    with torch.no_grad():
        for p in P.split()[2]:
            w, lo = (float(P.sequence_logprob(m.net, m.tokenizer, [p.prompt], [a])[0]) for a in (p.chosen, p.rejected))
            out.append(w - lo)
    return np.array(out)


def test_margins_are_the_models_log_prob_difference():
    m = models.load("decoder")
    measured = P.measure(m.net, m.tokenizer, P.split()[2])
    np.testing.assert_allclose(P.margins(measured), _logprob_difference(), atol=1e-3)  # measure rounds to 1e-5
    assert P.margins({"chosen": [1.0, -2.0], "rejected": [0.5, -1.0]}) == [0.5, -1.0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_untrained_page_opens_on_the_shipped_margins(tmp_path, monkeypatch, lang):
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(tmp_path))
    at = open_app("posttrain", lang=lang)
    (fig,) = figures(at)
    assert len(fig["data"]) == 1
    np.testing.assert_allclose(array(fig["data"][0]["y"]), _logprob_difference(), atol=1e-3)
    assert len(array(fig["data"][0]["y"])) == P.N_HELD
    assert ("留出" if lang == "zh" else "held-out") in fig["layout"]["title"]["text"]


def test_trained_margins_beside_the_shipped_ones(tmp_path_factory, monkeypatch):
    root = tmp_path_factory.mktemp("posttrain-margins")
    base = models.load("decoder")
    nets, results = P.post_train(base.net, base.tokenizer, recipe={"sft_steps": 2, "dpo_steps": 2})
    posttrain_run.save(nets, results, posttrain_run.entry_path(posttrain_run.entry_key(), root))
    monkeypatch.setenv("ATTENTION_LAB_CACHE", str(root))
    at = open_app("posttrain")
    fig = figures(at)[0]
    after, shipped = array(fig["data"][0]["y"]), array(fig["data"][1]["y"])
    np.testing.assert_allclose(after, P.margins(results["held"]["dpo"]), atol=1e-6)
    np.testing.assert_allclose(shipped, P.margins(results["held"]["base"]), atol=1e-3)
    np.testing.assert_allclose(shipped, _logprob_difference(), atol=1e-3)
