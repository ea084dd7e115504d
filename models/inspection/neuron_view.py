"""Why does this query attend to that key? The neuron view (BertViz, Vig 2019): one head's query vector q_i and
key vector k_j, their elementwise product q ⊙ k per dimension, and its sum, the dot product q·k, which times the
scale (1/√d_k, or whatever factor the run used) is the score before the mask and the softmax. Dimensions whose
product is large and positive carry the match; negative ones argue against it.

q and k come from the same path the model takes (qk_map.head_qk's projection: the attention sublayer's input,
OLMo 2's whole-projection norm, Qwen3's per-head norm, GQA's shared key heads), and RoPE models get both the
vectors as projected (and normalised) and as rotated to their positions: attention compares the rotated ones,
so the product and its sum are those of the rotated vectors (partial rotary: only the first rope_dims turn).

Where the model's score has another term, the sum times the scale is not the whole score: T5's relative
position bias (ModelConfig.positional == "relative") adds a learned number per head and offset, Gemma 2's
soft-capping (attn_softcap) bends the score through cap·tanh(score / cap). `exact` says which case it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..core import precision, readonly
from ..live import LiveModel, Trace
from .qk_map import stream_key

SELF_KINDS = ("encoder.self", "decoder.self")


@dataclass(frozen=True)
class NeuronView:
    """One query i and one key j of one head; vectors float64 [d_head]."""

    q: np.ndarray  # as projected (and normalised per head where the model does): before RoPE
    k: np.ndarray
    q_rot: np.ndarray  # what attention compares: rotated by RoPE to position i (= q without RoPE)
    k_rot: np.ndarray  # rotated to position j (= k without RoPE)
    product: np.ndarray  # q_rot ⊙ k_rot
    dot: float  # Σ product = q_rot · k_rot
    scale: float  # the factor on q·k the run used (Trace.attn_scale)
    score: float  # dot · scale: the score before the mask (and before any bias or cap, see exact)
    rope: bool  # this layer rotates q and k
    rope_dims: int  # how many leading dimensions RoPE turns (0 without RoPE)
    exact: bool  # False: the model adds another term (relative bias, soft-capping), so score is not Trace.scores
    extra: str | None  # "relative" | "softcap" | None: which term

    @property
    def dot_unrotated(self) -> float:
        """q · k before RoPE: the score the pair would have at the same position (rotating both by one angle)."""
        return float(self.q @ self.k)


def extra_term(model: LiveModel) -> str | None:
    """The term the model adds to q·k·scale, if any: "relative" (T5's bias) or "softcap" (Gemma 2)."""
    cfg = model.config
    if cfg.positional == "relative":
        return "relative"
    if cfg.attn_softcap is not None:
        return "softcap"
    return None


@torch.inference_mode()
def head_vectors(model: LiveModel, x: np.ndarray, kind: str, layer: int, head: int):
    """(q, k, q_rot, k_rot) [T, d_head] float64 of one head from block `layer`'s input x [T, d_model]: as projected
    (and per-head normalised), and as attention compares them (MultiHeadAttention.prepare_qk: the norm, then RoPE)."""
    if kind not in SELF_KINDS:
        raise ValueError(f"the neuron view reads self-attention ({', '.join(SELF_KINDS)}), not {kind!r}")
    net = model.net
    blocks = net.decoder if kind == "decoder.self" else net.encoder
    if not 0 <= layer < len(blocks) or not 0 <= head < model.config.n_heads:
        raise ValueError(f"layer {layer}, head {head}: the model has {len(blocks)} layers of {model.config.n_heads}")
    block = blocks[layer]
    attn = block.self_attn
    dtype = precision.activations(next(attn.parameters()).dtype)  # float32 beside bfloat16 matrices
    h = readonly.tensor(np.asarray(x), dtype).to(next(attn.parameters()).device)  # to the model's (a GPU's)
    h = block.norm_self(h) if block.pre else h
    dh, group = attn.d_head, attn.n_heads // attn.n_kv_heads
    q = attn.project_q(h)[..., head * dh : (head + 1) * dh]
    kv = head // group  # GQA: the head reads its group's key head
    k = attn.project_k(h)[..., kv * dh : (kv + 1) * dh]
    q_rot, k_rot = attn.prepare_qk(q, k, torch.arange(h.shape[-2], device=h.device))  # exactly the model's path
    if attn.q_norm is not None and not attn.whole_qk_norm:  # the per-head norm alone, without the rotation
        q, k = attn.q_norm(q), attn.k_norm(k)
    return tuple(v.to(torch.float64).cpu().numpy() for v in (q, k, q_rot, k_rot))


def model_layer(trace: Trace, kind: str, row: int) -> int:
    """The model's layer number of row `row` of trace.attention[kind] (Qwen3.5 keeps its softmax layers only there:
    Trace.layers); ValueError for a row the trace does not have."""
    rows = trace.attention[kind].shape[0] if kind in trace.attention else 0
    if not 0 <= row < rows:
        raise ValueError(f"layer {row}: the trace has {rows} layers of {kind}")
    numbers = trace.layers.get(kind)
    return int(numbers[row]) if numbers else row


def neuron_view(model: LiveModel, trace: Trace, kind: str, layer: int, head: int, query: int, key: int) -> NeuronView:
    """The neuron view of query position `query` and key position `key` of one self-attention head of the trace;
    layer is the row of trace.attention[kind] (the model's layer number unless Trace.layers says otherwise)."""
    if kind not in SELF_KINDS:
        raise ValueError(f"the neuron view reads self-attention ({', '.join(SELF_KINDS)}), not {kind!r}")
    layer = model_layer(trace, kind, layer)
    x = trace.hidden[stream_key(kind)][layer]  # [T, d_model]: block `layer`'s input
    n = x.shape[0]
    if not (0 <= query < n and 0 <= key < n):
        raise ValueError(f"query {query} and key {key} must be positions 0..{n - 1}")
    q, k, q_rot, k_rot = head_vectors(model, x, kind, layer, head)
    blocks = model.net.decoder if kind == "decoder.self" else model.net.encoder
    attn = blocks[layer].self_attn
    product = q_rot[query] * k_rot[key]
    dot = float(product.sum())
    extra = extra_term(model)
    return NeuronView(
        q=q[query],
        k=k[key],
        q_rot=q_rot[query],
        k_rot=k_rot[key],
        product=product,
        dot=dot,
        scale=float(trace.attn_scale),
        score=dot * float(trace.attn_scale),
        rope=bool(attn.rope),
        rope_dims=2 * attn.inv_freq.shape[0] if attn.rope else 0,
        exact=extra is None,
        extra=extra,
    )


def allowed_keys(trace: Trace, kind: str, layer: int, query: int) -> np.ndarray:
    """The key positions query `query` may attend to in row `layer` of trace.attention[kind] (its mask row: Gemma's
    sliding layers have their own), ascending."""
    masks = trace.layer_masks.get(kind)  # Gemma 2/3: every model layer's own mask
    row = masks[model_layer(trace, kind, layer)][query] if masks is not None else trace.masks[kind][query]
    return np.flatnonzero(row)
