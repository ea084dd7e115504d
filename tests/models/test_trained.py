"""What the shipped, trained models must show, measured on held-out generated data."""

from functools import cache

import numpy as np
import pytest

import models
from models.inspection import probes


@cache
def shipped(name: str) -> models.LiveModel:
    return models.load(name)


@cache
def held_out_texts() -> list[str]:
    return models.data.corpus(200, probes.HELD_OUT_SEED)


def test_shipped_configs_are_their_families():
    dec, enc, ed = shipped("decoder").config, shipped("encoder").config, shipped("encoder-decoder").config
    assert (dec.arch, dec.default_mask, dec.norm_position, dec.norm, dec.activation, dec.positional) == (
        "decoder", "causal", "pre", "rmsnorm", "swiglu", "rope")  # fmt: skip
    assert (enc.arch, enc.default_mask, enc.norm_position, enc.positional) == (
        "encoder", "bidirectional", "post", "learned")  # fmt: skip
    assert (ed.arch, ed.norm_position, ed.activation, ed.positional) == (
        "encoder-decoder", "post", "relu", "sinusoidal")  # fmt: skip


def test_decoder_predicts_far_above_unigram():
    acc, baseline = probes.next_token_accuracy(shipped("decoder"), held_out_texts())
    assert acc > 0.5 and acc > 3 * baseline, (acc, baseline)


def test_decoder_has_an_induction_head_on_spans_never_seen_repeated():
    scores = probes.induction_scores(shipped("decoder"), n_seqs=20, span=20)
    assert scores.max() >= 0.3, scores.round(2)


def test_decoder_induction_copies_real_english_it_was_not_trained_on():
    """Words from outside the toy language, repeated: the second copy is predicted by copying."""
    m = shipped("decoder")
    span = "machine learning is fun and every student can read the map of the world today"
    tr = m.run(f" {span} {span}")  # leading space: both copies tokenize alike
    n = (len(tr.ids) - 1) // 2
    gold = np.array(tr.ids[n + 2 :])
    pred = tr.logits.argmax(-1)[n + 1 : -1]
    assert (pred == gold).mean() >= 0.8, (pred, gold)


def test_decoder_has_a_previous_token_head():
    scores = probes.previous_token_scores(shipped("decoder"), held_out_texts()[:40])
    assert scores.max() >= 0.5, scores.round(2)


def test_encoder_masked_token_accuracy_far_above_unigram():
    acc, baseline = probes.mlm_accuracy(shipped("encoder"), held_out_texts())
    assert acc > 0.4 and acc > 2 * baseline, (acc, baseline)


def test_encoder_uses_the_right_hand_context_for_agreement():
    assert probes.agreement_accuracy(shipped("encoder"), n=200) >= 0.9


def test_encoder_decoder_translates_held_out_numbers():
    pairs = probes.translation_pairs(n=200)
    assert probes.exact_match(shipped("encoder-decoder"), pairs) >= 0.9


def test_cross_attention_follows_the_source_alignment():
    align, chance = probes.alignment_scores(shipped("encoder-decoder"), probes.translation_pairs(n=100))
    assert align.max() >= 0.5 and align.max() > 2 * chance, (align.round(2), chance)


@pytest.mark.parametrize("name", models.SHIPPED)
def test_trace_shapes_match_the_api(name):
    m = shipped(name)
    tr = m.run("the cats that the dog sees are happy", target="one" if name == "encoder-decoder" else None)
    cfg, t = m.config, len(tr.tokens)
    key = "decoder.self" if name == "decoder" else "encoder.self"
    assert tr.attention[key].shape == (cfg.n_layers, cfg.n_heads, t, t)
    assert tr.attention[key].dtype == np.float32
    assert tr.hidden[key.split(".")[0]].shape == (cfg.n_layers + 1, t, cfg.d_model)
    rows = len(tr.target_tokens) if name == "encoder-decoder" else t
    assert tr.logits.shape == (rows, cfg.vocab_size)
    if name == "encoder-decoder":
        assert tr.attention["decoder.cross"].shape == (cfg.n_layers, cfg.n_heads, rows, t)


def test_long_input_is_truncated_and_says_so():
    m = shipped("decoder")
    tr = m.run("a " * 10_000)
    assert tr.truncated and len(tr.tokens) == m.config.max_len
    assert not m.run("a short prompt").truncated


def test_encoder_decoder_without_target_uses_its_own_greedy_translation():
    tr = shipped("encoder-decoder").run("1234")
    assert "".join(tr.target_tokens[1:]).replace("␣", " ") == "one thousand two hundred thirty four"


@pytest.mark.parametrize("name", models.SHIPPED)
@pytest.mark.parametrize("text", ["", "😀🎉", "<script>alert(1)</script>", "我喜欢机器学习", "\x00\n\t"])
def test_odd_inputs_give_valid_traces(name, text):
    tr = shipped(name).run(text)
    for weights in tr.attention.values():
        np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5)
    assert np.isfinite(tr.logits).all()
    assert shipped(name).tokenizer.decode(tr.ids).replace("[BOS]", "").replace("[CLS]", "").replace(
        "[SEP]", "").replace("[EOS]", "") == text  # fmt: skip


@pytest.mark.parametrize("name", models.SHIPPED)
def test_padding_keys_get_no_weight_and_change_nothing_for_real_tokens(name):
    m = shipped(name)
    text = "the cats that the dog sees are happy ." if name != "encoder-decoder" else "1234"
    plain, padded = m.run(text), m.run(text, pad=3)
    key = "decoder.self" if name == "decoder" else "encoder.self"
    n = len(plain.tokens)
    assert padded.tokens[n:] == ["[PAD]"] * 3
    assert (padded.attention[key][..., n:] == 0).all()
    np.testing.assert_allclose(padded.attention[key][:, :, :n, :n], plain.attention[key], atol=1e-5)
    np.testing.assert_allclose(padded.logits[: len(plain.logits)], plain.logits, atol=1e-4)


def test_rollout_and_sinks_on_the_decoder():
    tr = shipped("decoder").run("the cats that the dog sees are happy .")
    roll = models.analysis.attention_rollout(tr.attention["decoder.self"])
    np.testing.assert_allclose(roll.sum(-1), 1.0, atol=1e-9)
    assert np.allclose(np.triu(roll, 1), 0)  # causal layers compose to a causal flow
    for s in models.analysis.attention_sinks(tr.attention["decoder.self"], tr.tokens):
        assert s["weight"] >= models.analysis.SINK_THRESHOLD
