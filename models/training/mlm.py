"""BERT's masked-language-model recipe (Devlin et al. 2019, §3.1), shared by training and the lesson.

Of the tokens, 15% are chosen for prediction: in BERT's own code (create_pretraining_data.py) exactly
max(1, round(0.15 · n)) of a sequence's n tokens ([CLS] and [SEP] counted, never chosen); this app's
training instead chooses each token with probability 0.15, so the count varies around 15% (`exact=True`
gives BERT's rule). Of those, 80% are replaced by [MASK], 10% by a
random token, and 10% are left unchanged. The model must predict every chosen token: it cannot
trust that an unmasked token is right, and [MASK] (never seen at fine-tuning time) is not the
only signal.
"""

from __future__ import annotations

import random

import numpy as np

from ..tokenizer import MASK, SPECIALS

MLM_CHOOSE = 0.15
MLM_TO_MASK = 0.8
MLM_TO_RANDOM = 0.1  # the remaining 10% keep their token
OUTCOMES = ("mask", "random", "keep")
IGNORE = -100  # label value cross_entropy skips


def bert_count(n_tokens: int, n_candidates: int) -> int:
    """How many tokens BERT's create_pretraining_data.py chooses: round(0.15 · n) of all n tokens of the
    sequence, at least 1, at most the candidates (the tokens that are not special). Its further cap,
    max_predictions_per_seq (20 at 128 tokens), is far above the prompts here."""
    return min(n_candidates, max(1, round(n_tokens * MLM_CHOOSE)))


def bert_recipe(
    ids: list[int], rng: random.Random, vocab: int, mask_id: int = MASK, special=None, exact: bool = False
) -> tuple[list[int], list[str | None]]:
    """Apply the recipe to one sequence: (input ids, outcome per position). The outcome is None for a
    position not chosen (special tokens never are), else "mask", "random" or "keep". mask_id and the
    special ids are ours unless given (a published BERT's [MASK] = 103, [CLS] = 101, ...).
    exact=False: each token is chosen with probability 0.15 (this app's training); exact=True: exactly
    bert_count(...) tokens, sampled without replacement (BERT's code)."""
    special = range(len(SPECIALS)) if special is None else special
    inp, outcome = list(ids), [None] * len(ids)
    picked: set[int] = set()
    if exact:
        candidates = [i for i, t in enumerate(ids) if t not in special]
        picked = set(rng.sample(candidates, bert_count(len(ids), len(candidates)))) if candidates else set()
    for i, t in enumerate(ids):
        if t in special or (i not in picked if exact else rng.random() >= MLM_CHOOSE):
            continue
        r = rng.random()
        if r < MLM_TO_MASK:
            inp[i], outcome[i] = mask_id, "mask"
        elif r < MLM_TO_MASK + MLM_TO_RANDOM:
            inp[i], outcome[i] = rng.randrange(len(SPECIALS), vocab), "random"
        else:
            outcome[i] = "keep"
    return inp, outcome


def bert_mask(ids: list[int], rng: random.Random, vocab: int) -> tuple[list[int], list[int]]:
    """The recipe as training uses it: (input ids, labels with IGNORE where not chosen)."""
    inp, outcome = bert_recipe(ids, rng, vocab)
    return inp, [t if o else IGNORE for t, o in zip(ids, outcome, strict=True)]


def recipe_counts(
    ids: list[int], vocab: int, draws: int, seed: int = 0, special=None, exact: bool = False
) -> dict[str, list[int]]:
    """Run the recipe `draws` times on the same ids; running totals after each draw of the tokens
    that could be chosen ("eligible"), chosen, and each outcome. Their ratios converge to 15% and
    80/10/10 (the law of large numbers, live)."""
    rng = random.Random(seed)
    special = range(len(SPECIALS)) if special is None else special
    eligible_each = sum(t not in special for t in ids)
    totals = dict.fromkeys(("eligible", "chosen", *OUTCOMES), 0)
    out: dict[str, list[int]] = {k: [] for k in totals}
    for _ in range(draws):
        _, outcome = bert_recipe(ids, rng, vocab, special=special, exact=exact)
        totals["eligible"] += eligible_each
        for o in outcome:
            if o:
                totals["chosen"] += 1
                totals[o] += 1
        for k, v in totals.items():
            out[k].append(v)
    return out


def recipe_shares(counts: dict) -> dict[str, np.ndarray]:
    """Running shares after each draw, from recipe_counts: "chosen" of the eligible tokens (-> 15%), and
    each outcome of the chosen ones (-> 80/10/10); NaN before anything is chosen (a gap, not 0)."""
    chosen, eligible = np.asarray(counts["chosen"], float), np.asarray(counts["eligible"], float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = {o: np.where(chosen > 0, np.asarray(counts[o], float) / chosen, np.nan) for o in OUTCOMES}
        out["chosen"] = np.where(eligible > 0, chosen / eligible, np.nan)
    return out
