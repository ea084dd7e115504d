"""Direct logit attribution (issue 42): how much each head's write to the residual stream pushes the answer over the
wrong token at the last position, without passing through any later layer.

The final norm is frozen at the scale this run gave it, which makes the logit difference linear in the stream:
RMSNorm c/rms·g·Δu, LayerNorm (c − mean c)/σ·g·Δu, with Δu = W_U[answer] − W_U[wrong] (and Granite's divisor).
The stream at the last position is the embedding plus what every block added, so the parts add up exactly:
each head (z_h · W_O,h, through its block's frozen post-norm in OLMo 2 and Gemma, times Granite's residual scale),
each attention's output bias, each MLP (what the block added beyond its attention), the final norm's and the head's
biases. Gemma 2 soft-caps its logits: the difference before the cap is attributed (`softcapped` says so).
A post-norm model (GPT-1) normalises the stream after every block, so no head writes to the output directly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from ..core.norm_layers import RMSNorm
from .patch_hooks import Capture, Setup, as_ids, logit_pair, setup, stream_of, token, unwrap

F64 = torch.float64


@dataclass(frozen=True)
class Direct:
    """Direct effects on logit[answer] − logit[wrong] at the last position; heads.sum() + rest == total."""

    heads: np.ndarray  # [L, H] each head's direct effect (value heads in a linear layer; cells a layer lacks are 0)
    total: float  # the metric (before Gemma 2's cap), as the sum of every part
    rest: float  # everything that is not a head: embed + attn_bias.sum() + mlps.sum() + bias
    embed: float  # the embeddings (token, positions)
    mlps: np.ndarray  # [L] what each block added beyond its attention (its FFN or MoE)
    attn_bias: np.ndarray  # [L] each attention's output bias (through the block's post-norm, if any)
    bias: float  # the final norm's bias and the output head's bias
    parts: dict  # the same, by name: "embed", "L3H2", "L3 attn bias", "L3 mlp", "bias"
    model_metric: float  # the logit difference the forward pass computed (before any cap), for comparison
    capped_metric: float  # after Gemma 2's soft-cap (= model_metric without one)
    softcapped: bool  # the model soft-caps its logits: the attribution is of the logit before the cap
    exists: np.ndarray  # [L, H] bool: the layer has that head
    linear_layers: tuple[int, ...]
    answer_id: int
    wrong_id: int


def frozen(norm: nn.Module, x: torch.Tensor):
    """The norm as a linear map with the statistics of x (its input, float64): c -> the norm's share of c (the bias
    is not in it: the caller counts it once), and the bias (or None)."""
    if isinstance(norm, nn.Identity):
        return (lambda c: c), None
    g = norm.weight.to(F64)
    if isinstance(norm, RMSNorm):
        s = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + norm.eps)
        return (lambda c: c * s * g), None
    if isinstance(norm, nn.LayerNorm):
        s = torch.rsqrt(x.var(-1, unbiased=False, keepdim=True) + norm.eps)
        b = None if norm.bias is None else norm.bias.to(F64)
        return (lambda c: (c - c.mean(-1, keepdim=True)) * s * g), b
    raise ValueError(f"direct attribution cannot freeze a {type(norm).__name__}")


def _out_weight(module: nn.Module) -> tuple[torch.Tensor, torch.Tensor | None]:
    o = module.o
    return o.weight.to(F64), None if o.bias is None else o.bias.to(F64)


def _layer(s: Setup, i: int, z: torch.Tensor, phi) -> tuple[np.ndarray, float, torch.Tensor]:
    """(each head's direct effect [heads], the attention bias's, the attention's whole write to the stream (d,))
    of block i from its z at the last position (heads, dh), float64."""
    block = s.net.decoder[i]
    w, b = _out_weight(s.attn[i])
    heads, dh = z.shape
    per = torch.einsum("dhk,hk->hd", w.view(w.shape[0], heads, dh), z)  # (heads, d): z_h · W_O,h
    bias = torch.zeros(w.shape[0], dtype=F64, device=w.device) if b is None else b
    whole = per.sum(0) + bias  # what W_O wrote
    post = block.post_self if block.post_self is not None else (block.norm_self if block.post_sub else None)
    if post is not None:  # OLMo 2: x + norm(attn); Gemma: x + post(attn); frozen at this write's scale
        lin, nb = frozen(post, whole)
        per, bias = lin(per), lin(bias) + (0 if nb is None else nb)
    if block.residual_scale is not None:  # Granite
        per, bias = per * block.residual_scale, bias * block.residual_scale
    written = per.sum(0) + bias
    return phi(per).cpu().numpy(), float(phi(bias[None])[0]), written


def direct(model, ids, answer_id, wrong_id) -> Direct:
    """Each head's direct effect on logit[answer] − logit[wrong] at the last position of ids ([T] or [1, T]), the
    rest by part; float64 arithmetic on the model's own activations (parts sum to the total within 1e-12)."""
    net, cfg = unwrap(model)
    if cfg.norm_position == "post":
        raise ValueError(
            "direct attribution needs a pre-norm model: this one normalises the residual stream after every block "
            "(post-norm, as GPT-1 and BERT), so no head writes to the output directly"
        )
    ids = as_ids(ids, "ids", cfg.vocab_size)
    s = setup(model, len(ids))
    answer, wrong = token(answer_id, "answer_id", cfg.vocab_size), token(wrong_id, "wrong_id", cfg.vocab_size)
    with torch.inference_mode():
        cap = Capture(s, ["z"])
        stream = stream_of(s, ids, cap)
        last = stream[-1][:, -1]
        uncapped = logit_pair(s, last, answer, wrong, cap=False)[0]
        capped = logit_pair(s, last, answer, wrong)[0]
        x = last[0].to(F64)
        lin, norm_bias = frozen(net.dec_norm, x)
        du = (net.head.weight[answer].to(F64) - net.head.weight[wrong].to(F64)) * _head_factor(s)
        head_bias = 0.0 if net.head.bias is None else float(net.head.bias[answer] - net.head.bias[wrong])

        def phi(c: torch.Tensor) -> torch.Tensor:  # (n, d) -> (n,): through the frozen final norm, onto Δu
            return lin(c) @ du

        embed = float(phi(stream[0][0, -1].to(F64)[None])[0])
        width = max(s.heads(i, "out") for i in range(s.n_layers))
        heads, exists = np.zeros((s.n_layers, width)), np.zeros((s.n_layers, width), bool)
        mlps, attn_bias = np.zeros(s.n_layers), np.zeros(s.n_layers)
        for i in range(s.n_layers):
            z = cap.acts["z"][i][0, :, -1].to(F64)  # heads-first (H, T, dh) -> the last position (H, dh)
            h, attn_bias[i], written = _layer(s, i, z, phi)
            heads[i, : len(h)], exists[i, : len(h)] = h, True
            added = (stream[i + 1][0, -1] - stream[i][0, -1]).to(F64)
            mlps[i] = float(phi((added - written)[None])[0])
        bias = head_bias + (0.0 if norm_bias is None else float(norm_bias @ du))
    rest = embed + float(attn_bias.sum()) + float(mlps.sum()) + bias
    parts = {"embed": embed, "bias": bias}
    for i in range(s.n_layers):
        parts.update({f"L{i}H{h}": float(heads[i, h]) for h in range(width) if exists[i, h]})
        parts.update({f"L{i} attn bias": float(attn_bias[i]), f"L{i} mlp": float(mlps[i])})
    return Direct(
        heads=heads, total=float(heads.sum()) + rest, rest=rest, embed=embed, mlps=mlps, attn_bias=attn_bias,
        bias=bias, parts=parts, model_metric=float(uncapped[0] - uncapped[1]),
        capped_metric=float(capped[0] - capped[1]), softcapped=cfg.final_softcap is not None, exists=exists,
        linear_layers=tuple(s.linear), answer_id=answer, wrong_id=wrong,
    )  # fmt: skip


def _head_factor(s: Setup) -> float:
    """What head_input multiplies the normed stream by (Granite's 1/divisor, T5's d^-0.5; 1 for most)."""
    one = torch.ones(1, dtype=F64, device=s.device)
    return float(s.net.head_input(one)[0])
