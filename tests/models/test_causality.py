"""Who can see whom: changing one token may only affect the positions its mask lets see it."""

from __future__ import annotations

import numpy as np
import pytest

from models.tokenizer import BOS, CLS, EOS, SEP

T = 10
POSITIONALS = ["rope", "learned", "sinusoidal", "none"]
ATOL = 1e-6


def random_ids(seed: int, n: int = T - 1) -> list[int]:
    """n distinct ordinary (non-special) token ids."""
    rng = np.random.default_rng(seed)
    return [int(i) for i in rng.choice(np.arange(6, 2048), size=n, replace=False)]


def with_token(ids: list[int], j: int, new: int | None = None) -> list[int]:
    out = list(ids)
    out[j] = new if new is not None else (out[j] + 101 - 6) % (2048 - 6) + 6  # another ordinary id
    assert out[j] != ids[j]
    return out


def differs(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.abs(a - b).max() > 1e-4)


def assert_same_before(a, b, j: int, side: str = "decoder") -> None:
    """Everything a causal model computes for positions < j is unchanged."""
    np.testing.assert_allclose(a.hidden[side][:, :j], b.hidden[side][:, :j], atol=ATOL, rtol=0)
    for key in a.attention:
        if key.startswith(side):
            np.testing.assert_allclose(a.attention[key][:, :, :j], b.attention[key][:, :, :j], atol=ATOL, rtol=0)
            np.testing.assert_allclose(a.scores[key][:, :, :j], b.scores[key][:, :, :j], atol=ATOL, rtol=0)
    np.testing.assert_allclose(a.logits[:j], b.logits[:j], atol=ATOL, rtol=0)


# ---------------------------------------------------------------- decoder


@pytest.mark.parametrize("positional", POSITIONALS)
@pytest.mark.parametrize("j", [1, 4, T - 1])
def test_decoder_is_causal(small_model, positional, j):
    m = small_model("decoder", positional=positional, n_kv_heads=2)
    ids = [BOS, *random_ids(j)]
    a, b = m.run_ids(ids), m.run_ids(with_token(ids, j))
    assert a.mask == "causal"
    assert_same_before(a, b, j)
    # ...and the change does show at j itself (and in the last layer after it)
    assert differs(a.hidden["decoder"][0, j], b.hidden["decoder"][0, j])
    assert differs(a.logits[j], b.logits[j])
    for t in range(j, T):
        assert differs(a.hidden["decoder"][-1, t], b.hidden["decoder"][-1, t])


@pytest.mark.parametrize("norm_position", ["pre", "post"])
def test_decoder_is_causal_with_post_norm_and_rmsnorm_swiglu(small_model, norm_position):
    m = small_model("decoder", norm_position=norm_position, norm="rmsnorm", activation="swiglu", positional="rope")
    ids = [BOS, *random_ids(0)]
    j = 5
    a, b = m.run_ids(ids), m.run_ids(with_token(ids, j))
    assert_same_before(a, b, j)
    assert differs(a.logits[j], b.logits[j])


def test_decoder_run_text_prefix_is_stable(small_model):
    """Typing more text never changes what the model computed for the text already there."""
    m = small_model("decoder", positional="rope")
    a, b = m.run("the cat that the dog"), m.run("the cat that the dog sees is happy")
    n = len(a.ids)
    assert b.ids[:n] == a.ids
    np.testing.assert_allclose(a.logits, b.logits[:n], atol=ATOL, rtol=0)
    np.testing.assert_allclose(a.attention["decoder.self"], b.attention["decoder.self"][:, :, :n, :n], atol=ATOL)


# ---------------------------------------------------------------- encoder


@pytest.mark.parametrize("positional", POSITIONALS)
def test_encoder_sees_the_future(small_model, positional):
    m = small_model("encoder", positional=positional)
    ids = [CLS, *random_ids(2, T - 2), SEP]
    j = T - 2
    a, b = m.run_ids(ids), m.run_ids(with_token(ids, j))
    assert a.mask == "bidirectional"
    # the input embeddings of other positions do not depend on token j ...
    np.testing.assert_allclose(a.hidden["encoder"][0, :j], b.hidden["encoder"][0, :j], atol=ATOL, rtol=0)
    # ... but after attention every earlier position has read it
    for t in range(j):
        assert differs(a.hidden["encoder"][1, t], b.hidden["encoder"][1, t]), t
        assert differs(a.logits[t], b.logits[t]), t


def test_encoder_with_causal_override_is_causal(small_model):
    m = small_model("encoder", positional="learned")
    ids = [CLS, *random_ids(3, T - 2), SEP]
    j = 4
    a, b = m.run_ids(ids, mask="causal"), m.run_ids(with_token(ids, j), mask="causal")
    assert_same_before(a, b, j, side="encoder")


# ---------------------------------------------------------------- encoder-decoder


@pytest.mark.parametrize("positional", POSITIONALS)
@pytest.mark.parametrize("j", [1, 3, 6])
def test_encoder_decoder_target_side_is_causal(small_model, positional, j):
    m = small_model("encoder-decoder", positional=positional)
    src = [*random_ids(4, 6), EOS]
    tgt = [BOS, *random_ids(5, 6)]
    a, b = m.run_ids(src, tgt), m.run_ids(src, with_token(tgt, j))
    assert_same_before(a, b, j, side="decoder")  # decoder.self and decoder.cross rows < j too
    np.testing.assert_array_equal(a.hidden["encoder"], b.hidden["encoder"])  # target never reaches the encoder
    np.testing.assert_array_equal(a.attention["encoder.self"], b.attention["encoder.self"])
    assert differs(a.logits[j], b.logits[j])


def test_encoder_decoder_every_target_position_sees_the_whole_source(small_model):
    m = small_model("encoder-decoder")
    src = [*random_ids(6, 6), EOS]
    tgt = [BOS, *random_ids(7, 4)]
    a, b = m.run_ids(src, tgt), m.run_ids(with_token(src, len(src) - 2), tgt)
    for t in range(len(tgt)):
        assert differs(a.logits[t], b.logits[t]), t
    # cross-attention over the source is unmasked: the first target position reads the last source token
    assert (a.attention["decoder.cross"][:, :, 0, -1] > 0).all()


# ---------------------------------------------------------------- prefix-LM and overrides

P = 5  # prefix length, counted in positions of tr.tokens ([BOS] included)


def test_prefix_positions_see_later_prefix_tokens(small_model):
    m = small_model("decoder", positional="rope")
    ids = [BOS, *random_ids(8)]
    j = P - 1  # the last token inside the prefix
    a = m.run_ids(ids, mask="prefix", prefix_len=P)
    b = m.run_ids(with_token(ids, j), mask="prefix", prefix_len=P)
    assert a.mask == "prefix" and a.prefix_len == P
    for t in range(j):
        assert differs(a.hidden["decoder"][-1, t], b.hidden["decoder"][-1, t]), t
        assert differs(a.logits[t], b.logits[t]), t
    # the same change under the default causal mask leaves them alone
    assert_same_before(m.run_ids(ids), m.run_ids(with_token(ids, j)), j)


@pytest.mark.parametrize("j", [P, P + 2, T - 1])
def test_positions_after_the_prefix_are_causal(small_model, j):
    m = small_model("decoder", positional="learned")
    ids = [BOS, *random_ids(9)]
    a = m.run_ids(ids, mask="prefix", prefix_len=P)
    b = m.run_ids(with_token(ids, j), mask="prefix", prefix_len=P)
    assert_same_before(a, b, j)  # includes the whole prefix: it never sees tokens after itself
    assert differs(a.logits[j], b.logits[j])


@pytest.mark.parametrize("positional", ["rope", "sinusoidal"])
def test_bidirectional_override_makes_the_decoder_see_the_future(small_model, positional):
    m = small_model("decoder", positional=positional)
    ids = [BOS, *random_ids(10)]
    j = T - 1
    a = m.run_ids(ids, mask="bidirectional")
    b = m.run_ids(with_token(ids, j), mask="bidirectional")
    assert a.masks["decoder.self"].all()
    for t in range(j):
        assert differs(a.logits[t], b.logits[t]), t
    assert (a.attention["decoder.self"][:, :, 0, -1] > 0).all()  # the first query reads the last key
