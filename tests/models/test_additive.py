"""models.teaching.additive: Bahdanau's score by hand, the dot product's, and the FLOP counts from the shapes."""

from __future__ import annotations

import numpy as np
import pytest

from models.teaching import additive


def test_additive_scores_equal_a_hand_computation():
    rng = np.random.default_rng(1)
    q, k = rng.normal(size=(5, 8)), rng.normal(size=(7, 8))
    p = additive.additive_params(8, 6, seed=3)
    s = additive.additive_scores(q, k, p)
    assert s.shape == (5, 7)
    for i in range(5):
        for j in range(7):
            hand = sum(p.v[a] * np.tanh(sum(p.w_q[a, c] * q[i, c] + p.w_k[a, c] * k[j, c] for c in range(8)))
                       for a in range(6))  # fmt: skip
            assert s[i, j] == pytest.approx(hand, abs=1e-12)
    assert p.n_params == 2 * 6 * 8 + 6


def test_dot_scores_and_masked_softmax():
    rng = np.random.default_rng(2)
    q, k = rng.normal(size=(4, 16)), rng.normal(size=(4, 16))
    s = additive.dot_scores(q, k)
    assert s[1, 2] == pytest.approx(q[1] @ k[2] / 4)
    w = additive.softmax_rows(s, np.tril(np.ones((4, 4), bool)))
    np.testing.assert_allclose(w.sum(-1), 1)
    assert w[0, 1:].sum() == 0 and w[0, 0] == 1


def test_flops_from_the_shapes():
    f = additive.flops(t_q=64, t_k=64, d_k=16, d_a=16)
    assert f.dot == 2 * 16 * 64 * 64 and f.dot_per_score == 32
    assert f.additive == 2 * 16 * 16 * 128 + 4 * 16 * 64 * 64
    assert f.additive_per_score == pytest.approx(4 * 16 + 2 * 16 * 16 * 128 / 64**2)  # 64 + 16 = 80
    assert additive.flops(256, 256, 64, 64).additive_per_score == pytest.approx(256 + 2 * 64 * 64 * 512 / 256**2)


def test_wall_times_have_one_number_per_length():
    times = additive.wall_times(16, 16, lengths=(8, 16), repeat=1)
    assert set(times) == {"dot", "additive"} and all(len(v) == 2 and min(v) > 0 for v in times.values())
