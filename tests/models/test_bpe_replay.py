"""BPE replay equals the tokenizer's own encode(); the vocabulary sweep stops at what the corpus supports and
shortens held-out text as the vocabulary grows; the counts are direct counts."""

from __future__ import annotations

import itertools
import random

import pytest

from models import data
from models.loading import shipped_tokenizer
from models.teaching import token_stats
from models.teaching.bpe_replay import MAX_CHARS, merge_ranks, replay

TEXTS = [
    "",
    " ",
    "the cat that the dogs see is happy .",
    "小明看见了小红。我们喜欢熊猫，你们也喜欢吗？",
    "😀 emoji 🎉🎉 👩‍👩‍👧",
    "  multiple   spaces\n\ttabs and\r\nnewlines  ",
    "<script>alert('x')</script>",
    "aaaaaaa bbbb aaaa",
    "[MASK] the [CLS]x[SEP] [PAD][BOS]",
    "Hello World 1234 ééé 𝔘 Ωmega",
    "\ud800 lone surrogate",
    "x" * 10_000,
]


@pytest.fixture(scope="module")
def tok():
    return shipped_tokenizer()


@pytest.fixture(scope="module")
def ranks(tok):
    return merge_ranks(tok)


def _check(tok, ranks, text):
    r = replay(tok, text, ranks)
    assert r.final == tok.encode(text[:MAX_CHARS])
    assert r.at(len(r.steps)) == r.final
    assert tok.decode(r.at(0)) == tok.decode(r.final)  # every step is the same text
    ranks_fired = [s.rank for s in r.steps]
    assert ranks_fired == sorted(set(ranks_fired))  # merges fire in rank order, each once
    lengths = [len(r.start)] + [s.n_tokens for s in r.steps]
    assert all(a > b for a, b in itertools.pairwise(lengths))  # every step merges something
    for k, s in enumerate(r.steps, 1):
        assert len(r.at(k)) == s.n_tokens


@pytest.mark.parametrize("text", TEXTS)
def test_replay_equals_encode_on_hostile_texts(tok, ranks, text):
    _check(tok, ranks, text)


def test_replay_equals_encode_on_many_texts(tok, ranks):
    rng = random.Random(3)
    pool = "abcdefghij xyz 的一是了人小明。，😀é\n.[]<>"
    texts = data.corpus(200, seed=11) + [
        "".join(rng.choice(pool) for _ in range(rng.randint(1, 60))) for _ in range(200)
    ]
    for text in texts:
        _check(tok, ranks, text)


def test_step_zero_is_bytes_and_a_step_merges_its_pair(tok, ranks):
    r = replay(tok, "the cat 小", ranks)
    assert len(r.start) == len("the cat 小".encode())
    for k, s in enumerate(r.steps, 1):
        before, after = r.at(k - 1), r.at(k)
        assert after.count(s.merged) - before.count(s.merged) == s.count
        assert tok.decode([s.merged]) == tok.decode([s.left, s.right])


def test_merge_ranks_read_from_the_file(tok, ranks):
    assert len(ranks) == tok.vocab_size - token_stats.BYTE_MIN  # 1,786 merges for 2,048 tokens


@pytest.fixture(scope="module")
def sweep():
    return token_stats.sweep()


def test_vocabulary_reached_is_at_most_requested_and_stops_where_the_corpus_does(sweep):
    for row in sweep:
        assert token_stats.BYTE_MIN <= row.reached <= row.requested
        assert row.merges == row.reached - token_stats.BYTE_MIN
    assert sweep[0].reached == token_stats.BYTE_MIN == 262
    assert sweep[-1].reached < sweep[-1].requested  # 4,096 asked, the toy corpus runs out of pairs first
    assert any(r.reached == 2048 for r in sweep)  # the shipped size


def test_tokens_per_word_decrease_with_vocabulary(sweep):
    per_word = [r.en.tokens / r.en.words for r in sweep]
    per_char = [r.zh.per_char for r in sweep]
    assert all(a >= b for a, b in itertools.pairwise(per_word))
    assert all(a >= b for a, b in itertools.pairwise(per_char))
    assert per_word[0] > 2 * per_word[-1]
    assert per_char[0] == pytest.approx(3.0, abs=0.05)  # no merges: a Chinese character is its 3 UTF-8 bytes


def test_the_shipped_size_retrains_to_the_shipped_tokenizer(tok):
    again = token_stats.build_tokenizer(data.tokenizer_corpus(0), 2048)
    assert again.tok.get_vocab() == tok.tok.get_vocab()


def test_counts_are_direct_counts(tok):
    text = "The cat — it sat . 小明 看见了"
    c = token_stats.count(tok, text)
    assert c.tokens == len(tok.encode(text))
    assert c.words == 6  # The, cat, it, sat, 小明, 看见了 (whitespace pieces); "—" and "." are not words
    assert c.chars == len(text)
    assert c.per_char == c.tokens / len(text)
    assert c.words_per_token == 6 / c.tokens


def test_held_out_sentences_are_not_in_the_corpus():
    en, zh = token_stats.held_out()
    seen = set(data.tokenizer_corpus())
    assert en and zh and not (set(en) | set(zh)) & seen
