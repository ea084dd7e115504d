"""Pretraining objectives side by side: what the model sees and which positions carry a loss.

Pure functions of (token ids, seed), so the page, the tests and a notebook get the same draws:
- BERT's masked LM (Devlin et al. 2019) is models/training/mlm.py; here it is only counted.
- RoBERTa's dynamic masking (Liu et al. 2019, §4.1): a fresh mask each time a sequence is fed; the static
  baseline duplicates the data 10 times with 10 masks, so each mask is seen 4 times in 40 epochs.
- T5's span corruption (Raffel et al. 2020, §3.3): `random_spans_noise_mask` as in T5's own code.
- BERT's next-sentence vs ALBERT's sentence-order prediction (Lan et al. 2020, §3.1).
- The causal LM: every position predicts the next token.
ELECTRA's replaced-token detection needs trained networks: models/electra.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import numpy as np

from .. import data
from ..tokenizer import CLS, SEP, SPECIALS
from .mlm import bert_count, bert_recipe

STATIC_COPIES = 10  # RoBERTa §4.1: "the training data was duplicated 10 times ... 10 different ways"
T5_NOISE = 0.15  # Raffel et al. 2020, §3.3: corrupt 15% of tokens ...
T5_MEAN_SPAN = 3.0  # ... in spans of mean length 3 (§3.3.4)
SENTINELS_PAPER = ("<X>", "<Y>", "<Z>")  # Figure 2 of the paper; T5's vocabulary calls them <extra_id_0>, ...


def sentinel(i: int) -> str:
    """The i-th sentinel as the paper's Figure 2 writes it (<X>, <Y>, <Z>), then T5's own <extra_id_i>."""
    return SENTINELS_PAPER[i] if i < len(SENTINELS_PAPER) else f"<extra_id_{i}>"


def epoch_seed(seed: int, epoch: int) -> int:
    """One independent stream per (seed, epoch): a different mask each epoch, the same on every rerun."""
    return seed * 1_000_003 + epoch


def dynamic_masks(ids, seed: int, epochs: int, vocab: int, mask_id: int, special) -> list[tuple[list, list]]:
    """RoBERTa's dynamic masking: BERT's recipe (exact count, 80/10/10) drawn afresh for each epoch 1..epochs.
    Returns [(input ids, outcome per position)] per epoch."""
    return [
        bert_recipe(list(ids), random.Random(epoch_seed(seed, e)), vocab, mask_id, special, exact=True)
        for e in range(1, epochs + 1)
    ]


def static_masks(ids, seed: int, epochs: int, vocab: int, mask_id: int, special) -> list[tuple[list, list]]:
    """The static baseline of RoBERTa's Table 1: 10 masks made once (the data duplicated 10 times); epoch e
    sees copy (e - 1) mod 10, so epochs 1 and 11 see the same mask."""
    copies = [
        bert_recipe(list(ids), random.Random(epoch_seed(seed, -1 - c)), vocab, mask_id, special, exact=True)
        for c in range(STATIC_COPIES)
    ]
    return [copies[(e - 1) % STATIC_COPIES] for e in range(1, epochs + 1)]


# ------------------------------------------------------------------ T5 span corruption


def _random_segmentation(n_items: int, n_segments: int, rng: np.random.Generator) -> np.ndarray:
    """T5's _random_segmentation: n_items split into n_segments non-empty parts, uniformly over partitions
    (a shuffled row of n_segments - 1 cut marks among n_items - 1 gaps)."""
    first = np.zeros(n_items - 1, dtype=int)
    first[: n_segments - 1] = 1
    rng.shuffle(first)
    segment_id = np.concatenate([[0], np.cumsum(first)])
    return np.bincount(segment_id, minlength=n_segments)


def random_spans_noise_mask(
    length: int, rng: np.random.Generator, noise_density: float = T5_NOISE, mean_span: float = T5_MEAN_SPAN
) -> np.ndarray:
    """T5's random_spans_noise_mask (t5/data/preprocessors.py): round(length · 0.15) noise tokens (at least 1,
    at most length - 1) in round(noise / 3) spans (at least 1); noise and non-noise lengths are random
    partitions, interleaved starting with non-noise. Returns a boolean mask [length], True = corrupted."""
    if length < 1:
        return np.zeros(0, dtype=bool)
    orig, length = length, max(length, 2)
    n_noise = min(max(round(length * noise_density), 1), length - 1)
    n_spans = max(round(n_noise / mean_span), 1)
    noise_lengths = _random_segmentation(n_noise, n_spans, rng)
    keep_lengths = _random_segmentation(length - n_noise, n_spans, rng)
    interleaved = np.stack([keep_lengths, noise_lengths], axis=1).reshape(-1)
    starts = np.cumsum(interleaved)[:-1]
    indicator = np.zeros(length, dtype=int)
    indicator[starts] = 1
    return (np.cumsum(indicator) % 2 == 1)[:orig]


def spans_of(mask) -> list[tuple[int, int]]:
    """(start, end) of each run of True in mask, end exclusive."""
    out, start = [], None
    for i, m in enumerate(list(mask) + [False]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            out.append((start, i))
            start = None
    return out


@dataclass
class SpanCorruption:
    mask: np.ndarray  # [n] True = the token was dropped from the input (it is in the target)
    inputs: list[str]  # kept tokens, each dropped span replaced by one sentinel
    targets: list[str]  # each sentinel followed by its span, then a final sentinel (Raffel et al., Figure 2)
    spans: list[tuple[int, int]]
    input_sentinels: list[int]  # positions of the sentinels in inputs
    target_sentinels: list[int]  # and in targets

    @property
    def n_noise(self) -> int:
        return int(self.mask.sum())


def span_corruption(tokens: list[str], seed: int) -> SpanCorruption:
    """Corrupt a token list as T5 pretrains: input with sentinels, target = sentinels and the dropped spans."""
    mask = random_spans_noise_mask(len(tokens), np.random.default_rng(seed))
    spans = spans_of(mask)
    inputs, targets, i, in_s, out_s = [], [], 0, [], []
    for k, (s, e) in enumerate(spans):
        inputs += tokens[i:s]
        in_s.append(len(inputs))
        out_s.append(len(targets))
        inputs.append(sentinel(k))
        targets += [sentinel(k), *tokens[s:e]]
        i = e
    inputs += tokens[i:]
    out_s.append(len(targets))
    targets.append(sentinel(len(spans)))
    return SpanCorruption(mask, inputs, targets, spans, in_s, out_s)


# ------------------------------------------------------------------ NSP and SOP

_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")


def sentences_of(text: str) -> list[str]:
    """The prompt cut after . ! ? (and the Chinese 。！？), empty pieces dropped."""
    return [s.strip() for s in _SENTENCE_END.split(text or "") if s.strip()]


@dataclass
class SentencePairs:
    first: str
    second: str
    from_prompt: str  # "sentences" (two sentences of the prompt), "halves" (one sentence cut in two), "corpus"
    nsp_negative: str  # a segment from another document: (first, nsp_negative) is labelled NotNext
    nsp_source: str  # which document it came from (the toy corpus)

    @property
    def sop_negative(self) -> tuple[str, str]:
        """ALBERT's negative: the same two consecutive segments, swapped."""
        return self.second, self.first


def sentence_pairs(text: str, seed: int, other_documents: list[str] | None = None) -> SentencePairs:
    """A positive pair from the prompt (two sentences, or one sentence's two halves, as BERT's segments are
    spans of text, not always sentences), or from the toy corpus if the prompt has fewer than two words;
    NSP's negative second segment is a random sentence of another document (the toy corpus, drawn with
    the seed), SOP's negative is the pair swapped."""
    rng = random.Random(seed)
    others = other_documents or data.corpus(64, 7919 + seed)
    sents = sentences_of(text)
    if len(sents) >= 2:
        first, second, how = sents[0], sents[1], "sentences"
    else:
        words = sents[0].split() if sents else []
        if len(words) >= 2:
            cut = len(words) // 2
            first, second, how = " ".join(words[:cut]), " ".join(words[cut:]), "halves"
        else:
            doc = data.corpus(2, 104729 + seed)
            first, second, how = doc[0], doc[1], "corpus"
    candidates = [s for s in others if s not in (first, second)] or others
    return SentencePairs(first, second, how, rng.choice(candidates), "corpus")


# ------------------------------------------------------------------ counting losses


def causal_targets(n: int) -> list[bool]:
    """Which of n input positions carry a loss in a causal LM: all but the last (it has no next token)."""
    return [i < n - 1 for i in range(n)]


# ------------------------------------------------------------------ the summary

OBJECTIVES = ("mlm", "mlm_app", "dynamic", "electra_disc", "electra_gen", "t5", "nsp_sop", "causal")


def loss_counts(n: int, seed: int) -> dict[str, int]:
    """How many of a prompt's n text tokens (specials not counted) carry a loss under each objective, for one
    seed. BERT counts [CLS] and [SEP] in round(0.15·(n + 2)) but never picks them; T5 corrupts the text tokens;
    this app's MLM training (mlm_app) picks each token with probability 0.15; NSP/SOP is one label per pair
    (its tokens are learned through the MLM loss beside it): 0 here."""
    if n < 1:
        return dict.fromkeys(OBJECTIVES, 0)
    k = bert_count(n + 2, n)  # [CLS] text [SEP]
    inner = [len(SPECIALS)] * n  # any non-special id: only the choice of positions is counted
    app = sum(o is not None for o in bert_recipe([CLS, *inner, SEP], random.Random(seed), len(SPECIALS) + 1)[1])
    return {"mlm": k, "mlm_app": app, "dynamic": k, "electra_disc": n, "electra_gen": k,
            "t5": int(random_spans_noise_mask(n, np.random.default_rng(seed)).sum()), "nsp_sop": 0,
            "causal": n}  # fmt: skip


def mean_fractions(n: int, seeds: int = 1000) -> dict[str, float]:
    """The share of the n text tokens with a loss, averaged over `seeds` seeds (0 .. seeds-1)."""
    if n < 1:
        return dict.fromkeys(OBJECTIVES, 0.0)
    totals = dict.fromkeys(OBJECTIVES, 0)
    for s in range(seeds):
        for key, v in loss_counts(n, s).items():
            totals[key] += v
    return {key: v / (seeds * n) for key, v in totals.items()}


def coverage(masks: list[tuple[list, list]]) -> int:
    """Positions that carried a loss in at least one of the epochs' masks."""
    return len({i for _, outcome in masks for i, o in enumerate(outcome) if o})
