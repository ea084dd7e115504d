"""BERT's two ways of choosing tokens to predict: this app's training draws each token with probability
0.15 (a binomial count), BERT's create_pretraining_data.py takes exactly max(1, round(0.15·n)); both
then apply 80/10/10."""

import random

import pytest

from models.training import mlm

VOCAB = 2048
SPECIAL = range(5)


def sentence(n: int) -> list[int]:
    """[CLS] + n - 2 ordinary tokens + [SEP], as a tokenized sequence."""
    return [2, *range(100, 100 + n - 2), 3]


@pytest.mark.parametrize(("n", "want"), [(3, 1), (5, 1), (10, 2), (20, 3), (40, 6), (64, 10), (128, 19)])
def test_bert_count_is_round_15_percent_at_least_one(n, want):
    assert mlm.bert_count(n, n - 2) == want == min(n - 2, max(1, round(0.15 * n)))


def test_exact_rule_chooses_the_same_count_every_draw_and_never_specials():
    rng = random.Random(0)
    for n in (3, 8, 20, 64):
        ids = sentence(n)
        for _ in range(200):
            _, outcome = mlm.bert_recipe(ids, rng, VOCAB, special=SPECIAL, exact=True)
            assert sum(o is not None for o in outcome) == mlm.bert_count(n, n - 2)
            assert outcome[0] is None and outcome[-1] is None


def test_per_token_rule_varies_and_averages_15_percent():
    ids = sentence(22)  # 20 candidates
    rng = random.Random(1)
    counts = [sum(o is not None for o in mlm.bert_recipe(ids, rng, VOCAB, special=SPECIAL)[1]) for _ in range(10_000)]
    assert len(set(counts)) > 5 and 0 in counts  # binomial(20, 0.15): P(0) = 3.9%
    assert abs(sum(counts) / len(counts) / 20 - 0.15) < 0.005


def test_both_rules_split_80_10_10_over_10000_draws():
    for exact in (False, True):
        counts = mlm.recipe_counts(sentence(20), VOCAB, 10_000, seed=3, special=SPECIAL, exact=exact)
        shares = {k: v[-1] / counts["chosen"][-1] for k, v in counts.items() if k in mlm.OUTCOMES}
        assert abs(shares["mask"] - 0.8) < 0.01 and abs(shares["random"] - 0.1) < 0.01, shares
        if exact:  # exactly 3 of 18 candidates each draw
            assert counts["chosen"][-1] == 3 * 10_000


def test_default_is_unchanged_for_training():
    """exact defaults to False, so bert_mask (training) draws the same tokens as before."""
    ids = sentence(30)
    a = mlm.bert_recipe(ids, random.Random(7), VOCAB, special=SPECIAL)
    b = mlm.bert_recipe(ids, random.Random(7), VOCAB, special=SPECIAL, exact=False)
    assert a == b
