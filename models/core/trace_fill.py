"""Where LiveModel.run_ids' attentions write their scores and weights: one [L, H, Tq, Tk] tensor per stack and kind,
filled layer by layer (attention()'s into), so the trace holds them without stacking a copy of every layer's
tensors afterwards: at 256 tokens those copies (into freshly touched pages) were ~15% of ELECTRA-small's forward."""

from __future__ import annotations

import torch

from . import precision
from .attention import MultiHeadAttention


def run_filled(net, blocks, ids, mask, scale, memory=None, cross_mask=None, scores=True, long=False):
    """net.run_stack(...) with its attentions writing into new buffers -> (x, records, stream, {"self" | "cross":
    (scores or None, weights) [L, H, Tq, Tk]}); "self" has the softmax layers only (Qwen3.5's Gated DeltaNet layers
    write none). scores=False: each layer's scores stay its own tensor, dropped. long: a long trace's forward, which
    keeps no weights (need_weights=False) and so no buffers."""
    if long:
        return (*net.run_stack(blocks, ids, mask, scale, memory, cross_mask, need_weights=False), {})
    dtype = precision.activations(net.tok_emb.weight.dtype)  # float32 beside bfloat16 matrices
    # an all-True mask (an encoder's, cross-attention's) masks nothing: None spares attention() checking it per layer
    mask, cross_mask = (None if m is not None and bool(m.all()) else m for m in (mask, cross_mask))
    heads, t = net.cfg.n_heads, ids.shape[1]

    def pair(n_layers, n_keys):
        shape = (n_layers, heads, t, n_keys)
        dev = ids.device  # the model's (a GPU's); gathered() brings the trace's arrays back
        return (torch.empty(shape, dtype=dtype, device=dev) if scores else None), torch.empty(
            shape, dtype=dtype, device=dev
        )

    rows = {"self": [i for i, b in enumerate(blocks) if isinstance(b.self_attn, MultiHeadAttention)]}
    if memory is not None:
        rows["cross"] = list(range(len(blocks)))
    bufs = {part: pair(len(layers), t if part == "self" else memory.shape[1]) for part, layers in rows.items()}
    into = [{} for _ in blocks]
    for part, (s, w) in bufs.items():
        for j, i in enumerate(rows[part]):
            into[i][part] = (None if s is None else s[j][None], w[j][None])  # (1, H, Tq, Tk) views
    return (*net.run_stack(blocks, ids, mask, scale, memory, cross_mask, into=into), bufs)


def gathered(records: list[dict], name: str, buffer: torch.Tensor | None) -> torch.Tensor:
    """The records' (1, H, Tq, Tk) tensors under name as one [L, H, Tq, Tk]: the buffer they were written into
    (no copy), or their stack where a layer made its own tensor."""
    if buffer is not None and all(r[name].data_ptr() == buffer[j].data_ptr() for j, r in enumerate(records)):
        return buffer
    return torch.stack([r[name][0] for r in records])
