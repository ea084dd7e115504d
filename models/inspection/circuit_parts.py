"""Why does this head attend here? (issue 43) One head's pre-softmax score for one (query, key) cell, split into
query-side part × key-side part.

The residual stream at a position is a sum: the token embedding, the position embedding, what each earlier head
wrote (z_h·W_O,h), what each earlier MLP wrote, and constant biases. With every norm's scale frozen at the value this
run gave it, everything between the stream and the score is linear in the stream on each side (LayerNorm's centring
is linear; its bias and the q/k projection biases are one more constant part), RoPE rotates each part as it rotates
the whole, and q/k norms (Qwen3, OLMo 2) are frozen at the whole q's (k's) scale. So the score is exactly
Σ_{a, b} q_a·k_b·scale: the table's cells add up to it.

Gemma 2 soft-caps its scores and T5 adds a relative position bias: the parts are of the score before the cap and
without the bias (`total`); `model_score` is what the softmax read. The split is computed in float64 from the run's
activations: on a float64 model total == model_score to ~1e-12, on float32 to ~1e-6, and in bfloat16 mode (where
every matmul rounds) only to bfloat16's precision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..core.attention import MultiHeadAttention
from ..core.positional import apply_rope
from .attribution import frozen
from .circuit_weights import F64, input_norm
from .patch_hooks import Capture, as_ids, setup, stream_of, unwrap

BIASES = "biases"


@dataclass(frozen=True)
class ScoreParts:
    """values [Rq, Rk]: cell (a, b) = scale · q_a · k_b, query part a against key part b; values.sum() == total."""

    values: np.ndarray
    total: float  # the score itself: q·k·scale, mask excluded (before Gemma 2's cap; without T5's bias)
    query_labels: list[str]
    key_labels: list[str]
    model_score: float  # what the model's softmax read at this cell (capped; -inf where the mask hides it)
    masked: bool  # the mask hides this key from this query (the split is still of q·k·scale)
    softcap: float | None  # Gemma 2's cap: model_score = cap·tanh(total / cap)
    layer: int
    head: int
    query: int
    key: int

    def largest(self, k: int = 3) -> list[tuple[str, str, float]]:
        """The k cells of largest |value|: (query part, key part, value), largest first."""
        flat = np.argsort(-np.abs(self.values), axis=None, kind="stable")[:k]
        cols = self.values.shape[1]
        return [(self.query_labels[i // cols], self.key_labels[i % cols], float(self.values.flat[i])) for i in flat]

    def sentence(self) -> str:
        """The largest cell and each side's largest part in words, e.g. for the page's caption."""
        (qa, kb, v), qs, ks = self.largest(1)[0], self.values.sum(1), self.values.sum(0)
        q_main, k_main = self.query_labels[int(np.abs(qs).argmax())], self.key_labels[int(np.abs(ks).argmax())]
        return (f"the largest cell is {qa} against {kb} ({v:+.2f} of {self.total:+.2f}); the query side is mostly "
                f"{q_main}, the key side is mostly {k_main}")  # fmt: skip


def _stream_parts(s, ids: list[int], cap: Capture, stream, layer: int) -> tuple[list[str], torch.Tensor]:
    """(labels, parts [R, T, d] float64) of block `layer`'s input: they sum to stream[layer] (the MLP's part is what
    its block added beyond its attention, so the sum is exact by construction)."""
    net, cfg = s.net, s.cfg
    n = len(ids)
    x0 = stream[0][0].to(F64)
    labels, parts = [], []
    pos = torch.arange(n, device=s.device)
    pe = None
    if net.emb_norm is None and net.emb_proj is None:
        if net.pe is not None:
            pe = net.pe[pos].to(F64)
        elif net.pos_emb is not None:
            pe = net.pos_emb(pos + cfg.position_offset).to(F64)
    labels.append("embedding")
    parts.append(x0 if pe is None else x0 - pe)
    if pe is not None:
        labels.append("positions")
        parts.append(pe)
    bias = torch.zeros_like(x0)
    for i in range(layer):
        block = net.decoder[i]
        added = (stream[i + 1][0] - stream[i][0]).to(F64)
        attn = s.attn[i]
        if not isinstance(attn, MultiHeadAttention):  # Qwen3.5's Gated DeltaNet: the block as one part
            labels.append(f"L{i} block")
            parts.append(added)
            continue
        z = cap.acts["z"][i][0].to(F64)  # heads-first (H, T, dh)
        w = attn.o.weight.to(F64)
        heads, _, dh = z.shape
        per = torch.einsum("dhk,htk->htd", w.view(w.shape[0], heads, dh), z)  # (H, T, d): z_h·W_O,h
        b = torch.zeros_like(x0) if attn.o.bias is None else attn.o.bias.to(F64).expand_as(x0)
        post = block.post_self if block.post_self is not None else (block.norm_self if block.post_sub else None)
        if post is not None:  # Gemma's sandwich, OLMo 2: the write's norm frozen at the whole write's scale
            lin, nb = frozen(post, per.sum(0) + b)
            per, b = lin(per), lin(b) + (0 if nb is None else nb)
        if block.residual_scale is not None:  # Granite
            per, b = per * block.residual_scale, b * block.residual_scale
        labels += [f"L{i}H{h}" for h in range(heads)]
        parts += list(per)
        labels.append(f"L{i} MLP")
        parts.append(added - per.sum(0) - b)
        bias = bias + b
    labels.append(BIASES)
    parts.append(bias)
    return labels, torch.stack(parts)


def _side(attn: MultiHeadAttention, norm, parts: torch.Tensor, x: torch.Tensor, p: int, which: str, head: int):
    """parts [R, d] of the stream x (d,) at position p -> [R, dh], what head `head` compares (its q or k after the
    frozen norms and RoPE); the constants (norm bias, projection bias) are added to the last part ("biases")."""
    h = head if which == "q" else head // (attn.n_heads // attn.n_kv_heads)
    lin_in, b_in = (lambda c: c), None
    if norm is not None:
        lin_in, b_in = frozen(norm, x)
    proj = attn.q if which == "q" else attn.k
    wt, bp = proj.weight.to(F64).T, None if proj.bias is None else proj.bias.to(F64)
    const = torch.zeros(wt.shape[1], dtype=F64, device=x.device)
    if b_in is not None:
        const = const + b_in @ wt
    if bp is not None:
        const = const + bp
    out = lin_in(parts) @ wt  # (R, n_heads·dh)
    whole = lin_in(x) @ wt + const  # the stream's own projection: its statistics freeze the q/k norms
    qk_norm = attn.q_norm if which == "q" else attn.k_norm
    if attn.whole_qk_norm:  # OLMo 2: over the whole projection, before the heads are split
        lin, nb = frozen(qk_norm, whole)
        out, const, whole = lin(out), lin(const) + (0 if nb is None else nb), lin(whole) + (0 if nb is None else nb)
    dh = attn.d_head
    sl = slice(h * dh, (h + 1) * dh)
    out, const, whole = out[:, sl], const[sl], whole[sl]
    if qk_norm is not None and not attn.whole_qk_norm:  # Qwen3: per head, at the head's own scale
        lin, nb = frozen(qk_norm, whole)
        out, const = lin(out), lin(const) + (0 if nb is None else nb)
    out = out.clone()
    out[-1] = out[-1] + const
    if attn.rope:
        r = out[None, None]  # (1, 1, R, dh): every part sits at position p
        out = attn_rope(attn, r, p)[0, 0]
    return out


def attn_rope(attn: MultiHeadAttention, t: torch.Tensor, p: int) -> torch.Tensor:
    """RoPE at position p for every row of t (1, 1, R, dh): a rotation, so the parts' sum is rotated as a whole."""
    positions = torch.full((t.shape[-2],), p, dtype=torch.long, device=t.device)
    return apply_rope(t, positions, attn.inv_freq.to(t.device))


def score_parts(model, ids, layer: int, head: int, query: int, key: int) -> ScoreParts:
    """Head (layer, head)'s score of `key` for `query` in prompt `ids`, split into query part × key part (see the
    module's docstring). Decoder-only, pre-norm models (a post-norm stream is not a sum of parts)."""
    net, cfg = unwrap(model)
    if cfg.norm_position == "post":
        raise ValueError(
            "score_parts needs a model whose residual stream is a sum of what each part wrote; this one normalises "
            "the stream after every block (post-norm, as GPT-1)"
        )
    ids = as_ids(ids, "ids", cfg.vocab_size)
    s = setup(model, len(ids))
    n = len(ids)
    if not 0 <= layer < s.n_layers or layer in s.linear:
        raise ValueError(f"layer {layer} is not a softmax attention layer of this model")
    if not 0 <= head < cfg.n_heads:
        raise ValueError(f"head {head} is not one of 0..{cfg.n_heads - 1}")
    if not (0 <= query < n and 0 <= key < n):
        raise ValueError(f"query {query} and key {key} must be positions of the prompt (0..{n - 1})")
    block, attn = net.decoder[layer], s.attn[layer]
    with torch.inference_mode():
        cap = Capture(s, ["z"])
        stream = stream_of(s, ids, cap)
        labels, parts = _stream_parts(s, ids, cap, stream, layer)
        x = stream[layer][0].to(F64)
        norm = input_norm(net, block)
        qp = _side(attn, norm, parts[:, query], x[query], query, "q", head)
        kp = _side(attn, norm, parts[:, key], x[key], key, "k", head)
        values = (qp @ kp.T * s.scale).cpu().numpy()
        _, rec = block(stream[layer], s.mask, s.scale, s.positions(n), upto="self", head=head)
        model_score = float(rec["self_scores"][0, 0, query, key])
    masked = not bool(_seen(s, block, n)[query, key])
    return ScoreParts(values, float(values.sum()), labels, list(labels), model_score, masked, attn.softcap, layer,
                      head, query, key)  # fmt: skip


def _seen(s, block, n: int) -> torch.Tensor:
    return s.mask if block.window is None else block.windowed(s.mask, s.positions(n), n)
