"""Pretraining objectives (models/training/objectives.py, models/electra.py): T5's span statistics, RoBERTa's dynamic
masks, NSP/SOP negatives, loss-token counts, and the shipped ELECTRA discriminator against a trivial baseline."""

from __future__ import annotations

import random

import numpy as np
import pytest
import torch

import models
from models import data, electra
from models.tokenizer import MASK, SPECIALS
from models.training import mlm, objectives

DRAWS = 10_000


def test_t5_spans_have_mean_length_3_and_cover_15_percent_over_10000_draws():
    """Raffel et al. 2020, §3.3: 15% of tokens, spans of mean length 3. Lengths drawn from 20..200 so that the
    rounding of round(0.15·n) and round(noise / 3) averages out; tolerances ±0.05 tokens and ±0.3 points."""
    rng = np.random.default_rng(0)
    lengths, shares = [], []
    for _ in range(DRAWS):
        n = int(rng.integers(20, 201))
        mask = objectives.random_spans_noise_mask(n, rng)
        spans = objectives.spans_of(mask)
        assert mask.sum() == min(max(round(0.15 * n), 1), n - 1)  # T5's count, exactly
        assert len(spans) == max(round(mask.sum() / 3), 1)  # spans never touch: separated by kept tokens
        lengths += [e - s for s, e in spans]
        shares.append(mask.mean())
    assert np.mean(lengths) == pytest.approx(3.0, abs=0.05)
    assert np.mean(shares) == pytest.approx(0.15, abs=0.003)


def test_t5_span_lengths_vary_and_the_first_token_is_never_noise():
    rng = np.random.default_rng(1)
    masks = [objectives.random_spans_noise_mask(100, rng) for _ in range(500)]
    assert not any(m[0] for m in masks)  # T5 interleaves starting with a non-noise span
    assert len({tuple(e - s for s, e in objectives.spans_of(m)) for m in masks}) > 50


def test_span_corruption_input_and_target_rebuild_the_text():
    tokens = ["thank", "you", "for", "inviting", "me", "to", "your", "party", "last", "week", "."] * 3
    sc = objectives.span_corruption(tokens, seed=4)
    assert sc.targets[0] == "<X>" and sc.targets[-1] == objectives.sentinel(len(sc.spans))
    rebuilt, spans = [], {}
    cur = None
    for tok in sc.targets:  # sentinel -> the span it hid
        if tok.startswith("<") and tok.endswith(">"):
            cur = tok
            spans[cur] = []
        else:
            spans[cur].append(tok)
    for tok in sc.inputs:
        rebuilt += spans.get(tok, [tok])
    assert rebuilt == tokens
    assert [sc.inputs[i] for i in sc.input_sentinels] == [objectives.sentinel(k) for k in range(len(sc.spans))]
    assert objectives.span_corruption([], 0).inputs == []


def test_dynamic_masks_differ_across_epochs_and_repeat_with_the_seed():
    ids = [4] + list(range(10, 40)) + [5]  # [CLS] 30 tokens [SEP]
    special = range(len(SPECIALS))
    a = objectives.dynamic_masks(ids, 7, 4, 2048, MASK, special)
    assert a == objectives.dynamic_masks(ids, 7, 4, 2048, MASK, special)  # reproducible from the seed
    picked = [frozenset(i for i, o in enumerate(out) if o) for _, out in a]
    assert len(set(picked)) == 4  # a new mask every epoch
    assert all(len(p) == mlm.bert_count(len(ids), 30) for p in picked)  # BERT's exact count each time
    assert picked != [frozenset(i for i, o in enumerate(out) if o) for _, out in objectives.dynamic_masks(
        ids, 8, 4, 2048, MASK, special)]  # fmt: skip
    static = objectives.static_masks(ids, 7, 12, 2048, MASK, special)
    assert static[0] == static[10] and static[1] == static[11]  # 10 copies: epoch 11 sees epoch 1's mask
    assert objectives.coverage(a) > len(picked[0])


def test_sop_negatives_are_swaps_and_nsp_negatives_come_from_another_document():
    text = "the cat sees the dog . the dog is happy . alice likes bob ."
    others = data.corpus(64, 3)
    for seed in range(20):
        p = objectives.sentence_pairs(text, seed, others)
        assert (p.first, p.second) == ("the cat sees the dog .", "the dog is happy .")
        assert p.sop_negative == (p.second, p.first)
        assert p.nsp_negative in others and p.nsp_negative not in objectives.sentences_of(text)
    one = objectives.sentence_pairs("the cat sees the dog", 0)
    assert (one.first, one.second, one.from_prompt) == ("the cat", "sees the dog", "halves")
    assert objectives.sentence_pairs("", 0).from_prompt == "corpus"
    assert objectives.sentences_of("小明喜欢苹果。小红喜欢香蕉！") == ["小明喜欢苹果。", "小红喜欢香蕉！"]


def test_loss_counts_follow_each_objectives_rule():
    for n in (1, 5, 8, 20, 64):
        c = objectives.loss_counts(n, seed=0)
        assert c["mlm"] == c["dynamic"] == c["electra_gen"] == mlm.bert_count(n + 2, n)
        assert c["electra_disc"] == c["causal"] == n  # every token: 100%
        assert c["t5"] == (min(max(round(0.15 * n), 1), n - 1) if n > 1 else 0)  # T5 starts with a kept span
        assert c["nsp_sop"] == 0
    f = objectives.mean_fractions(64, 50)
    assert f["mlm"] == pytest.approx(round(66 * 0.15) / 64) and f["causal"] == 1.0 and f["electra_disc"] == 1.0
    assert objectives.mean_fractions(64, 2000)["mlm_app"] == pytest.approx(0.15, abs=0.005)  # p = 0.15 each
    assert len({objectives.loss_counts(64, s)["mlm_app"] for s in range(50)}) > 3  # its count varies
    assert objectives.causal_targets(4) == [True, True, True, False]
    assert objectives.loss_counts(0, 0) == dict.fromkeys(objectives.OBJECTIVES, 0)


@pytest.fixture(scope="module")
def pair():
    return electra.load_electra()


def test_the_discriminator_beats_all_original_on_held_out_corrupted_text(pair):
    """Held-out sentences (probes.HELD_OUT_SEED, never trained on), corrupted by the shipped generator. Measured
    at shipping (500 steps, 300 sentences): AUC 0.945, accuracy 0.950 against 0.825 for "all original"."""
    model, meta = pair
    tok = models.load("encoder").tokenizer
    r = electra.evaluate(model, tok, n=150)
    assert r["auc"] > 0.85
    assert r["accuracy"] > r["all_original_accuracy"] + 0.05
    assert r["replaced_recall"] > 0.4
    assert meta["held_out"]["accuracy"] > meta["held_out"]["all_original_accuracy"]
    assert meta["lambda"] == 50


def test_a_sample_equal_to_the_original_counts_as_original():
    ids = torch.tensor([[4, 100, 200, 300, 400, 5]])
    masked = torch.tensor([[False, True, True, True, False, False]])

    class Copying:  # a generator that puts all its mass on the original token at 100 and 300, elsewhere at 7
        def gen_logits(self, inp):
            logits = torch.full((1, 6, 2048), -1e9)
            for i, target in enumerate([0, 100, 7, 300, 0, 0]):
                logits[0, i, target] = 0.0
            return logits

    _, corrupted, labels = electra.corrupt(Copying(), ids, masked)
    assert corrupted.tolist() == [[4, 100, 7, 300, 400, 5]]
    assert labels.tolist() == [[0, 0, 1, 0, 0, 0]]


def test_detect_is_reproducible_and_labels_only_masked_positions(pair):
    model, _ = pair
    tok = models.load("encoder").tokenizer
    a = electra.detect(model, tok, "the cats that the dog sees are happy .", 3)
    b = electra.detect(model, tok, "the cats that the dog sees are happy .", 3)
    assert a.corrupted == b.corrupted and np.array_equal(a.p_replaced, b.p_replaced)
    assert all(i in a.masked for i, r in enumerate(a.replaced) if r)
    assert len(a.masked) == mlm.bert_count(len(a.tokens), len(a.tokens) - 2)
    assert ((a.p_replaced >= 0) & (a.p_replaced <= 1)).all()


@pytest.mark.parametrize(
    "text", ["", "a" * 10_000, "小明说小红喜欢苹果。", "🙂" * 40, "<script>alert(1)</script>", "[MASK] " * 5]
)
def test_hostile_text_never_raises(pair, text):
    model, _ = pair
    tok = models.load("encoder").tokenizer
    d = electra.detect(model, tok, text, 0)
    assert len(d.tokens) <= model.disc.cfg.max_len and len(d.p_replaced) == len(d.tokens)
    objectives.sentence_pairs(text, 0)
    objectives.span_corruption(tok.token_strs(tok.encode(text)), 0)


def test_one_training_step_runs_on_the_joint_loss():
    tok = models.load("encoder").tokenizer
    m, meta = electra.train(steps=2, tok=tok, log=lambda *_: None)
    assert meta["steps"] == 2 and np.isfinite(meta["final_disc_loss"])
    l_gen, l_disc = electra.batch_losses(m, random.Random(0), electra.Sentences(tok, 0, n=50), batch=4)
    assert l_gen.item() > 0 and 0 < l_disc.item() < 5
