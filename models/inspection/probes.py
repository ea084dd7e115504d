"""Held-out measurements of what the trained models learned (used by the training report and tests).

Every probe draws its data from seeds the training never used, so a high score means the
pattern generalises (an induction head copies spans it never saw repeated).
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np
import torch

from .. import data
from ..core import device as device_
from ..core.attention import bidirectional, make_mask
from ..live import LiveModel
from ..tokenizer import MASK, SPECIALS

HELD_OUT_SEED = 10_000  # training seeds are below this


def random_span(rng: random.Random, vocab_size: int, n: int) -> list[int]:
    """n token ids drawn uniformly from the whole vocabulary (no special tokens)."""
    return [rng.randrange(len(SPECIALS), vocab_size) for _ in range(n)]


def ordinary_ids(model: LiveModel) -> Sequence[int]:
    """The token ids a random probe draws from: every non-special id of our tokenizer (a range, so the
    draws are those of random_span), or the ids of a published tokenizer that decode to ordinary text."""
    tok = model.tokenizer
    if not getattr(tok, "pretrained", False):
        return range(len(SPECIALS), model.config.vocab_size)
    return _published_ids(tok, model.config.vocab_size)


_BRACKETED = re.compile(r"^(\[.*\]|<.*>)$")  # [unused3], [CLS], <unk>, <0x0A>, <|endoftext|>


@functools.lru_cache(maxsize=8)
def _published_ids(tok, vocab_size: int) -> tuple[int, ...]:
    """Not special, not a bracketed name ([unused0], <0x0A>), not a byte piece of a longer character
    (byte-level BPE), no control characters; and inside both the tokenizer and the embedding table
    (Qwen pads its table past the tokenizer)."""
    named = (tok.pad_id, tok.mask_id, tok.cls_id, tok.sep_id, tok.unk_id)
    skip = set(tok.special_ids) | {i for i in named if i is not None}
    out = []
    for i in range(min(vocab_size, tok.tok.get_vocab_size(with_added_tokens=True))):
        piece = tok.tok.id_to_token(i)
        if piece is None or i in skip or _BRACKETED.match(piece):
            continue
        raw = tok._bytes(i)
        text = piece if raw is None else raw.decode("utf-8", errors="replace")
        if "\ufffd" in text or any(ord(c) < 32 or ord(c) == 127 for c in text):
            continue
        out.append(i)
    return tuple(out)


def self_attention_key(model: LiveModel) -> str:
    """What the probes read: decoder.self of a decoder; encoder.self of an encoder, and of an encoder-decoder
    too (its encoder reads the given tokens; its decoder's self-attention would read its own output)."""
    return "decoder.self" if model.config.arch == "decoder" else "encoder.self"


def repeated_sequences(model: LiveModel, n_seqs: int, span: int, seed: int) -> tuple[list[list[int]], int]:
    """(n_seqs sequences "R R" of `span` random ordinary ids, each wrapped in the model's own template
    ([BOS] R R, [CLS] R R [SEP], or nothing for GPT-2), where the first copy starts). Seeded."""
    rng = random.Random(seed)
    pool = ordinary_ids(model)
    before, after = model.template
    span = max(2, min(span, (model.config.max_len - len(before) - len(after)) // 2))
    seqs = []
    for _ in range(n_seqs):
        r = [rng.choice(pool) for _ in range(span)]  # choice over a range draws as randrange does
        seqs.append([*before, *r, *r, *after])
    return seqs, len(before)


BATCH = 8  # sequences per forward pass: a batch of a 0.5B model's attention stays below ~50 MB


def batch_mask(model: LiveModel, n: int) -> torch.Tensor:
    """The [n, n] mask LiveModel.run gives the main self-attention: causal (or sliding) in a decoder, else none."""
    cfg, dev = model.config, device_.of(model.net)  # on the model's device (a GPU's)
    if cfg.arch != "decoder":
        return bidirectional(n, device=dev)
    return make_mask(cfg.default_mask, n, window=cfg.sliding_window or n, device=dev)


@torch.inference_mode()
def batch_attention(model: LiveModel, seqs: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """([B, L, H, T, T] self-attention weights, the [T, T] mask used) of equal-length id sequences, run in
    batches through the model's main self-attention stack (the same blocks LiveModel.run uses)."""
    cfg, net = model.config, model.net
    mask = batch_mask(model, len(seqs[0]))
    blocks = net.decoder if cfg.arch == "decoder" else net.encoder
    out = []
    for i in range(0, len(seqs), BATCH):
        batch = torch.tensor(seqs[i : i + BATCH], device=mask.device)
        _, recs, _ = net.run_stack(blocks, batch, mask, cfg.scale)
        out.append(torch.stack([r["self_weights"] for r in recs], 1).to(torch.float32).cpu().numpy())  # (b,L,H,T,T)
    return np.concatenate(out), mask.cpu().numpy()


def induction_pattern(att: np.ndarray, start: int, span: int) -> np.ndarray:
    """[L, H] mean attention from R[j] in the second copy to R[j+1] in the first, in attention [..., L, H, T, T]
    of sequences whose first copy of R starts at `start`, averaged over any leading (batch) axes."""
    q = np.arange(start + span, start + 2 * span - 1)  # second copy of R[0..span-2]
    k = q - span + 1  # first copy of R[j+1]
    s = att[..., q, k].mean(-1)
    return s.reshape(-1, *s.shape[-2:]).mean(0)


def previous_token_pattern(att: np.ndarray) -> np.ndarray:
    """[L, H] mean attention of each position i >= 1 to position i-1 in attention [..., L, H, T, T]."""
    n = att.shape[-1]
    s = att[..., np.arange(1, n), np.arange(0, n - 1)].mean(-1)
    return s.reshape(-1, *s.shape[-2:]).mean(0)


def induction_scores(model: LiveModel, n_seqs: int = 20, span: int = 20, seed: int = HELD_OUT_SEED) -> np.ndarray:
    """[L, H] mean attention from token R[j] in the second copy of [BOS] R R to R[j+1] in the first:
    the 'look at what followed this token last time' pattern of an induction head (Olsson et al. 2022).
    Any model: R is drawn from its ordinary ids and wrapped in its own template."""
    seqs, start = repeated_sequences(model, n_seqs, span, seed)
    span = (len(seqs[0]) - len(model.template[0]) - len(model.template[1])) // 2
    return induction_pattern(batch_attention(model, seqs)[0], start, span)


def previous_token_scores(model: LiveModel, texts: list[str]) -> np.ndarray:
    """[L, H] mean attention of each position i >= 1 to position i-1."""
    key = self_attention_key(model)
    return np.mean([previous_token_pattern(model.run(t).attention[key]) for t in texts], axis=0)


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
