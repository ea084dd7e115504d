"""Looking inside a decoder: the logit lens (nostalgebraist 2020) and knocking out one attention head.

Both read or run the one Transformer (net.run_stack, net.dec_norm, net.logits) exactly as LiveModel.run_ids
does, so the lens's last layer is the model's own output and a knock-out changes only the chosen head.
Decoder-only models (the toy decoder, GPT-2, Llama, Qwen2, Mistral folders): an encoder has no next-token
head to read the stream through.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from ..core import device as device_
from ..core import precision, readonly
from ..core.attention import ABLATIONS, make_mask
from ..live import LiveModel, Trace
from ..tokenizer import SPECIALS
from .probes import HELD_OUT_SEED, random_span

Ablation = dict[int, dict[int, str]]  # {layer: {head: "zero" | "uniform"}}: what run_stack knocks out

LENS_CHUNK = 2**22  # logits computed at most this many floats at a time (16 MB): 150k-token vocabularies too


class NotADecoder(ValueError):
    """The model has no decoder-only next-token head (an encoder, or an encoder-decoder)."""


def check_decoder(model: LiveModel) -> None:
    if model.config.arch != "decoder":
        raise NotADecoder(f"the logit lens and knock-outs need a decoder-only model, not {model.config.arch!r}")


@dataclass(frozen=True)
class Lens:
    """The logit lens of one trace. Rows are layers: 0 = the embedding output, l = after block l (L+1 rows)."""

    top_ids: np.ndarray  # [L+1, T] the most likely next token read from each layer's residual stream
    top_prob: np.ndarray  # [L+1, T] its probability
    final_ids: np.ndarray  # [T] the model's own prediction (= top_ids[-1])
    final_prob: np.ndarray  # [L+1, T] the probability each layer gives the model's own prediction


@torch.inference_mode()
def logit_lens(model: LiveModel, trace: Trace) -> Lens:
    """Each layer's residual stream (trace.hidden["decoder"], [L+1, T, d]) through the final norm and the
    output head, keeping only the top token and the final prediction's probability: a few rows of
    [V] logits at a time, never [L+1, T, V] at once. The last layer first, as it names the final tokens."""
    check_decoder(model)
    net = model.net
    hidden = readonly.tensor(trace.hidden["decoder"], precision.activations(net.head.weight.dtype))  # [L+1, T, d]
    hidden = hidden.to(device_.of(net))  # the model's device (a GPU's); the logits come back to the CPU
    n_layers, n_pos, _ = hidden.shape
    rows = max(1, LENS_CHUNK // model.config.vocab_size)
    top_ids = np.empty((n_layers, n_pos), np.int64)
    top_prob = np.empty((n_layers, n_pos), np.float64)
    final_prob = np.empty((n_layers, n_pos), np.float64)
    final = None
    for layer in [n_layers - 1, *range(n_layers - 1)]:
        for a in range(0, n_pos, rows):
            logits = net.logits(net.dec_norm(hidden[layer, a : a + rows])).double().cpu()  # (rows, V)
            lse = torch.logsumexp(logits, -1)
            best, idx = logits.max(-1)
            top_ids[layer, a : a + rows], top_prob[layer, a : a + rows] = idx.numpy(), (best - lse).exp().numpy()
            if final is not None:
                chosen = logits.gather(-1, final[a : a + rows, None])[:, 0]
                final_prob[layer, a : a + rows] = (chosen - lse).exp().numpy()
        if final is None:
            final = torch.from_numpy(top_ids[-1].copy())
            final_prob[-1] = top_prob[-1]
    return Lens(top_ids=top_ids, top_prob=top_prob, final_ids=top_ids[-1].copy(), final_prob=final_prob)


# ---------------------------------------------------------------- knocking a head out


def _mask(model: LiveModel, n: int) -> torch.Tensor:
    """The self-attention mask LiveModel.run_ids applies by default (causal, or Mistral's sliding window)."""
    cfg = model.config
    return make_mask(cfg.default_mask, n, None, cfg.sliding_window or n, device=device_.of(model.net))


@torch.inference_mode()
def run_logits(model: LiveModel, ids: list[int], ablate: Ablation | None = None) -> torch.Tensor:
    """Next-token logits (T, V) of a decoder on ids, with heads knocked out ({layer: {head: mode}}); on the CPU
    (a GPU model's brought back)."""
    check_decoder(model)
    net = model.net
    src = torch.tensor([ids], dtype=torch.long, device=device_.of(net))
    x, _, _ = net.run_stack(net.decoder, src, _mask(model, len(ids)), model.config.scale, ablate=ablate)
    return net.logits(net.dec_norm(x))[0].cpu()


def prompt_loss(logits: torch.Tensor, ids: list[int]) -> float:
    """Mean next-token cross-entropy on the prompt (nats): position i predicts ids[i+1]. NaN for one token."""
    if len(ids) < 2:
        return float("nan")
    return float(F.cross_entropy(logits[:-1].double(), torch.tensor(ids[1:], device=logits.device)))


@dataclass(frozen=True)
class Knockout:
    """The unchanged model beside the same model with heads of one layer knocked out, on one prompt."""

    layer: int
    heads: tuple[int, ...]
    mode: str
    top_ids: np.ndarray  # [k] the tokens shown: the k most likely under either model (the larger probability)
    p_base: np.ndarray  # [k] their next-token probability after the last position, unchanged model
    p_knocked: np.ndarray  # [k] the same with the heads knocked out
    loss_base: float  # mean next-token cross-entropy on the prompt (nats)
    loss_knocked: float
    changed: int  # positions whose top-1 next token changed
    total_variation: float  # ½ Σ |p - p'| of the last position's next-token distributions


def ablation(model: LiveModel, layer: int, heads, mode: str) -> Ablation:
    """{layer: {head: mode}}, checked against the model's size and the two modes."""
    cfg = model.config
    if mode not in ABLATIONS:
        raise ValueError(f"mode must be one of {ABLATIONS}, got {mode!r}")
    if not 0 <= layer < cfg.n_layers or not all(0 <= h < cfg.n_heads for h in heads):
        raise ValueError(f"layer {layer}, heads {list(heads)}: the model has {cfg.n_layers} layers of {cfg.n_heads}")
    return {layer: {int(h): mode for h in heads}}


def knockout(model: LiveModel, ids: list[int], layer: int, heads, mode: str = "zero", k: int = 10) -> Knockout:
    """Run ids twice, once unchanged and once with `heads` (an int or several) of `layer` knocked out ("zero":
    their output is 0; "uniform": their pattern is uniform over the keys they may see); compare the two."""
    heads = (heads,) if isinstance(heads, int | np.integer) else tuple(sorted(set(heads)))
    base = run_logits(model, ids)
    knocked = run_logits(model, ids, ablation(model, layer, heads, mode))
    p, q = torch.softmax(base[-1].double(), -1), torch.softmax(knocked[-1].double(), -1)
    top = np.argsort(-torch.maximum(p, q).numpy(), kind="stable")[:k]
    return Knockout(
        layer=layer,
        heads=heads,
        mode=mode,
        top_ids=top,
        p_base=p.numpy()[top],
        p_knocked=q.numpy()[top],
        loss_base=prompt_loss(base, ids),
        loss_knocked=prompt_loss(knocked, ids),
        changed=int((base.argmax(-1) != knocked.argmax(-1)).sum()),
        total_variation=float(0.5 * (p - q).abs().sum()),
    )


def copying_accuracy(
    model: LiveModel,
    ablate: Ablation | None = None,
    n_seqs: int = 20,
    span: int = 20,
    seed: int = HELD_OUT_SEED,
) -> float:
    """Accuracy of predicting the next token inside the second copy of [BOS] R R (R: random tokens, the spans
    probes.induction_scores uses): only copying from the first copy can do better than chance."""
    before = model.template[0]  # [BOS] for the toys and Llama; nothing for GPT-2 and Qwen
    span = min(span, (model.config.max_len - len(before)) // 2)
    special, vocab = model.tokenizer.special_ids, model.config.vocab_size
    rng = random.Random(seed)
    hits = n = 0
    for _ in range(n_seqs):
        r = [i if i not in special else rng.randrange(len(SPECIALS), vocab) for i in random_span(rng, vocab, span)]
        ids = [*before, *r, *r]
        pred = run_logits(model, ids, ablate).argmax(-1).numpy()
        q = np.arange(len(before) + span, len(before) + 2 * span - 1)  # R[j] in the second copy predicts R[j+1]
        hits += int((pred[q] == np.array(ids)[q + 1]).sum())
        n += len(q)
    return hits / n
