"""The one training loop and the batches of each architecture's task, shared by the shipped models
(models/train.py) and the Architecture lab's variants (models/variants.py), so a variant learns
exactly as the shipped model of its architecture does, only for fewer steps.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable

import torch
import torch.nn.functional as F

from .. import data
from ..core.attention import bidirectional, causal, padding
from ..core.transformer import Transformer
from ..inspection import probes
from ..tokenizer import BOS, CLS, EOS, PAD, SEP, BPETokenizer
from .mlm import IGNORE, bert_mask

WARMUP = 150  # steps of linear learning-rate warm-up (post-norm models need it, Xiong et al. 2020)
# Share of decoder training sequences that contain a repeated random span. At 50% with one repeat
# the induction head had not formed after 3300 steps; copying needs to be a large part of the loss.
REPEAT_SHARE = 0.75
BETAS = (0.9, 0.98)  # Vaswani et al. 2017, §5.3
WEIGHT_DECAY = 0.01
CLIP_NORM = 1.0


# ------------------------------------------------------------------ batches


class Sentences:
    """A pool of tokenized sentences of the toy language, drawn from at random."""

    def __init__(self, tok: BPETokenizer, seed: int, n: int = 40000):
        texts = data.corpus(n, seed)
        self.ids = [e.ids for e in tok.tok.encode_batch(texts, add_special_tokens=False)]
        self.space = tok.encode(" ")

    def stream(self, rng: random.Random, n_tokens: int) -> list[int]:
        out: list[int] = []
        while len(out) < n_tokens:
            out += self.ids[rng.randrange(len(self.ids))] + self.space
        return out[:n_tokens]


def pad(seqs: list[list[int]], value: int) -> torch.Tensor:
    width = max(len(s) for s in seqs)
    return torch.tensor([s + [value] * (width - len(s)) for s in seqs])


def decoder_batch(rng, pool: Sentences, vocab: int, batch: int, seq_len: int):
    """Mostly text with a random span repeated 2-3 times, where copying is the only way to
    predict the repeats (this is what grows induction heads); the rest plain text. The first copy
    is not a target: predicting it is guessing noise."""
    xs, ys = [], []
    for _ in range(batch):
        seq = [BOS] + pool.stream(rng, seq_len)
        labels = seq[1:] + [IGNORE]
        if rng.random() < REPEAT_SHARE:
            span = rng.randint(4, 40)
            start = rng.randint(1, max(1, seq_len // 4))
            r = probes.random_span(rng, vocab, span)
            chunk = list(r)
            for _ in range(rng.randint(1, 2)):
                chunk += pool.stream(rng, rng.randint(0, 8)) + r
            seq = (seq[:start] + chunk + seq[start:])[: seq_len + 1]
            labels = seq[1:] + [IGNORE]
            for i in range(start - 1, start - 1 + span):
                labels[i] = IGNORE
        xs.append(seq[:seq_len])
        ys.append(labels[:seq_len])
    return torch.tensor(xs), torch.tensor(ys)


def repeat_batch(rng, vocab: int, batch: int, seq_len: int):
    """[BOS] R R R ... for a random span R: the curriculum's first phase, where nearly every
    target can be predicted only by copying, so the induction circuit forms quickly."""
    xs, ys = [], []
    for _ in range(batch):
        span = rng.randint(4, 40)
        r = probes.random_span(rng, vocab, span)
        seq = [BOS] + (r * (seq_len // span + 2))[:seq_len]
        labels = [IGNORE] * span + seq[span + 1 :] + [IGNORE]  # labels[i] = seq[i + 1]
        xs.append(seq[:seq_len])
        ys.append(labels[:seq_len])
    return torch.tensor(xs), torch.tensor(ys)


def encoder_batch(rng, pool: Sentences, vocab: int, batch: int, seq_len: int):
    xs, ys = [], []
    for _ in range(batch):
        if rng.random() < 0.5:  # one sentence, as a student would type it
            body = pool.ids[rng.randrange(len(pool.ids))][: seq_len - 2]
        else:
            body = pool.stream(rng, rng.randint(8, seq_len - 2))
        x, y = bert_mask([CLS, *body, SEP], rng, vocab)
        xs.append(x)
        ys.append(y)
    return pad(xs, PAD), pad(ys, IGNORE)


def seq2seq_batch(rng, tok: BPETokenizer, numbers: list[int], batch: int):
    src, tgt_in, tgt_out = [], [], []
    for _ in range(batch):
        p = data.number_pair(rng.choice(numbers), "digits" if rng.random() < 0.5 else "zh")
        t = tok.encode(p.target)
        src.append([*tok.encode(p.source), EOS])
        tgt_in.append([BOS, *t])
        tgt_out.append([*t, EOS])
    return pad(src, PAD), pad(tgt_in, PAD), pad(tgt_out, IGNORE)


# ------------------------------------------------------------------ training


def batch_loss(net: Transformer, rng, pool, tok, numbers, batch: int, seq_len: int, repeat: bool = False,
               aux: bool = True):  # fmt: skip
    """Cross-entropy of one fresh batch of the task that fits the architecture: next token
    (decoder), masked tokens (encoder) or number translation (encoder-decoder). A mixture-of-experts
    model adds moe_aux_weight × its load-balancing loss (models/core/moe.py) unless aux=False (held-out
    losses compare cross-entropy only, with dense models too)."""
    cfg = net.cfg
    moe = aux and cfg.n_experts > 0
    if cfg.arch == "decoder":
        make = repeat_batch if repeat else functools.partial(decoder_batch, pool=pool)
        x, y = make(rng, vocab=cfg.vocab_size, batch=batch, seq_len=seq_len)
        out = net(x, causal(x.shape[1]), cfg.scale, with_aux=moe)
    elif cfg.arch == "encoder":
        x, y = encoder_batch(rng, pool, cfg.vocab_size, batch, seq_len)
        out = net(x, bidirectional(x.shape[1]) & padding(x != PAD), cfg.scale, with_aux=moe)
    else:
        s, ti, y = seq2seq_batch(rng, tok, numbers, batch)
        src_mask = padding(s != PAD)  # (B, 1, 1, Ts): no query may attend to padding
        out = net(s, src_mask, cfg.scale, ti, causal(ti.shape[1]), src_mask, with_aux=moe)
    logits, balance = out if moe else (out, None)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1), ignore_index=IGNORE)
    return loss + cfg.moe_aux_weight * balance if moe else loss


def lr_at(step: int, steps: int, peak: float, warmup: int = WARMUP) -> float:
    """Linear warm-up, then cosine decay to 10% (post-norm models need the warm-up, Xiong et al. 2020)."""
    if step < warmup:
        return peak * (step + 1) / warmup
    t = (step - warmup) / max(1, steps - warmup)
    return peak * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * t)))


def fit(
    net: Transformer,
    steps: int,
    lr: float,
    loss_at: Callable[[int], torch.Tensor],
    warmup: int = WARMUP,
    before: Callable[[int], bool] | None = None,
    after: Callable[[int, float], None] | None = None,
) -> bool:
    """AdamW with warm-up and cosine decay, gradients clipped to norm 1. loss_at(step) gives the
    step's loss; before(step) returning False stops early (then fit returns False); after(step, loss)
    sees every finished step. A loss that becomes inf or NaN raises, instead of training on garbage."""
    opt = torch.optim.AdamW(net.parameters(), lr=lr, betas=BETAS, weight_decay=WEIGHT_DECAY)
    for step in range(steps):
        if before is not None and before(step) is False:
            return False
        for g in opt.param_groups:
            g["lr"] = lr_at(step, steps, lr, warmup)
        loss = loss_at(step)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), CLIP_NORM)
        opt.step()
        value = loss.item()
        if not math.isfinite(value):
            raise FloatingPointError(f"the loss became {value} at step {step + 1}")
        if after is not None:
            after(step, value)
    return True
