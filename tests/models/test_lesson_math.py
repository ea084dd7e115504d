"""The numbers the rank, positional and softmax lessons show: rank reports, softmax in two
precisions, the shift matrix, RoPE's offset-only scores, q·k variance, the sweep and the shuffle test."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

import models
from models import analysis
from models.core.positional import (
    apply_rope,
    pair_frequencies,
    rope_rotate,
    rope_score_grid,
    shift_matrix,
    sinusoidal_table,
)
from models.inspection.experiments import rank_sweep, shuffle_order, shuffle_test


def sharp_scores(n=64, d=8, sharp=6.0, seed=0, causal=True):
    rng = np.random.default_rng(seed)
    q, k = rng.normal(size=(n, d)) * sharp, rng.normal(size=(n, d)) * sharp
    s = q @ k.T / np.sqrt(d)
    if causal:
        s[np.triu_indices(n, 1)] = -np.inf
    return s


def test_softmax_rows_sum_to_one_and_masked_entries_are_zero():
    s = sharp_scores(causal=True, sharp=1.0)
    for dtype in (np.float32, np.float64):
        w = analysis.softmax(s, dtype)
        assert w.dtype == dtype
        np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-5)
        assert (w[np.triu_indices(64, 1)] == 0).all()
    assert (analysis.softmax(np.full((2, 3), -np.inf)) == 0).all()  # fully masked rows: zeros, not NaN


def test_log_softmax_stays_finite_where_the_weight_underflows():
    s = np.array([[0.0, -2000.0]])
    assert analysis.softmax(s, np.float64)[0, 1] == 0.0
    assert analysis.log_softmax(s)[0, 1] == pytest.approx(-2000.0)


def test_causal_matrix_is_provably_full_rank_even_when_float32_says_otherwise():
    """The issue's n = 64, d = 8 float32 case: diagonal weights underflow, numerical rank drops,
    but the triangular structure proves full rank and log|det| = Σ log p_ii stays finite."""
    s = sharp_scores()
    r32 = analysis.rank_report(s, np.float32)
    r64 = analysis.rank_report(s, np.float64)
    assert r32.lower_triangular and r32.exact_full_rank is True
    assert r32.min_diagonal == 0.0  # underflowed to exactly 0 in float32
    assert r64.min_diagonal > 0 and np.log10(r64.min_diagonal) == pytest.approx(r64.log10_min_diagonal, abs=1e-6)
    assert r32.numerical_rank < 64 and np.isfinite(r32.log_abs_det)
    assert r32.log_abs_det == r64.log_abs_det  # from log-softmax, not from the rounded weights
    bi = analysis.rank_report(sharp_scores(causal=False), np.float32)
    assert bi.exact_full_rank is None and not bi.lower_triangular


def test_rank_report_matches_numpy_and_the_triangular_determinant():
    s = sharp_scores(n=12, sharp=1.0)
    r = analysis.rank_report(s)
    w = analysis.softmax(s)
    assert r.numerical_rank == np.linalg.matrix_rank(w) == 12
    np.testing.assert_allclose(r.singular_values, np.linalg.svd(w, compute_uv=False))
    assert r.log_abs_det == pytest.approx(np.linalg.slogdet(w)[1], rel=1e-9)
    assert r.log_abs_det == pytest.approx(np.log(np.diag(w)).sum(), rel=1e-12)
    assert r.numerical_rank == analysis.rank_report(s, tol=0.0).numerical_rank
    assert analysis.rank_report(s, tol=10.0).numerical_rank == 0
    assert 1.0 <= r.effective_rank <= 12


def test_identical_rows_make_a_bidirectional_matrix_rank_deficient():
    s = np.random.default_rng(1).normal(size=(5, 5))
    s[3] = s[1]
    r = analysis.rank_report(s)
    assert r.numerical_rank == 4 and r.exact_full_rank is None


def test_effective_rank_of_stacks_and_extremes():
    assert analysis.effective_rank(np.eye(5)) == pytest.approx(5.0)
    assert analysis.effective_rank(np.ones((5, 5))) == pytest.approx(1.0)
    s = np.array([[3.0, 0.0, 0.0], [1.0, 1.0, 1.0]])
    np.testing.assert_allclose(analysis.effective_rank_of(s), [1.0, 3.0])


def test_softmax_jacobian_norm_is_zero_when_saturated_and_at_most_one_half():
    assert analysis.softmax_jacobian_norm(np.array([1.0, 0.0, 0.0])) == pytest.approx(0.0, abs=1e-12)
    assert analysis.softmax_jacobian_norm(np.full(4, 0.25)) == pytest.approx(0.25)
    assert analysis.softmax_jacobian_norm(np.array([0.5, 0.5, 0.0])) == pytest.approx(0.5)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert analysis.softmax_jacobian_norm(analysis.softmax(rng.normal(0, 3, 8))) <= 0.5 + 1e-12
    p = analysis.softmax(np.array([2.0, 1.0, 0.5, -1.0]))
    j = np.diag(p) - np.outer(p, p)
    assert analysis.softmax_jacobian_norm(p) == pytest.approx(np.linalg.norm(j, 2))


@pytest.mark.parametrize("d_k", [1, 16, 256])
@pytest.mark.parametrize("sigma", [0.5, 1.0])
def test_qk_variance_is_d_k_sigma4_and_the_scale_brings_it_back(d_k, sigma):
    x = analysis.dot_products(d_k, 40000, sigma)
    assert np.var(x) == pytest.approx(d_k * sigma**4, rel=0.1)
    assert np.var(x / np.sqrt(d_k)) == pytest.approx(sigma**4, rel=0.1)


def test_cosine_is_the_dot_product_divided_by_the_norms():
    q, k = np.array([3.0, 4.0]), np.array([6.0, 8.0])
    assert analysis.cosine(q, k) == pytest.approx(1.0)
    assert q @ k == 50.0  # same direction, but the dot product grows with the norms
    assert analysis.cosine(q, np.zeros(2)) == 0.0


@pytest.mark.parametrize("d,base", [(16, 10000.0), (64, 100.0), (6, 10000.0)])
def test_sinusoidal_values_match_the_formula(d, base):
    pe = sinusoidal_table(50, d, base)
    for pos, i in [(0, 0), (7, 1), (33, d // 2 - 1)]:
        angle = pos / base ** (2 * i / d)
        assert pe[pos, 2 * i] == pytest.approx(np.sin(angle))
        assert pe[pos, 2 * i + 1] == pytest.approx(np.cos(angle))
    np.testing.assert_allclose(pair_frequencies(d, base), 1 / base ** (np.arange(0, d, 2) / d))


@pytest.mark.parametrize("k", [1, 5, 40])
def test_pe_of_a_shifted_position_is_a_rotation_of_the_pe(k):
    pe = sinusoidal_table(120, 32)
    m = shift_matrix(k, 32)
    np.testing.assert_allclose(pe[: 120 - k] @ m.T, pe[k:], atol=1e-12)
    np.testing.assert_allclose(m @ m.T, np.eye(32), atol=1e-12)  # orthogonal: a rotation


def test_pe_similarity_depends_only_on_the_offset():
    pe = sinusoidal_table(64, 32)
    sim = pe @ pe.T
    for off in (0, 3, 10):
        diag = np.diagonal(sim, off)
        np.testing.assert_allclose(diag, diag[0], atol=1e-10)


def test_rope_numpy_equals_torch_and_scores_depend_only_on_the_offset():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(9, 16))
    ours = rope_rotate(x, np.arange(9))
    theirs = apply_rope(torch.tensor(x)[None, None], torch.arange(9))[0, 0].numpy()
    np.testing.assert_allclose(ours, theirs, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), np.linalg.norm(x, axis=1))
    g = rope_score_grid(x[0], x[1], 30)
    for off in (-5, 0, 7):
        diag = np.diagonal(g, off)
        np.testing.assert_allclose(diag, diag[0], atol=1e-10)


@pytest.fixture(scope="module")
def decoder():
    return models.load("decoder")


def test_rank_sweep_shapes_and_causal_numerical_rank_is_the_length_at_random_init(decoder):
    rnd = models.build(decoder.config)
    out = rank_sweep(rnd, lengths=(8, 32, 999), n_samples=2)
    assert list(out["lengths"]) == [8, 32]  # 999 > max_len is dropped
    assert out["causal.effective"].shape == (2, 2)
    np.testing.assert_allclose(out["causal.numerical"], 1.0)
    assert (out["bidirectional.effective"] <= 1.0).all() and (out["bidirectional.effective"] > 0).all()
    again = rank_sweep(rnd, lengths=(8, 32), n_samples=2)
    np.testing.assert_array_equal(again["causal.effective"], out["causal.effective"])  # deterministic


def test_shuffle_test_no_pe_bidirectional_is_only_permuted(decoder):
    nope = models.build(dataclasses.replace(decoder.config, positional="none"))
    ids = nope.source_ids("the cats that the dog sees are happy .")[0]
    order = shuffle_order(nope, ids, seed=3)
    assert order[0] == 0 and sorted(order) == list(range(len(ids))) and order != list(range(len(ids)))
    assert shuffle_test(nope, ids, order, "bidirectional").max() < 1e-4
    causal = shuffle_test(nope, ids, order, "causal")
    assert causal[0] == 0 and causal.max() > 1e-2  # the causal mask carries position
    assert shuffle_test(decoder, ids, order, "bidirectional").max() > 1e-2  # RoPE carries position


def test_nested_dot_products_have_variance_d_at_every_prefix():
    dims = (1, 4, 64, 300)
    x = analysis.nested_dot_products(dims, 30000)
    assert x.shape == (30000, 4)
    np.testing.assert_allclose(x.var(0), dims, rtol=0.06)
    np.testing.assert_allclose(x.mean(0) / np.sqrt(dims), 0, atol=0.05)
    with pytest.raises(ValueError):
        analysis.nested_dot_products((4, 2))


def test_attention_sides_count_other_masks_as_words_and_specials_apart():
    from models.inspection.experiments import attention_sides
    from models.tokenizer import CLS, MASK, SEP

    enc = models.load("encoder")
    ids = [CLS, 10, MASK, 11, MASK, SEP]
    row = np.array([0.1, 0.2, 0.05, 0.15, 0.3, 0.2])
    sides = attention_sides(enc, ids, row, 2)
    assert sides == pytest.approx({"left": 0.2, "right": 0.45, "special": 0.3, "self": 0.05})
    assert sum(sides.values()) == pytest.approx(1.0)


def test_recipe_shares_converge_to_15_and_80_10_10():
    from models.training import mlm as mlm_mod

    shares = mlm_mod.recipe_shares(mlm_mod.recipe_counts(list(range(10, 40)), 2048, 10_000, seed=1))
    assert abs(shares["chosen"][-1] - 0.15) < 0.01
    assert abs(shares["mask"][-1] - 0.8) < 0.02 and abs(shares["random"][-1] - 0.1) < 0.015
    assert abs(shares["mask"][-1] + shares["random"][-1] + shares["keep"][-1] - 1) < 1e-12


def test_rope_pair_depends_only_on_the_offset():
    """The RoPE section's numbers (models.core.positional.rope_pair): moving both positions on leaves q·k as it
    was, rotation keeps lengths, and every diagonal of the score grid is constant to float rounding."""
    from models.core.positional import rope_pair

    rng = np.random.default_rng(3)
    q, k = rng.normal(size=32), rng.normal(size=32)
    pair = rope_pair(q, k, 5, 17)
    assert abs(pair["dot"] - pair["moved"]) < 1e-9
    assert abs(np.linalg.norm(pair["rq"]) - np.linalg.norm(q)) < 1e-12
    assert pair["grid"].shape == (64, 64) and pair["spread"] < 1e-9
    assert abs(pair["grid"][5, 17] - pair["dot"]) < 1e-9


def test_rope_example_is_one_fixed_pair_whose_rotation_keeps_norms():
    """The Positional page's RoPE example (models.core.positional.rope_example): the same q and k for every slider
    position, rotated without changing their length, and q·k after rotation depends only on n - m."""
    import numpy as np

    from models.core.positional import rope_example

    a, b = rope_example(3, 7), rope_example(20, 24)
    assert np.array_equal(a["q"], b["q"]) and np.array_equal(a["k"], b["k"]) and a["q"].shape == (32,)
    assert a["norm_rq"] == pytest.approx(a["norm_q"], rel=1e-12)
    assert a["plain"] == pytest.approx(float(a["q"] @ a["k"]))
    assert a["dot"] == pytest.approx(b["dot"], abs=1e-9) and a["dot"] == pytest.approx(a["moved"], abs=1e-9)
    assert a["dot"] != pytest.approx(a["plain"], abs=1e-6)  # the rotation does change q·k at offset 4


def test_scale_sweep_is_each_scales_softmax_and_sharpens_with_the_scale():
    """numerics.scale_sweep, the Softmax page's one-row curves (cached per σ and d_k since issue 40): at each scale
    the entropy, peak and Jacobian norm of that scale's own softmax; entropy falls and the peak rises as s grows."""
    row = analysis.score_row(1.0, 64, 8)
    np.testing.assert_array_equal(row, analysis.score_row(1.0, 64, 8))  # the same draw every time
    scales = 2.0 ** np.arange(-8, 0.01, 0.5)
    entropy, peak, jac = analysis.scale_sweep(row, scales)
    for i in (0, 7, len(scales) - 1):
        p = analysis.softmax(scales[i] * row)
        assert entropy[i] == analysis.row_entropy(p) and peak[i] == p.max()
        assert jac[i] == analysis.softmax_jacobian_norm(p) and 0 <= jac[i] <= 0.5
    assert (np.diff(entropy) <= 1e-12).all() and (np.diff(peak) >= -1e-12).all()
