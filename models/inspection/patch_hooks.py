"""What activation patching and attribution share: the model unwrapped, the taps, the metric read from two rows.

A tap (models/core/attention.TAP, a context variable) sees every attention's q, k, v, pattern and z as the model
computes them and may return a replacement; nothing is written to the shared module, so a page patching one prompt
never disturbs another session's forward. The metric is logit[answer] - logit[wrong] at the last position, read
from the final norm and the two unembedding rows it needs: never the [T, V] logits of a 150k-token vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..config import ModelConfig
from ..core import device as device_
from ..core import precision
from ..core.attention import TAP, causal, sliding
from ..core.linear_attention import GatedDeltaNet
from ..core.transformer import Transformer

WHAT = ("out", "q", "k", "v", "pattern")  # TransformerLens's five head maps; "out" is z (hook_z)
NAME = {"out": "z", "q": "q", "k": "k", "v": "v", "pattern": "pattern"}  # what the attention's tap calls them
AGREE_BELOW = 0.1  # |clean - corrupted| under this: the prompts do not disagree about the answer


@dataclass(frozen=True)
class Setup:
    """One decoder ready to patch: its Transformer, the mask and scale a LiveModel run uses, each layer's
    self-attention module (MultiHeadAttention or GatedDeltaNet) and which layers are linear (Qwen3.5)."""

    net: Transformer
    cfg: ModelConfig
    mask: torch.Tensor  # (T, T) bool on the model's device
    scale: float
    attn: list[nn.Module]
    linear: list[int]

    @property
    def device(self) -> torch.device:
        return self.mask.device

    @property
    def n_layers(self) -> int:
        return len(self.attn)

    def heads(self, layer: int, what: str) -> int:
        """How many heads layer's `what` has: query heads, K/V heads for k and v, value heads of a linear layer
        ("out" only: a Gated DeltaNet has no softmax pattern or q/k/v heads of the same kind; 0 = skipped)."""
        if layer in self.linear:
            return self.cfg.linear_value_heads if what == "out" else 0
        return self.cfg.kv_heads if what in ("k", "v") else self.cfg.n_heads

    def width(self, what: str) -> int:
        """Columns of an [L, H] map: the most heads any layer has (cells a layer lacks stay NaN)."""
        return max(self.heads(layer, what) for layer in range(self.n_layers))

    def positions(self, n: int) -> torch.Tensor:
        return torch.arange(n, device=self.device)


def unwrap(model) -> tuple[Transformer, ModelConfig]:
    """A LiveModel or its Transformer -> (the Transformer, its config); ValueError unless decoder-only."""
    net = getattr(model, "net", model)
    if not isinstance(net, Transformer):
        raise TypeError(f"expected a models.LiveModel or its Transformer, got {type(model).__name__}")
    cfg = net.cfg
    if cfg.arch != "decoder":
        kind = "an encoder-only" if cfg.arch == "encoder" else "an encoder-decoder"
        raise ValueError(
            f"activation patching and logit attribution need a decoder-only model (one next-token prediction to "
            f"explain); this is {kind} model ({cfg.arch!r})"
        )
    return net, cfg


def setup(model, n_tokens: int) -> Setup:
    net, cfg = unwrap(model)
    dev = device_.of(net)
    w = cfg.sliding_window if cfg.default_mask == "sliding" else None  # as LiveModel.self_mask
    mask = causal(n_tokens, device=dev) if w is None else sliding(n_tokens, w, device=dev)
    attn = [block.self_attn for block in net.decoder]
    linear = [i for i, a in enumerate(attn) if isinstance(a, GatedDeltaNet)]
    return Setup(net, cfg, mask, cfg.scale, attn, linear)


def as_ids(ids, name: str, vocab: int) -> list[int]:
    """[T] or [1, T] (list, tuple, numpy, tensor) -> a list of ints, checked against the vocabulary."""
    t = torch.as_tensor(ids.cpu() if isinstance(ids, torch.Tensor) else np.asarray(ids), device="cpu")  # ids to check
    if t.dim() == 2 and t.shape[0] == 1:
        t = t[0]
    if t.dim() != 1 or t.numel() == 0:
        raise ValueError(f"{name} must be one prompt of token ids, [T] or [1, T]; got shape {tuple(t.shape)}")
    out = [int(i) for i in t.tolist()]
    if min(out) < 0 or max(out) >= vocab:
        raise ValueError(f"{name} holds ids outside the vocabulary 0..{vocab - 1}")
    return out


def token(x, name: str, vocab: int) -> int:
    """An answer or wrong token: an id, or a word's ids (its first token is used, as the page says)."""
    if isinstance(x, str):
        raise ValueError(f"{name} must be a token id (or a word's ids), not the text {x!r}")
    if (isinstance(x, torch.Tensor | np.ndarray) and np.ndim(x) > 0) or isinstance(x, Sequence):
        if len(x) == 0:
            raise ValueError(f"{name} is empty")
        x = x[0]
    i = int(x)
    if not 0 <= i < vocab:
        raise ValueError(f"{name}={i} is outside the vocabulary 0..{vocab - 1}")
    return i


def pair(model, clean_ids, corrupted_ids) -> tuple[Setup, list[int], list[int]]:
    """Both prompts checked: same length (a patch moves position t to position t), ids in the vocabulary."""
    _, cfg = unwrap(model)
    clean = as_ids(clean_ids, "clean_ids", cfg.vocab_size)
    corrupted = as_ids(corrupted_ids, "corrupted_ids", cfg.vocab_size)
    if len(clean) != len(corrupted):
        raise ValueError(
            f"the clean prompt has {len(clean)} tokens and the corrupted prompt has {len(corrupted)}: patching "
            f"moves each position's activation to the same position, so both need the same number of tokens"
        )
    if len(clean) > cfg.max_len:
        raise ValueError(f"the prompts have {len(clean)} tokens; this model reads at most {cfg.max_len}")
    return setup(model, len(clean)), clean, corrupted


# ---------------------------------------------------------------- taps


@contextmanager
def tapped(tap) -> Iterator[None]:
    """Run the body with `tap` seeing every attention (models/core/attention.TAP); restored after, even on error."""
    handle = TAP.set(tap)
    try:
        yield
    finally:
        TAP.reset(handle)


def heads_first(t: torch.Tensor, name: str) -> torch.Tensor:
    """A view with heads at dim 1 and positions at dim 2: z is (B, T, H, dh), the others (B, H, T, ...)."""
    return t.transpose(1, 2) if name == "z" else t


class Capture:
    """Keeps `names` of every layer's attention (heads-first views, detached), returning them unchanged."""

    def __init__(self, s: Setup, names: Sequence[str]):
        self.index = {id(a): i for i, a in enumerate(s.attn)}
        self.acts: dict[str, list[torch.Tensor | None]] = {n: [None] * s.n_layers for n in names}

    def __call__(self, module, name, t):
        layer = self.index.get(id(module))
        if layer is not None and name in self.acts:
            self.acts[name][layer] = self.keep(layer, name, t)
            return self.replace(layer, name, t)
        return t

    def keep(self, layer, name, t):
        return heads_first(t.detach(), name)

    def replace(self, layer, name, t):
        return t


class Leaves(Capture):
    """Capture that also adds a zero leaf to each activation: ∂metric/∂activation is then that leaf's gradient,
    through every later layer (a detached leaf in its place would cut the paths through later heads)."""

    def __init__(self, s: Setup, names: Sequence[str]):
        super().__init__(s, names)
        self.leaves: dict[str, list[torch.Tensor | None]] = {n: [None] * s.n_layers for n in names}

    def replace(self, layer, name, t):
        leaf = torch.zeros_like(t, requires_grad=True)
        self.leaves[name][layer] = leaf
        return t + leaf


class Cells:
    """Batch item i gets head heads[i] of `name` at one module from `source` (1, H, T, ...) heads-first: at every
    position, or at position pos[i] only (the query row for a pattern)."""

    def __init__(self, module, name: str, source: torch.Tensor, heads, pos=None):
        self.module, self.name, self.source = module, name, source
        self.heads, self.pos = list(heads), None if pos is None else list(pos)

    def __call__(self, module, name, t):
        if module is not self.module or name != self.name:
            return t
        out = t.clone()
        dst = heads_first(out, name)
        src = self.source.to(t.dtype)
        b = torch.arange(len(self.heads), device=t.device)
        h = torch.tensor(self.heads, device=t.device)
        if self.pos is None:
            dst[b, h] = src[0, h]
        else:
            p = torch.tensor(self.pos, device=t.device)
            dst[b, h, p] = src[0, h, p]
        return out


# ---------------------------------------------------------------- running and reading the metric


def stream_of(s: Setup, ids: list[int], tap=None) -> list[torch.Tensor]:
    """The residual stream [L+1] of (1, T, d): the embedding, then each block's output (block l's input is [l])."""
    src = torch.tensor([ids], dtype=torch.long, device=s.device)
    with tapped(tap):
        _, _, stream = s.net.run_stack(s.net.decoder, src, s.mask, s.scale, need_weights=False)
    return stream


def rows(s: Setup, answer: int, wrong: int) -> tuple[torch.Tensor, torch.Tensor | None]:
    """The two unembedding rows (2, d) and their biases (2,) or None."""
    head = s.net.head
    idx = torch.tensor([answer, wrong], device=s.device)
    return head.weight[idx], None if head.bias is None else head.bias[idx]


def logit_pair(s: Setup, last: torch.Tensor, answer: int, wrong: int, cap: bool = True) -> torch.Tensor:
    """(B, 2) logits of answer and wrong from the residual stream at the last position (B, d), as the model's head
    computes them (final norm, Granite's divisor, bfloat16 rows as MixedLinear multiplies, Gemma 2's cap)."""
    net = s.net
    h = net.head_input(net.dec_norm(last))
    w, b = rows(s, answer, wrong)
    out = F.linear(h.to(w.dtype), w).to(h.dtype)  # MixedLinear: bfloat16 product widened back
    if b is not None:
        out = out + b
    c = s.cfg.final_softcap
    return out if c is None or not cap else torch.tanh(out / c) * c


def metric(s: Setup, last: torch.Tensor, answer: int, wrong: int) -> torch.Tensor:
    """(B,) logit[answer] - logit[wrong] from the last position's residual stream (B, d)."""
    pair_ = logit_pair(s, last, answer, wrong)
    return pair_[:, 0] - pair_[:, 1]


def full_metric(s: Setup, x: torch.Tensor, answer: int, wrong: int) -> float:
    """The metric as a researcher's loop reads it: the whole [T, V] logits (TransformerLens's forward), then two."""
    logits = s.net.logits(s.net.dec_norm(x))[0, -1]
    return float(logits[answer] - logits[wrong])


def run_blocks(s: Setup, x: torch.Tensor, start: int, tap=None) -> torch.Tensor:
    """Blocks start.. on x (B, T, d); `tap` sees block `start` only (the later ones take the fused path)."""
    pos = s.positions(x.shape[1])
    for i in range(start, s.n_layers):
        with tapped(tap if i == start else None):
            x, _ = s.net.decoder[i](x, s.mask, s.scale, pos, need_weights=False)
    return x


def activations_dtype(s: Setup) -> torch.dtype:
    return precision.activations(s.net.head.weight.dtype)
