"""Each head's weights as circuit analysis reads them (issue 43): per head, row-vector convention (x @ W), float64,
with the norm before the attention folded in the way TransformerLens's fold_ln does it.

fold_ln (TransformerLens's ProcessWeights.process_weights): the input norm's gain g multiplies the rows of W_Q, W_K,
W_V; for a LayerNorm the reading weights are then centred over d_model, and the writing weights W_O over their
d_model output (center_writing_weights: a LayerNorm removes the mean anyway, so a write along the all-ones direction
is invisible to every reader). RMSNorm models get the gains only. RoPE and q/k norms are left out (they depend on
the position and on the run). With grouped-query attention each query head gets its K/V group's W_K, W_V.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from ..core.attention import MultiHeadAttention
from ..core.norm_layers import RMSNorm
from ..core.transformer import Transformer

F64 = torch.float64


@dataclass(frozen=True)
class HeadWeights:
    """[L, H, d, dh] W_Q, W_K, W_V and [L, H, dh, d] W_O, folded; `layers` the model's layer number of each row
    (Qwen3.5's linear layers have no softmax heads and are left out, as TransformerLens leaves them out)."""

    W_Q: torch.Tensor
    W_K: torch.Tensor
    W_V: torch.Tensor
    W_O: torch.Tensor
    layers: tuple[int, ...]
    n_layers: int  # every layer of the stack, linear ones included
    stack: str


def transformer(model) -> Transformer:
    """A LiveModel or its Transformer -> the Transformer (TypeError otherwise)."""
    net = getattr(model, "net", model)
    if not isinstance(net, Transformer):
        raise TypeError(f"expected a models.LiveModel or its Transformer, got {type(model).__name__}")
    return net


def blocks_of(net: Transformer, stack: str | None):
    """(the stack's blocks, its name): the decoder's self-attention unless stack="encoder" (or there is no decoder).
    Cross-attention reads the other stack's stream, so it is never part of a composition between heads."""
    if stack is None:
        stack = "decoder" if net.decoder is not None else "encoder"
    blocks = {"decoder": net.decoder, "encoder": net.encoder}.get(stack)
    if blocks is None:
        raise ValueError(f"this model has no {stack!r} stack (its arch is {net.cfg.arch!r})")
    return blocks, stack


def input_norm(net: Transformer, block: nn.Module) -> nn.Module | None:
    """The norm the block applies to the stream before its self-attention, or None (post-norm: BERT, GPT-1; OLMo 2
    normalises only what a sublayer writes)."""
    cfg = net.cfg
    if cfg.norm_position in ("post", "post_sub"):
        return None
    norm = block.norm_self
    return norm if isinstance(norm, RMSNorm | nn.LayerNorm) else None


def _center(w: torch.Tensor, dim: int) -> torch.Tensor:
    return w - w.mean(dim, keepdim=True)


def head_weights(model, stack: str | None = None, fold_ln: bool = True) -> HeadWeights:
    """Every softmax head's folded W_Q, W_K, W_V, W_O (see the module's docstring), float64 on the CPU."""
    net = transformer(model)
    blocks, stack = blocks_of(net, stack)
    cfg = net.cfg
    H, Hkv, dh = cfg.n_heads, cfg.kv_heads, cfg.d_head
    group = H // Hkv
    qs, ks, vs, os_, layers = [], [], [], [], []
    for i, block in enumerate(blocks):
        attn = block.self_attn
        if not isinstance(attn, MultiHeadAttention):
            continue  # a Gated DeltaNet layer (Qwen3.5)
        with torch.no_grad():
            wq = attn.q.weight.detach().to("cpu", F64).T.reshape(-1, H, dh).permute(1, 0, 2)  # (H, d, dh)
            wk = attn.k.weight.detach().to("cpu", F64).T.reshape(-1, Hkv, dh).permute(1, 0, 2)
            wv = attn.v.weight.detach().to("cpu", F64).T.reshape(-1, Hkv, dh).permute(1, 0, 2)
            wo = attn.o.weight.detach().to("cpu", F64).T.reshape(H, dh, -1)  # (H, dh, d)
            wk, wv = wk.repeat_interleave(group, 0), wv.repeat_interleave(group, 0)  # GQA: each query head's group
            norm = input_norm(net, block) if fold_ln else None
            if norm is not None:
                g = norm.weight.detach().to("cpu", F64)[None, :, None]
                wq, wk, wv = wq * g, wk * g, wv * g
                if isinstance(norm, nn.LayerNorm):  # TransformerLens centres reading and writing weights then
                    wq, wk, wv, wo = _center(wq, 1), _center(wk, 1), _center(wv, 1), _center(wo, 2)
        qs.append(wq)
        ks.append(wk)
        vs.append(wv)
        os_.append(wo)
        layers.append(i)
    if not layers:
        raise ValueError("this model has no softmax attention layer, so it has no heads to compose")
    stacked = (torch.stack(t) for t in (qs, ks, vs, os_))
    return HeadWeights(*stacked, layers=tuple(layers), n_layers=len(blocks), stack=stack)


def embedding_matrix(net: Transformer) -> torch.Tensor:
    """W_E [V, d] as the stream receives a token (sqrt(d) and Granite's multiplier included), float64. Raises for
    models whose embedding passes through a norm or a projection (BERT, ALBERT): not a fixed row per token."""
    cfg = net.cfg
    if net.emb_norm is not None or net.emb_proj is not None:
        raise ValueError("this model's embedding passes through a norm or a projection, so a token has no fixed row")
    w = net.tok_emb.weight.detach().to("cpu", F64)
    if cfg.embed_scale:
        w = w * cfg.d_model**0.5
    if cfg.embed_multiplier is not None:
        w = w * cfg.embed_multiplier
    return w


def unembedding_matrix(net: Transformer, stack: str) -> torch.Tensor:
    """W_U [d, V] with the final norm's gain folded in (and Granite's divisor, T5's rescale), float64. Gemma 2's
    final soft-cap is left out (not linear)."""
    if net.head is None or not hasattr(net.head, "weight") or net.mlm is not None:
        raise ValueError("this model has no linear unembedding from the stream to its vocabulary")
    if stack != ("decoder" if net.decoder is not None else "encoder"):
        raise ValueError(f"the {stack} stack's stream does not reach the output head")
    w = net.head.weight.detach().to("cpu", F64).T
    norm = net.dec_norm if stack == "decoder" else net.enc_norm
    if isinstance(norm, RMSNorm | nn.LayerNorm):
        w = norm.weight.detach().to("cpu", F64)[:, None] * w
    one = torch.ones(1, dtype=F64, device=net.head.weight.device)
    return w * float(net.head_input(one)[0])
