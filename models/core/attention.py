"""The one attention function, the masks, and multi-head (MHA / GQA / MQA) attention.

Every self- and cross-attention in every architecture calls `attention()`, as in the Annotated
Transformer, so what a page shows is exactly what the model computed. It is written out instead
of calling scaled_dot_product_attention because we must return the weights; the tests check it
against SDPA.
"""

from __future__ import annotations

from contextvars import ContextVar

import torch
import torch.nn.functional as F
from torch import nn

from ..config import ModelConfig
from . import precision
from .norm_layers import make_norm
from .positional import apply_rope, rope_inv_freq

# Activation patching (models/inspection/patch_hooks.py): while set, tap(module, name, tensor) -> tensor reads or
# replaces an attention's q, k, v (per head, after norm and RoPE), "pattern" and "z" (each head's output before W_O).
# A context variable, not module state or a hook on the module: one model is shared by every session and thread.
TAP: ContextVar = ContextVar("attention_tap", default=None)

# ---------------------------------------------------------------- masks (True = may attend)


def causal(n_queries: int, n_keys: int | None = None, offset: int | None = None, device=None) -> torch.Tensor:
    """Query i sees keys 0..i: a decoder must not read the future it is trained to predict.

    With a KV cache the queries are the last n_queries of n_keys positions (offset = n_keys - n_queries).
    device: where the model runs (None: the CPU); every mask function takes it.
    """
    n_keys = n_queries if n_keys is None else n_keys
    offset = n_keys - n_queries if offset is None else offset
    q = torch.arange(n_queries, device=device).unsqueeze(1) + offset  # (Tq, 1) absolute query positions
    k = torch.arange(n_keys, device=device).unsqueeze(0)  # (1, Tk)
    return k <= q  # (Tq, Tk)


def sliding(
    n_queries: int, window: int, n_keys: int | None = None, offset: int | None = None, device=None
) -> torch.Tensor:
    """Causal, and only the last `window` positions (the query's own included): Mistral's sliding-window
    attention (Jiang et al. 2023). Information from further back still arrives, one window per layer."""
    n_keys = n_queries if n_keys is None else n_keys
    offset = n_keys - n_queries if offset is None else offset
    q = torch.arange(n_queries, device=device).unsqueeze(1) + offset  # (Tq, 1)
    k = torch.arange(n_keys, device=device).unsqueeze(0)  # (1, Tk)
    return (k <= q) & (k > q - window)  # (Tq, Tk)


def bidirectional(n_queries: int, n_keys: int | None = None, device=None) -> torch.Tensor:
    """Every query sees every key (encoders, cross-attention)."""
    n_keys = n_queries if n_keys is None else n_keys
    return torch.ones(n_queries, n_keys, dtype=torch.bool, device=device)


def prefix(n: int, prefix_len: int, device=None) -> torch.Tensor:
    """Prefix-LM (Raffel et al. 2020, T5 §3.2.1): bidirectional inside the first prefix_len tokens, causal after."""
    m = causal(n, device=device)
    p = max(0, min(prefix_len, n))
    m[:p, :p] = True
    return m


def padding(key_is_real: torch.Tensor) -> torch.Tensor:
    """(B, Tk) True for real tokens -> (B, 1, 1, Tk), broadcast over heads and queries."""
    return key_is_real[:, None, None, :].bool()


def make_mask(kind: str, n: int, prefix_len: int | None = None, window: int | None = None, device=None) -> torch.Tensor:
    """The structural mask a page names: 'causal', 'bidirectional', 'prefix' (needs prefix_len) or
    'sliding' (needs window); on `device` (None: the CPU)."""
    if kind == "causal":
        return causal(n, device=device)
    if kind == "bidirectional":
        return bidirectional(n, device=device)
    if kind == "prefix":
        if prefix_len is None:
            raise ValueError("mask='prefix' needs prefix_len")
        return prefix(n, prefix_len, device=device)
    if kind == "sliding":
        if window is None:
            raise ValueError("mask='sliding' needs window")
        return sliding(n, window, device=device)
    raise ValueError(f"mask={kind!r} is not one of causal, bidirectional, prefix, sliding")


# ---------------------------------------------------------------- the attention function


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    mask: torch.Tensor | None,
    scale: float,
    bias: torch.Tensor | None = None,
    softcap: float | None = None,
    into: tuple[torch.Tensor | None, torch.Tensor] | None = None,
    output: bool = True,
    on_weights=None,
) -> tuple[torch.Tensor | None, torch.Tensor, torch.Tensor]:
    """softmax(q·kᵀ · scale + bias + mask) · v, returning (output, weights, scores).

    q: (B, H, Tq, dh); k, v: (B, Hkv, Tk, dh) with H a multiple of Hkv (GQA: each K/V head serves
    H / Hkv query heads). mask: bool, broadcastable to (B, H, Tq, Tk), True where attending is
    allowed. q·k is a dot product, not a cosine similarity: its size grows with |q|·|k|, which
    is why the 1/sqrt(d_head) scale exists. A row with every key masked gets weight 0 (not NaN).
    bias: an additive per-head term broadcastable to (B, H, Tq, Tk), added before the mask (T5's relative
    position bias, [H, Tq, Tk]); the returned scores include it.
    softcap: Gemma 2's soft-capping, scores -> cap·tanh(scores / cap) before the mask: every score stays within
    ±cap; the returned scores are the capped ones (then masked, as always).
    into: (scores or None, weights) of shape (B, H, Tq, Tk) to write into instead of new tensors (no gradient):
    LiveModel.run_ids fills its trace's [L, ...] arrays layer by layer instead of stacking copies of them.
    output=False: the output is None (a long trace recomputing one layer's weights: weights·v is a third of the work).
    on_weights: weights -> the weights used for the output (activation patching's "pattern"; TAP).
    """
    group = q.shape[1] // k.shape[1]
    if group > 1:  # GQA / MQA: repeat each K/V head for its group of query heads
        k = k.repeat_interleave(group, dim=1)  # (B, H, Tk, dh)
        v = v.repeat_interleave(group, dim=1)
    s_out, w_out = (None, None) if into is None else into
    scores = torch.matmul(q, k.transpose(-2, -1), out=s_out).mul_(scale)  # (B, H, Tq, Tk); in place: a new tensor
    if bias is not None:
        scores = scores.add_(bias)
    if softcap is not None:
        scores = torch.mul(torch.tanh(scores / softcap), softcap, out=s_out)
    if mask is not None and not bool(mask.all()):  # an all-True mask (an encoder's, cross-attention's) changes nothing
        scores = scores.masked_fill_(~mask, float("-inf"))
    weights = torch.softmax(scores, dim=-1, out=w_out)  # (B, H, Tq, Tk), rows sum to 1
    if mask is not None and not bool(mask.any(-1).all()):  # a fully masked row: softmax(-inf...) is NaN
        weights = torch.nan_to_num(weights, nan=0.0) if w_out is None else weights.nan_to_num_(nan=0.0)
    if on_weights is not None:
        weights = on_weights(weights)
    return (weights @ v if output else None), weights, scores  # (B, H, Tq, dh)


def fused_attention(q, k, v, mask: torch.Tensor | None, scale: float, bias: torch.Tensor | None = None) -> torch.Tensor:
    """attention()'s output only, through torch's scaled_dot_product_attention, which never materialises the
    [B, H, Tq, Tk] weights of every layer at once: a long trace's forward (models/core/long_trace.py) recomputes a
    layer's weights with attention() when a page reads them. No soft-capping (the caller uses attention() then);
    a fully masked row gives 0, as attention()'s does."""
    if bias is not None:  # T5: the bias and the mask as one additive float mask
        mask = bias if mask is None else bias.masked_fill(~mask, float("-inf"))
    group = q.shape[1] // k.shape[1]
    if group > 1:
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
    return torch.nan_to_num(F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale), nan=0.0)


class MultiHeadAttention(nn.Module):
    """Project to heads, call attention(), merge heads. Writes nothing to self during forward:
    one model instance is shared by every browser session."""

    def __init__(self, cfg: ModelConfig, rope: bool, rope_base: float | None = None):
        super().__init__()
        self.n_heads, self.n_kv_heads, self.d_head = cfg.n_heads, cfg.kv_heads, cfg.d_head
        self.rope = rope  # RoPE rotates q and k of self-attention only (Su et al. 2021)
        # float64 frequencies from the config's base (and Llama 3.1 scaling); not a parameter, not saved. One per
        # rotated pair: cfg.rope_dims / 2 of them (Pythia rotates only the first quarter of each head)
        # rope_base: this layer's θ when it is not cfg.rope_base (Gemma 3's sliding layers: cfg.layer_rope_base)
        self.rope_base = cfg.rope_base if rope_base is None else rope_base
        self.inv_freq = rope_inv_freq(cfg.rope_dims, self.rope_base, cfg.rope_llama3) if rope else None
        self.softcap = cfg.attn_softcap  # Gemma 2: cap·tanh(scores / cap) before the mask; None: none
        qkv_bias = cfg.bias or cfg.qkv_bias
        self.q = nn.Linear(cfg.d_model, cfg.n_heads * cfg.d_head, bias=qkv_bias)
        self.k = nn.Linear(cfg.d_model, cfg.kv_heads * cfg.d_head, bias=qkv_bias)  # GQA: fewer K/V heads
        self.v = nn.Linear(cfg.d_model, cfg.kv_heads * cfg.d_head, bias=qkv_bias)
        self.o = nn.Linear(cfg.n_heads * cfg.d_head, cfg.d_model, bias=cfg.bias)
        # Qwen3.5 (attn_output_gate): each head's output × sigmoid(gate(x)) before W_O (the published q_proj's 2nd half)
        self.gate = nn.Linear(cfg.d_model, cfg.n_heads * cfg.d_head, bias=qkv_bias) if cfg.attn_output_gate else None
        # Qwen3: every head's q and k normalised over its d_head dimensions (one gain vector shared by the heads)
        # OLMo 2 (qk_norm_scope="all"): instead, q and k normalised over the whole projection (all heads at once),
        # right after it, before the heads are split and before RoPE: one gain per row of q (of k)
        self.whole_qk_norm = cfg.qk_norm and cfg.qk_norm_scope == "all"
        q_width, k_width = (cfg.n_heads * cfg.d_head, cfg.kv_heads * cfg.d_head) if self.whole_qk_norm else (None, None)
        self.q_norm = make_norm(cfg, q_width or cfg.d_head) if cfg.qk_norm else None
        self.k_norm = make_norm(cfg, k_width or cfg.d_head) if cfg.qk_norm else None

    def project_q(self, x: torch.Tensor) -> torch.Tensor:
        """x [..., d] -> q [..., n_heads·dh] as projected (OLMo 2: then normalised over all of it)."""
        return self.q_norm(self.q(x)) if self.whole_qk_norm else self.q(x)

    def project_k(self, x: torch.Tensor) -> torch.Tensor:
        """x [..., d] -> k [..., kv_heads·dh] as projected (OLMo 2: then normalised over all of it)."""
        return self.k_norm(self.k(x)) if self.whole_qk_norm else self.k(x)

    def _split(self, x: torch.Tensor, heads: int) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, heads, self.d_head).transpose(1, 2)  # (B, heads, T, dh)

    def prepare_qk(
        self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """q, k [..., T, dh] per head as projected -> what attention compares: normalised per head (qk_norm, before
        RoPE as in Qwen3), then rotated by RoPE (its first rope_dims dimensions). positions: (T,), for RoPE."""
        if self.q_norm is not None and not self.whole_qk_norm:  # per head (OLMo 2's whole-projection norm: project_q)
            q, k = self.q_norm(q), self.k_norm(k)
        if self.rope:
            assert positions is not None
            q, k = apply_rope(q, positions, self.inv_freq), apply_rope(k, positions, self.inv_freq)
        return q, k

    def forward(
        self,
        x: torch.Tensor,  # (B, Tq, d) queries come from here
        source: torch.Tensor,  # (B, Tk, d) keys/values come from here (x itself for self-attention)
        mask: torch.Tensor | None,
        scale: float,
        positions: torch.Tensor | None = None,  # (Tq,) absolute positions of the queries, for RoPE
        past: tuple[torch.Tensor, torch.Tensor] | None = None,  # cached (k, v) of earlier positions
        ablate: dict[int, str] | None = None,  # {head: "zero" | "uniform"}: knock heads out (interventions.py)
        bias: torch.Tensor | None = None,  # (H, Tq, Tk) added to the scores (T5's relative position bias)
        need_weights: bool = True,  # False: weights and scores come back None (output: fused_attention())
        into: tuple[torch.Tensor | None, torch.Tensor] | None = None,  # (scores, weights) to fill: attention()'s
        need_output: bool = True,  # False: the output comes back None (a long trace recomputing a layer's weights)
        head: int | None = None,  # with need_output=False: that head's weights and scores only, (B, 1, Tq, Tk)
    ) -> tuple[torch.Tensor | None, torch.Tensor, torch.Tensor, tuple[torch.Tensor, torch.Tensor]]:
        same = source is x
        x = precision.matmul_input(x, self.q)  # bfloat16 mode: cast once for q, k and v (projections come back float32)
        source = x if same else precision.matmul_input(source, self.k)
        q = self._split(self.project_q(x), self.n_heads)  # (B, H, Tq, dh)
        k = self._split(self.project_k(source), self.n_kv_heads)  # (B, Hkv, Tk_new, dh)
        v = self._split(self.v(source), self.n_kv_heads)
        q, k = self.prepare_qk(q, k, positions)
        tap = TAP.get()
        if tap is not None:  # activation patching: read or replace them
            q, k, v = tap(self, "q", q), tap(self, "k", k), tap(self, "v", v)
        if past is not None:  # KV cache: keys/values of earlier positions are reused, not recomputed
            k, v = torch.cat([past[0], k], dim=2), torch.cat([past[1], v], dim=2)
        if head is not None and not need_output and ablate is None:  # one head's pattern (long_trace.Recompute)
            kv = head // (self.n_heads // self.n_kv_heads)  # its K/V group
            one = None if bias is None or bias.shape[-3] == 1 else bias.narrow(-3, head, 1)
            _, weights, scores = attention(q[:, head : head + 1], k[:, kv : kv + 1], v[:, kv : kv + 1], mask, scale,
                                           bias if one is None else one, self.softcap, output=False)  # fmt: skip
            return None, weights, scores, (k, v)
        if not need_weights and ablate is None and self.softcap is None and tap is None:
            out, weights, scores = fused_attention(q, k, v, mask, scale, bias), None, None
        else:
            output = need_output or ablate is not None
            pattern = None if tap is None else (lambda w: tap(self, "pattern", w))
            out, weights, scores = attention(q, k, v, mask, scale, bias, self.softcap, into, output, pattern)
            if out is None:
                return None, weights, scores, (k, v)
            if ablate is not None:
                out, weights = knock_out(out, weights, v, mask, ablate)
            if not need_weights:  # Gemma 2's soft-capping, an ablation: computed, then dropped
                weights = scores = None
        b, _, t, _ = out.shape
        out = out.transpose(1, 2).reshape(b, t, self.n_heads * self.d_head)  # (B, Tq, d)
        if self.gate is not None:  # Qwen3.5: attn · sigmoid(gate), gated per head and dimension
            out = out * torch.sigmoid(self.gate(x))
        if tap is not None:  # z: (B, Tq, H, dh), what W_O reads (Qwen3.5: gated)
            out = tap(self, "z", out.view(b, t, self.n_heads, self.d_head)).reshape(b, t, -1)
        return self.o(out), weights, scores, (k, v)


ABLATIONS = ("zero", "uniform")


def knock_out(
    out: torch.Tensor, weights: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None, heads: dict[int, str]
) -> tuple[torch.Tensor, torch.Tensor]:
    """Heads knocked out ({head: mode}), on new tensors (the module is shared, nothing is written to it).

    "zero": the head's output (its slice before W_O) is 0, so W_O adds only its bias. "uniform": its
    pattern becomes the uniform distribution over the keys its mask allows, and its output is that
    average of its values: the head still reads, but no longer chooses where. out: (B, H, Tq, dh);
    weights: (B, H, Tq, Tk); v: (B, Hkv, Tk, dh) (GQA: the query head's K/V group).
    """
    out, weights = out.clone(), weights.clone()
    group = out.shape[1] // v.shape[1]
    for head, mode in heads.items():
        if mode not in ABLATIONS:
            raise ValueError(f"ablation mode must be one of {ABLATIONS}, got {mode!r}")
        if not 0 <= head < out.shape[1]:
            raise ValueError(f"head {head} is not one of 0..{out.shape[1] - 1}")
        if mode == "zero":
            out[:, head] = 0.0
            continue
        allowed = (
            torch.ones(weights.shape, dtype=torch.bool, device=weights.device)
            if mask is None
            else mask.expand(weights.shape)
        )
        allowed = allowed[:, head].to(weights.dtype)  # (B, Tq, Tk)
        uniform = torch.nan_to_num(allowed / allowed.sum(-1, keepdim=True), nan=0.0)  # fully masked rows stay 0
        weights[:, head] = uniform
        out[:, head] = uniform @ v[:, head // group]
    return out, weights


def reference_attention(q, k, v, mask, scale):
    """PyTorch's fused SDPA, for tests only: it returns no weights, so the app cannot use it."""
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, scale=scale)
