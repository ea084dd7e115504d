"""A published model's trace computes logits rows and pre-softmax scores on access: the same numbers,
a fraction of the memory (LAZY_VOCAB, LAZY_SCORES_BYTES in models/live.py)."""

from __future__ import annotations

import pickle

import numpy as np

import models
from models import live

from .tiny import build


def test_lazy_logits_and_scores_equal_the_stored_ones(tmp_path, monkeypatch):
    folder = tmp_path / "q"
    build("qwen2", folder)
    model = models.load(folder)
    ids = list(range(100, 130))
    eager = model.run_ids(ids)
    assert isinstance(eager.logits, np.ndarray) and isinstance(eager.scores, dict)
    monkeypatch.setattr(live, "LAZY_VOCAB", 0)
    monkeypatch.setattr(live, "LAZY_SCORES_BYTES", 0)
    lazy = model.run_ids(ids)
    assert isinstance(lazy.logits, live.LazyLogits) and isinstance(lazy.scores, live.LazyScores)
    assert lazy.logits.shape == eager.logits.shape
    np.testing.assert_allclose(lazy.logits[-1], eager.logits[-1], atol=1e-5)
    np.testing.assert_allclose(lazy.logits[3:7], eager.logits[3:7], atol=1e-5)
    np.testing.assert_allclose(np.asarray(lazy.logits), eager.logits, atol=1e-5)
    assert list(lazy.scores) == ["decoder.self"]
    np.testing.assert_array_equal(lazy.scores["decoder.self"], eager.scores["decoder.self"])
    np.testing.assert_array_equal(lazy.attention["decoder.self"], eager.attention["decoder.self"])
    # st.cache_data pickles what it stores: both become plain arrays, not references to the model
    back = pickle.loads(pickle.dumps(lazy))
    assert isinstance(back.logits, np.ndarray) and type(back.scores) is dict
    np.testing.assert_allclose(back.logits, eager.logits, atol=1e-5)
