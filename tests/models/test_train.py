"""The training script: reproducible, BERT's masking recipe, batches that teach copying."""

import random
import shutil

import torch

import models
from models import data, train
from models.loading import WEIGHTS_DIR
from models.tokenizer import CLS, MASK, SEP, SPECIALS, build_tokenizer, load_tokenizer
from models.training import mlm, training


def test_tokenizer_training_is_deterministic():
    corpus = data.tokenizer_corpus(0)
    a, b = build_tokenizer(corpus, 2048), build_tokenizer(corpus, 2048)
    assert a.tok.get_vocab() == b.tok.get_vocab()


def test_same_seed_same_weights(tmp_path):
    shutil.copy(WEIGHTS_DIR / "tokenizer.json", tmp_path / "tokenizer.json")
    states = []
    for run in ("a", "b"):
        out = tmp_path / run
        out.mkdir()
        shutil.copy(WEIGHTS_DIR / "tokenizer.json", out / "tokenizer.json")
        train.main(["--arch", "encoder-decoder", "--steps", "3", "--out", str(out), "--no-report"])
        states.append(torch.load(out / "encoder-decoder.pt", weights_only=True)["state_dict"])
    load_tokenizer.cache_clear()
    m = models.load("encoder-decoder", tmp_path / "a")  # what the script writes, the app can load
    assert m.config.arch == "encoder-decoder"
    assert states[0].keys() == states[1].keys()
    assert all(torch.equal(states[0][k], states[1][k]) for k in states[0])


def test_bert_masking_recipe_converges_to_15_80_10_10():
    rng = random.Random(0)
    ids = list(range(len(SPECIALS), len(SPECIALS) + 1000))
    chosen = to_mask = to_random = kept = 0
    for _ in range(20):
        inp, labels = mlm.bert_mask(ids, rng, 2048)
        for x, orig, lab in zip(inp, ids, labels, strict=True):
            if lab == mlm.IGNORE:
                assert x == orig  # tokens not chosen are never changed
                continue
            chosen += 1
            to_mask += x == MASK
            kept += x == orig
            to_random += x not in (MASK, orig)
    assert abs(chosen / 20000 - mlm.MLM_CHOOSE) < 0.01
    # a random replacement can land on the original token (1 in ~2000), which counts as kept
    assert abs(to_mask / chosen - 0.8) < 0.015
    assert abs(to_random / chosen - 0.1) < 0.01
    assert abs(kept / chosen - 0.1) < 0.01


def test_recipe_outcomes_match_what_the_ids_show_and_counts_converge():
    rng = random.Random(1)
    ids = [CLS, *range(10, 30), SEP]
    inp, outcome = mlm.bert_recipe(ids, rng, 2048)
    assert outcome[0] is None and outcome[-1] is None  # special tokens are never chosen
    for x, orig, o in zip(inp, ids, outcome, strict=True):
        assert (o == "mask") == (x == MASK)
        if o in (None, "keep"):
            assert x == orig
    counts = mlm.recipe_counts(ids, 2048, draws=10_000, seed=0)
    chosen = counts["chosen"][-1]
    assert counts["eligible"][-1] == 20 * 10_000
    assert abs(chosen / counts["eligible"][-1] - 0.15) < 0.01
    for name, share in (("mask", 0.8), ("random", 0.1), ("keep", 0.1)):
        assert abs(counts[name][-1] / chosen - share) < 0.01
    assert all(len(v) == 10_000 for v in counts.values())


def test_decoder_batches_hide_the_first_copy_of_a_random_span():
    tok = models.loading.shipped_tokenizer()
    pool = training.Sentences(tok, seed=1, n=200)
    rng = random.Random(0)
    x, y = training.decoder_batch(rng, pool, tok.vocab_size, batch=16, seq_len=64)
    assert x.shape == y.shape == (16, 64)
    # where a label is given it is the next input token (a shifted copy)
    given = y[:, :-1] != training.IGNORE
    assert torch.equal(y[:, :-1][given], x[:, 1:][given])
    assert (y == training.IGNORE).any()


def test_repeat_curriculum_targets_only_copyable_tokens():
    rng = random.Random(0)
    x, y = training.repeat_batch(rng, 2048, batch=8, seq_len=96)
    for xs, ys in zip(x.tolist(), y.tolist(), strict=True):
        first = ys.index(next(v for v in ys if v != training.IGNORE))  # first position with a target
        span = first  # the first copy (positions 1..span) is never a target
        assert all(v == training.IGNORE for v in ys[:span])
        for i in range(span, len(xs) - 1):
            assert ys[i] == xs[i + 1] == xs[i + 1 - span]  # the target repeats the token one span back


def test_learning_rate_warms_up_then_decays():
    lrs = [training.lr_at(s, 1000, 1e-3) for s in range(1000)]
    assert lrs[0] < lrs[training.WARMUP - 1] == max(lrs)
    assert abs(lrs[-1] - 1e-4) < 2e-6
