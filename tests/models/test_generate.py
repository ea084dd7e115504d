"""Generation with a KV cache: it must pick exactly what a full forward pass would, and sample honestly."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from models.core.sampling import choose, next_token_probs
from models.tokenizer import EOS

PROMPT = "the cat that the dogs"
N_NEW = 10


def tokens(steps) -> list[int]:
    return [s.token_id for s in steps]


@pytest.fixture
def decoder(small_model):
    # untied head: a random-init model with tied embeddings greedily repeats its last token
    return small_model("decoder", positional="rope", n_kv_heads=2, tie_embeddings=False)


# ---------------------------------------------------------------- determinism and sampling


def test_greedy_is_deterministic_and_ignores_the_seed(decoder):
    a = tokens(decoder.generate(PROMPT, max_new_tokens=N_NEW))
    b = tokens(decoder.generate(PROMPT, max_new_tokens=N_NEW))
    c = tokens(decoder.generate(PROMPT, max_new_tokens=N_NEW, seed=123))
    assert a == b == c
    assert len(a) == N_NEW


def test_sampling_repeats_with_the_same_seed_and_varies_across_seeds(decoder):
    def sample(seed: int) -> list[int]:
        return tokens(decoder.generate(PROMPT, max_new_tokens=N_NEW, greedy=False, seed=seed))

    assert sample(7) == sample(7)
    assert len({tuple(sample(seed)) for seed in range(5)}) > 1


def test_step_ids_grow_by_one_token(decoder):
    prompt_ids, _ = decoder.source_ids(PROMPT)
    steps = list(decoder.generate(PROMPT, max_new_tokens=N_NEW, greedy=False, seed=1))
    for i, s in enumerate(steps):
        assert s.index == i
        assert s.ids == prompt_ids + tokens(steps[: i + 1])
        assert s.token == decoder.tokenizer.token_str(s.token_id)


@pytest.mark.parametrize(
    "kwargs", [{}, {"temperature": 0.5}, {"top_k": 5}, {"top_p": 0.5}, {"temperature": 2.0, "top_k": 50}]
)
def test_step_probs_are_a_distribution(decoder, kwargs):
    for s in decoder.generate(PROMPT, max_new_tokens=5, greedy=False, seed=2, **kwargs):
        assert s.probs.dtype == np.float64 and s.probs.shape == (decoder.config.vocab_size,)
        assert (s.probs >= 0).all()
        assert s.probs.sum() == pytest.approx(1.0, abs=1e-6)
        assert s.probs[s.token_id] > 0  # the chosen token was allowed


@pytest.mark.parametrize("top_k", [1, 3, 40])
def test_top_k_zeroes_everything_outside_the_k_largest_logits(decoder, top_k):
    for s in decoder.generate(PROMPT, max_new_tokens=5, greedy=False, seed=3, top_k=top_k, temperature=0.7):
        kept = set(np.flatnonzero(s.probs))
        assert kept == set(np.argsort(s.logits)[::-1][:top_k])
        assert s.token_id in kept


def full_probs(logits: np.ndarray, temperature: float) -> np.ndarray:
    z = logits.astype(np.float64) / temperature
    p = np.exp(z - z.max())
    return p / p.sum()


@pytest.mark.parametrize(("top_p", "temperature"), [(0.1, 0.3), (0.5, 0.3), (0.9, 1.0)])
def test_top_p_keeps_the_smallest_set_reaching_p(decoder, top_p, temperature):
    for s in decoder.generate(PROMPT, max_new_tokens=4, greedy=False, seed=4, top_p=top_p, temperature=temperature):
        p = full_probs(s.logits, temperature)
        order = np.argsort(p)[::-1]
        n_needed = int(np.searchsorted(np.cumsum(p[order]), top_p) + 1)  # first prefix with mass >= top_p
        kept = np.flatnonzero(s.probs)
        assert set(kept) == set(order[:n_needed])
        # the kept tokens keep their relative probabilities (renormalised, not reshaped)
        np.testing.assert_allclose(s.probs[kept], p[kept] / p[kept].sum(), rtol=1e-6)


# ---------------------------------------------------------------- KV cache == full forward


@pytest.mark.parametrize("positional", ["rope", "learned", "sinusoidal", "none"])
@pytest.mark.parametrize("n_kv_heads", [None, 1])
@pytest.mark.parametrize("greedy", [True, False])
def test_decoder_kv_cache_matches_full_forward(small_model, positional, n_kv_heads, greedy):
    m = small_model("decoder", positional=positional, n_kv_heads=n_kv_heads, tie_embeddings=False)
    steps = list(m.generate(PROMPT, max_new_tokens=N_NEW, greedy=greedy, seed=5, temperature=1.5))
    assert len(steps) == N_NEW
    for s in steps:
        context = s.ids[:-1]  # what the model had seen when it chose s.token_id
        full = m.run_ids(context)
        np.testing.assert_allclose(s.logits, full.logits[-1], atol=1e-5, rtol=0)
        if greedy:
            assert s.token_id == int(np.argmax(full.logits[-1]))
        att = s.attention["decoder.self"]
        assert att.shape == (2, 4, len(context))
        np.testing.assert_allclose(att, full.attention["decoder.self"][:, :, -1, :], atol=1e-5, rtol=0)
    if greedy:
        assert len(set(tokens(steps))) > 1  # a non-degenerate run, so the check means something


@pytest.mark.parametrize("positional", ["rope", "learned", "sinusoidal"])
@pytest.mark.parametrize("greedy", [True, False])
def test_encoder_decoder_kv_cache_matches_full_forward(small_model, positional, greedy):
    m = small_model("encoder-decoder", positional=positional, n_kv_heads=2, tie_embeddings=False)
    source = "1234"
    src_ids, _ = m.source_ids(source)
    steps = list(m.generate(source, max_new_tokens=N_NEW, greedy=greedy, seed=6, temperature=1.5))
    assert steps
    for s in steps:
        context = s.ids[:-1]
        full = m.run_ids(src_ids, context)
        np.testing.assert_allclose(s.logits, full.logits[-1], atol=1e-5, rtol=0)
        if greedy:
            assert s.token_id == int(np.argmax(full.logits[-1]))
        for key in ("decoder.self", "decoder.cross"):
            np.testing.assert_allclose(s.attention[key], full.attention[key][:, :, -1, :], atol=1e-5, rtol=0)
        assert s.attention["decoder.cross"].shape == (2, 4, len(src_ids))


def test_encoder_decoder_continues_from_a_target_prefix(small_model):
    m = small_model("encoder-decoder", tie_embeddings=False)
    start, _ = m.target_ids("one thousand")
    steps = list(m.generate("1234", max_new_tokens=3, target="one thousand"))
    assert steps[0].ids[: len(start)] == start
    full = m.run_ids(m.source_ids("1234")[0], start)
    assert steps[0].token_id == int(np.argmax(full.logits[-1]))


def test_run_without_target_uses_the_greedy_output(small_model):
    m = small_model("encoder-decoder", tie_embeddings=False)
    tr = m.run("1234")
    generated = [s.token_id for s in m.generate("1234", max_new_tokens=m.config.max_len) if s.token_id != EOS]
    assert tr.target_ids == [tr.target_ids[0], *generated][: m.config.max_len]


def test_generation_stops_at_max_len(small_model):
    m = small_model("decoder", max_len=12, tie_embeddings=False)
    prompt_ids, _ = m.source_ids("the cat that")
    steps = list(m.generate("the cat that", max_new_tokens=100))
    # every position that was fed has an embedding row; the last token is chosen but never fed
    assert len(steps) == m.config.max_len - len(prompt_ids) + 1
    assert all(len(s.ids) - 1 <= m.config.max_len for s in steps)


def test_generation_stops_after_eos(small_model):
    m = small_model("decoder", tie_embeddings=False)
    net = m.net
    with torch.no_grad():  # make [EOS] overwhelmingly likely: a big final-norm bias that only the EOS row reads
        direction = torch.randn(net.cfg.d_model, generator=torch.Generator().manual_seed(0))
        net.dec_norm.bias.copy_(10 * direction)
        net.head.weight[EOS] = direction
    steps = list(m.generate(PROMPT, max_new_tokens=N_NEW))
    assert tokens(steps) == [EOS]


def test_encoder_cannot_generate(small_model):
    with pytest.raises(ValueError, match="encoder"):
        small_model("encoder").generate("hi")


# ---------------------------------------------------------------- next_token_probs directly

P4 = torch.tensor([0.5, 0.3, 0.15, 0.05], dtype=torch.float64)


@pytest.mark.parametrize("temperature", [0.0, -1.0, float("-inf"), float("nan")])
def test_next_token_probs_rejects_non_positive_temperature(temperature):
    with pytest.raises(ValueError, match="temperature"):
        next_token_probs(torch.zeros(5), temperature=temperature)


def test_generate_rejects_non_positive_temperature(decoder):
    with pytest.raises(ValueError, match="temperature"):
        next(iter(decoder.generate(PROMPT, greedy=False, temperature=0.0)))


@pytest.mark.parametrize(
    ("top_p", "expected"),
    [(0.4, [1, 0, 0, 0]), (0.75, [0.625, 0.375, 0, 0]), (0.9, [0.5 / 0.95, 0.3 / 0.95, 0.15 / 0.95, 0]),
     (0.99, [0.5, 0.3, 0.15, 0.05]), (1.0, [0.5, 0.3, 0.15, 0.05]), (None, [0.5, 0.3, 0.15, 0.05])],
)  # fmt: skip
def test_top_p_on_a_known_distribution(top_p, expected):
    probs = next_token_probs(P4.log(), top_p=top_p)
    np.testing.assert_allclose(probs.numpy(), expected, atol=1e-12)


@pytest.mark.parametrize(("top_k", "expected"), [(1, [1, 0, 0, 0]), (2, [0.625, 0.375, 0, 0]), (10, P4.tolist())])
def test_top_k_on_a_known_distribution(top_k, expected):
    np.testing.assert_allclose(next_token_probs(P4.log(), top_k=top_k).numpy(), expected, atol=1e-12)


@pytest.mark.parametrize("temperature", [0.5, 1.0, 3.0])
def test_temperature_divides_the_logits(temperature):
    probs = next_token_probs(P4.log(), temperature=temperature)
    expected = P4 ** (1 / temperature)
    np.testing.assert_allclose(probs.numpy(), (expected / expected.sum()).numpy(), atol=1e-12)
    assert probs.dtype == torch.float64


def test_low_temperature_approaches_greedy():
    probs = next_token_probs(torch.tensor([1.0, 2.0, 3.0, 2.9]), temperature=1e-3)
    assert probs[2] == pytest.approx(1.0, abs=1e-12)


def test_choose_greedy_and_sampled():
    probs = torch.tensor([0.1, 0.6, 0.3], dtype=torch.float64)
    assert choose(probs, greedy=True, generator=None) == 1
    draws = [choose(probs, False, torch.Generator().manual_seed(s)) for s in range(400)]
    freq = np.bincount(draws, minlength=3) / len(draws)
    np.testing.assert_allclose(freq, probs.numpy(), atol=4 * math.sqrt(0.25 / 400))
    assert choose(torch.tensor([0.0, 0.0, 1.0], dtype=torch.float64), False, torch.Generator()) == 2
