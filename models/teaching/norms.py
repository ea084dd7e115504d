"""BatchNorm, LayerNorm and RMSNorm on one padded batch, and pre- vs post-norm gradients at initialisation.

Why a batch: BatchNorm's statistics are per feature over every (sentence, position) of the batch, padding
included (nn.BatchNorm1d in training mode, Ioffe & Szegedy 2015), so what one sentence becomes depends on the
others; LayerNorm's (Ba et al. 2016) are per token over d_model and RMSNorm's (Zhang & Sennrich 2019) too,
without the centring. The implementations are torch's nn.BatchNorm1d / nn.LayerNorm and models/blocks.RMSNorm.

Why gradients: Xiong et al. 2020 ("On Layer Normalization in the Transformer Architecture", Theorem 1): at
initialisation the gradient of the last layer's weights is O(d·sqrt(ln d)) in a post-norm Transformer and
O(d·sqrt(ln d / L)) in a pre-norm one, which is why post-norm needs a learning-rate warm-up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..config import ModelConfig
from ..core.attention import causal
from ..core.blocks import LAYERNORM_EPS, RMSNorm
from ..live import LiveModel
from ..tokenizer import PAD

KINDS = ("batchnorm", "layernorm", "rmsnorm")
# The other sentences of the batch, in the toy language: batch A, then batch B (other lengths, other words)
OTHERS_A = ("alice met bob at the park .", "the cats that the dog sees are happy .", "then alice gave bob a book .")
OTHERS_B = ("the dog sleeps .", "bob and alice walk to the big park and the cat sees them there .", "a cat .")
EXTRA_PAD = 8  # the padding change: batch A padded EXTRA_PAD positions further than its longest sentence


def normaliser(kind: str, d: int) -> nn.Module:
    """A fresh norm with gain 1 and bias 0. BatchNorm in training mode: it uses this batch's statistics."""
    if kind == "batchnorm":
        return nn.BatchNorm1d(d, eps=LAYERNORM_EPS).train()
    if kind == "layernorm":
        return nn.LayerNorm(d, eps=LAYERNORM_EPS)
    if kind == "rmsnorm":
        return RMSNorm(d)
    raise ValueError(f"kind={kind!r} is not one of {', '.join(KINDS)}")


@torch.no_grad()
def normalise(x: torch.Tensor, kind: str) -> torch.Tensor:
    """x (B, T, d) -> (B, T, d). BatchNorm1d wants (B, d, T): statistics per feature over B × T."""
    norm = normaliser(kind, x.shape[-1])
    if kind == "batchnorm":
        return norm(x.transpose(1, 2)).transpose(1, 2)
    return norm(x)


@torch.no_grad()
def padded_batch(model: LiveModel, texts: list[str], extra_pad: int = 0) -> tuple[torch.Tensor, list[int], list]:
    """The first layer's input (model.net.embed: the token embedding, plus an additive positional encoding if the
    model has one; the shipped decoder's RoPE adds none) of texts in the model's template, padded with [PAD] to
    the longest (+ extra_pad): ((B, T, d), real lengths, ids)."""
    ids = [model.source_ids(t)[0] for t in texts]
    n = max(map(len, ids)) + extra_pad
    rows = torch.tensor([row + [PAD] * (n - len(row)) for row in ids])
    return model.net.embed(rows, torch.arange(n)).float(), [len(r) for r in ids], ids


def token_stats(y: torch.Tensor) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per token, over d_model: (mean, population std, root mean square), each [..., T]."""
    y = y.double()
    return (
        y.mean(-1).numpy(),
        y.std(-1, correction=0).numpy(),
        y.pow(2).mean(-1).sqrt().numpy(),
    )


@dataclass(frozen=True)
class NormComparison:
    tokens: list[str]  # the prompt's tokens (first row of every batch)
    before: tuple[np.ndarray, np.ndarray, np.ndarray]  # per prompt token: mean, std, rms of the input [T]
    after: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]  # kind -> the same after the norm, batch A
    change_others: dict[str, np.ndarray]  # kind -> [T] ‖y_A − y_B‖ / ‖y_A‖ per prompt token, other sentences
    change_padding: dict[str, np.ndarray]  # kind -> [T] the same, batch A with EXTRA_PAD more [PAD] columns
    lengths: dict[str, list[int]]  # "A", "B": real lengths of each row; padded to max (+EXTRA_PAD for "A+pad")
    pad_share: dict[str, float]  # share of the batch's positions that are [PAD], per batch
    d_model: int


def _relative_change(a: torch.Tensor, b: torch.Tensor) -> np.ndarray:
    return ((a - b).double().norm(dim=-1) / a.double().norm(dim=-1).clamp_min(1e-12)).numpy()


@torch.no_grad()
def compare(model: LiveModel, prompt: str) -> NormComparison:
    """The prompt beside OTHERS_A (batch A), beside OTHERS_B (batch B), and batch A with more padding, each
    normalised three ways; what happens to the prompt's real tokens."""
    xa, la, ids = padded_batch(model, [prompt, *OTHERS_A])
    xb, lb, _ = padded_batch(model, [prompt, *OTHERS_B])
    xp, _, _ = padded_batch(model, [prompt, *OTHERS_A], EXTRA_PAD)
    n = la[0]
    after, others, padding = {}, {}, {}
    for kind in KINDS:
        ya, yb, yp = (normalise(x, kind)[0, :n] for x in (xa, xb, xp))
        after[kind] = token_stats(ya)
        others[kind] = _relative_change(ya, yb)
        padding[kind] = _relative_change(ya, yp)

    def share(lengths, extra=0):
        total = len(lengths) * (max(lengths) + extra)
        return 1 - sum(lengths) / total

    return NormComparison(
        tokens=model.tokenizer.token_strs(ids[0]),
        before=token_stats(xa[0, :n]),
        after=after,
        change_others=others,
        change_padding=padding,
        lengths={"A": la, "B": lb},
        pad_share={"A": share(la), "B": share(lb), "A+pad": share(la, EXTRA_PAD)},
        d_model=xa.shape[-1],
    )


# ---------------------------------------------------------------- pre-norm vs post-norm at initialisation

DEPTH = dict(n_layers=16, d_model=64, n_heads=4, d_ff=256, activation="relu")  # the stack of the experiment
GRAD_SEEDS = (0, 1, 2)
GRAD_BATCH, GRAD_LEN = 4, 24  # seeded random token ids: 4 sequences of 24 (+1 target)


def depth_config(norm_position: str, seed: int, **overrides) -> ModelConfig:
    return ModelConfig(arch="decoder", norm_position=norm_position, seed=seed, **(DEPTH | overrides))


def xavier_(net: nn.Module, seed: int) -> None:
    """Every Linear weight of the blocks Xavier-uniform (Glorot & Bengio 2010), the initialisation Xiong et al.
    2020 assume (Vaswani et al. 2017 do not state theirs). Our toy models' GPT-2 init (outputs ×1/sqrt(2L))
    keeps every block close to the identity at the start, which hides the difference the experiment is about."""
    g = torch.Generator().manual_seed(seed)
    for m in net.modules():
        if isinstance(m, nn.Linear) and m is not getattr(net, "head", None):
            fan_out, fan_in = m.weight.shape
            bound = (6 / (fan_in + fan_out)) ** 0.5
            with torch.no_grad():
                m.weight.copy_(torch.rand(m.weight.shape, generator=g) * 2 * bound - bound)


def layer_grad_norms(norm_position: str, seed: int, tokenizer=None, **overrides) -> np.ndarray:
    """[L] ‖∂loss/∂W2‖ (the FFN's output matrix) of each block, after one backward pass of the next-token loss
    on a seeded random batch, at initialisation."""
    from ..loading import build

    cfg = depth_config(norm_position, seed, **overrides)
    net = build(cfg, tokenizer).net.train().requires_grad_(True)
    xavier_(net.decoder, seed)
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(PAD + 6, cfg.vocab_size, (GRAD_BATCH, GRAD_LEN + 1), generator=g)  # past the specials
    logits = net(ids[:, :-1], causal(GRAD_LEN), cfg.scale)
    F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1)).backward()
    return np.array([float(b.ffn.w2.weight.grad.norm()) for b in net.decoder])


@dataclass(frozen=True)
class DepthGradients:
    pre: np.ndarray  # [seeds, L]
    post: np.ndarray  # [seeds, L]

    @staticmethod
    def ratio(g: np.ndarray) -> float:
        """Last layer's gradient over the first's, of the mean over seeds."""
        m = g.mean(0)
        return float(m[-1] / m[0])


def depth_gradients(seeds=GRAD_SEEDS, tokenizer=None, **overrides) -> DepthGradients:
    """The experiment: pre- and post-norm stacks, same seeds, same batches (about a second on a laptop CPU)."""
    with torch.random.fork_rng():
        runs = {p: np.stack([layer_grad_norms(p, s, tokenizer, **overrides) for s in seeds]) for p in ("pre", "post")}
    return DepthGradients(runs["pre"], runs["post"])
