"""Held-out measurements of what the trained models learned (used by the training report and tests).

Every probe draws its data from seeds the training never used, so a high score means the
pattern generalises (an induction head copies spans it never saw repeated).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import torch

from . import data
from .live import LiveModel
from .tokenizer import BOS, MASK, SPECIALS

HELD_OUT_SEED = 10_000  # training seeds are below this


def random_span(rng: random.Random, vocab_size: int, n: int) -> list[int]:
    """n token ids drawn uniformly from the whole vocabulary (no special tokens)."""
    return [rng.randrange(len(SPECIALS), vocab_size) for _ in range(n)]


def induction_scores(model: LiveModel, n_seqs: int = 20, span: int = 20, seed: int = HELD_OUT_SEED) -> np.ndarray:
    """[L, H] mean attention from token R[j] in the second copy of [BOS] R R to R[j+1] in the first:
    the 'look at what followed this token last time' pattern of an induction head (Olsson et al. 2022)."""
    rng = random.Random(seed)
    total = None
    for _ in range(n_seqs):
        r = random_span(rng, model.config.vocab_size, span)
        att = model.run_ids([BOS, *r, *r]).attention["decoder.self"]  # [L, H, T, T]
        q = np.arange(1 + span, 2 * span)  # second copy of R[0..span-2]
        k = q - span + 1  # first copy of R[j+1]
        s = att[:, :, q, k].mean(-1)
        total = s if total is None else total + s
    return total / n_seqs


def previous_token_scores(model: LiveModel, texts: list[str]) -> np.ndarray:
    """[L, H] mean attention of each position i >= 1 to position i-1."""
    key = "decoder.self" if model.config.arch == "decoder" else "encoder.self"
    scores = []
    for t in texts:
        att = model.run(t).attention[key]
        n = att.shape[-1]
        scores.append(att[:, :, np.arange(1, n), np.arange(0, n - 1)].mean(-1))
    return np.mean(scores, axis=0)


def next_token_accuracy(model: LiveModel, texts: list[str]) -> tuple[float, float]:
    """(model accuracy, unigram baseline) of predicting each next token of held-out text.
    The baseline always guesses the most frequent token of that same text."""
    hits = n = 0
    targets: list[int] = []
    for t in texts:
        tr = model.run(t)
        pred = tr.logits.argmax(-1)[:-1]
        gold = np.array(tr.ids[1:])
        hits += int((pred == gold).sum())
        n += len(gold)
        targets += gold.tolist()
    baseline = Counter(targets).most_common(1)[0][1] / len(targets)
    return hits / n, baseline


def mlm_accuracy(model: LiveModel, texts: list[str], seed: int = HELD_OUT_SEED) -> tuple[float, float]:
    """(accuracy, unigram baseline) of predicting tokens replaced by [MASK] (15%, at least one)."""
    rng = random.Random(seed)
    hits = n = 0
    targets: list[int] = []
    for t in texts:
        ids, _ = model.source_ids(t)
        inner = list(range(1, len(ids) - 1))
        chosen = rng.sample(inner, max(1, round(0.15 * len(inner))))
        masked = [MASK if i in chosen else x for i, x in enumerate(ids)]
        pred = model.run_ids(masked).logits.argmax(-1)
        hits += sum(int(pred[i] == ids[i]) for i in chosen)
        n += len(chosen)
        targets += [ids[i] for i in chosen]
    return hits / n, Counter(targets).most_common(1)[0][1] / len(targets)


def agreement_accuracy(model: LiveModel, n: int = 200, seed: int = HELD_OUT_SEED) -> float:
    """Mask the subject noun of 'the [MASK] that the N2 V2 is/are ADJ .': the only clue to its
    number is the verb on the RIGHT. Correct when the model puts more probability on the noun
    forms of the right number. Needs bidirectional context; a causal model is at chance."""
    tok = model.tokenizer
    sg = [tok.encode(" " + s)[0] for s, _ in data.NOUNS if len(tok.encode(" " + s)) == 1]
    pl = [tok.encode(" " + p)[0] for _, p in data.NOUNS if len(tok.encode(" " + p)) == 1]
    rng = random.Random(seed)
    hits = 0
    for i in range(n):
        plural = i % 2 == 1
        n2 = rng.choice(data.NOUNS)[not plural]  # the distractor noun has the other number
        v2 = rng.choice(data.VERBS)[not plural]
        s = f"the [MASK] that the {n2} {v2} {data.BE[plural]} {rng.choice(data.ADJECTIVES)} ."
        tr = model.run(s)
        pos = tr.ids.index(MASK)
        p = torch.softmax(torch.tensor(tr.logits[pos]), -1).numpy()
        hits += int((p[pl].sum() > p[sg].sum()) == plural)
    return hits / n


def translation_pairs(n: int = 200, seed: int = HELD_OUT_SEED) -> list[data.Pair]:
    """Held-out numbers (never trained on), half as digits, half as Chinese numerals."""
    held = data.split_numbers()[1]
    rng = random.Random(seed)
    return [data.number_pair(rng.choice(held), "digits" if i % 2 == 0 else "zh") for i in range(n)]


def exact_match(model: LiveModel, pairs: list[data.Pair]) -> float:
    return sum(model.translate(p.source) == p.target for p in pairs) / len(pairs)


def alignment_scores(model: LiveModel, pairs: list[data.Pair]) -> tuple[np.ndarray, float]:
    """([L, H] accuracy, chance): for each target word, is the argmax of the cross-attention row
    that predicts its first token on a source character that word translates?"""
    tok = model.tokenizer
    hits, count, chance = None, 0, 0.0
    for p in pairs:
        words = p.target.split(" ")
        first_tok, pieces = [], []
        for i, w in enumerate(words):  # the target position whose token is the word's first piece
            first_tok.append(1 + len(pieces))
            pieces += tok.encode(w if i == 0 else " " + w)
        tr = model.run(p.source, target=p.target)
        cross = tr.attention["decoder.cross"]  # [L, H, Tt, Ts]
        for w, pos in enumerate(first_tok):
            arg = cross[:, :, pos - 1].argmax(-1)  # the row that predicts the word's first token
            ok = np.isin(arg, list(p.alignment[w]))
            hits = ok.astype(float) if hits is None else hits + ok
            count += 1
            chance += len(p.alignment[w]) / cross.shape[-1]
    return hits / count, chance / count
