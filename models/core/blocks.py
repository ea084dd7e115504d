"""Feed-forward networks and the one Transformer block all three architectures stack (norms: norm_layers.py)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from ..config import ModelConfig
from . import precision
from .attention import MultiHeadAttention
from .linear_attention import GatedDeltaNet
from .moe import MoEFeedForward
from .norm_layers import LAYERNORM_EPS, RMSNORM_EPS, RMSNorm, make_norm

__all__ = ["LAYERNORM_EPS", "RMSNORM_EPS", "Block", "FeedForward", "RMSNorm", "make_norm"]  # norms: from norm_layers


class FeedForward(nn.Module):
    """Position-wise FFN. ReLU/GELU: W2·act(W1·x). SwiGLU (Shazeer 2020): W2·(SiLU(W1·x) ⊙ W3·x).

    SiLU(z) = z·σ(z) (Swish with β = 1), not a bare sigmoid: a sigmoid gate alone is GLU
    (Dauphin et al. 2017), a different variant that notes often confuse with SwiGLU.
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.activation = cfg.activation
        self.w1 = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias)
        gated = cfg.activation in ("swiglu", "geglu")  # GeGLU (Gemma): the same gate with GELU_tanh for SiLU
        self.w3 = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias) if gated else None
        self.w2 = nn.Linear(cfg.d_ff, cfg.d_model, bias=cfg.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """In bfloat16 mode (precision.MixedLinear) the hidden activations stay bfloat16 between W1/W3 and W2, as in
        transformers' bfloat16 (they are rounded to bfloat16 for W2 anyway, and no page draws them); float32 else."""
        x = precision.matmul_input(x, self.w1)  # bfloat16 mode: cast once for w1 and w3
        h = precision.product(self.w1, x)  # (B, T, d_ff)
        if self.activation == "relu":
            h = F.relu(h)
        elif self.activation == "gelu":
            h = F.gelu(h)  # exact erf form (Hendrycks & Gimpel 2016)
        elif self.activation == "gelu_tanh":
            h = F.gelu(h, approximate="tanh")  # GPT-2's "gelu_new": the paper's tanh approximation
        elif self.activation == "silu":
            h = F.silu(h)  # Marian's "swish": z·σ(z) in a plain two-matrix FFN, no gate
        elif self.activation == "geglu":
            h = F.gelu(h, approximate="tanh") * precision.product(self.w3, x)  # Gemma (Shazeer 2020, GEGLU)
        else:
            h = F.silu(h) * precision.product(self.w3, x)
        return self.w2(h)  # (B, T, d), float32


class Block(nn.Module):
    """Self-attention, (cross-attention,) FFN, each with a residual connection and a norm.

    A decoder-only block has ONE self-attention (masked) and an FFN; only the encoder-decoder's
    decoder block adds a second attention, and that one is cross-attention over the encoder
    output (Vaswani et al. 2017, Fig. 1) — notes that give a GPT block two self-attentions are wrong.
    """

    def __init__(self, cfg: ModelConfig, cross: bool, layer: int = 0):
        super().__init__()
        self.pre = cfg.norm_position in ("pre", "sandwich")  # sandwich (Gemma): a pre-norm block with post norms
        self.post_sub = cfg.norm_position == "post_sub"  # OLMo 2: x + norm(f(x))
        sandwich = cfg.norm_position == "sandwich"  # Gemma 2/3: x + post(f(norm(x))), four norms a decoder block
        self.post_self = make_norm(cfg) if sandwich else None
        self.post_cross = make_norm(cfg) if sandwich and cross else None
        self.post_ffn = make_norm(cfg) if sandwich else None
        self.parallel = cfg.parallel_residual  # GPT-J / GPT-NeoX: attention and FFN side by side, on the same x
        self.residual_scale = cfg.residual_scale  # Granite: x + s·f(norm(x)) (pre-norm only; config.py checks)
        nope = cfg.nope_layers is not None and layer in cfg.nope_layers  # SmolLM3: this layer has no RoPE
        rope_base = cfg.layer_rope_base(layer)  # Gemma 3: its sliding layers turn at another θ
        self.self_attn = MultiHeadAttention(cfg, rope=cfg.positional == "rope" and not nope, rope_base=rope_base)
        # Qwen3.5: Gated DeltaNet in place of softmax attention (models/core/linear_attention.py)
        if cfg.is_linear(layer):
            self.self_attn = GatedDeltaNet(cfg)
        self.window = cfg.layer_window(layer)  # Gemma: a sliding layer narrows its self-attention mask to this window
        self.norm_self = make_norm(cfg)
        self.cross_attn = MultiHeadAttention(cfg, rope=False) if cross else None
        self.norm_cross = make_norm(cfg) if cross else None
        self.ffn = MoEFeedForward(cfg, FeedForward) if cfg.n_experts else FeedForward(cfg)
        self.norm_ffn = None if cfg.shared_block_norm else make_norm(cfg)  # Phi: both read norm_self

    def windowed(self, mask: torch.Tensor | None, positions: torch.Tensor, n_keys: int) -> torch.Tensor:
        """mask AND causal-within-the-window for queries at `positions` (T,) over keys 0..n_keys-1 (with a KV cache
        the queries are the last positions): key j is seen by query i when i - window < j <= i (Mistral's rule)."""
        q, k = positions[:, None], torch.arange(n_keys, device=positions.device)[None, :]
        near = (k <= q) & (k > q - self.window)  # (T, n_keys)
        return near if mask is None else mask & near

    def _sublayer_input(self, x, norm, post=None):
        """What _sublayer's f reads: norm(x), or x itself in a post-norm or OLMo 2 block."""
        return x if post is None and (self.post_sub or not self.pre) else norm(x)

    def _sublayer(self, x, norm, fn, post=None):
        """Pre-norm: x + f(norm(x)) (GPT-2, Llama). Post-norm: norm(x + f(x)) (Vaswani, BERT).
        post_sub: x + norm(f(x)) (OLMo 2: the stream itself is never normalised, only what is added to it).
        sandwich: x + post(f(norm(x))) (Gemma 2/3: post is the sublayer's own second norm)."""
        if post is not None:
            return x + post(fn(norm(x)))
        if self.post_sub:
            return x + norm(fn(x))
        if self.residual_scale is not None:  # Granite's residual_multiplier on what the sublayer adds
            return x + fn(norm(x)) * self.residual_scale
        return x + fn(norm(x)) if self.pre else norm(x + fn(x))

    def forward(
        self, x, mask, scale, positions, memory=None, cross_mask=None, past=None, ablate=None, bias=None,
        need_weights=True, upto=None, into=None, head=None,
    ):  # fmt: skip
        """x: (B, T, d). Returns the new x and a record of weights, scores and the (k, v) cache (and, in an
        MoE block, rec["moe"]: the models.core.moe.Routing).
        ablate = {head: "zero" | "uniform"} knocks heads out of the self-attention (not cross-attention).
        bias: (H, Tq, Tk) added to the self-attention scores (T5's relative position bias; never cross-attention).
        need_weights=False: the record's weights and scores are None (a long trace, models/core/long_trace.py).
        upto="self" | "cross": stop once that attention's record is made (a long trace recomputing one layer's
        weights from the layer's input; x is then not the block's output).
        into: {"self" | "cross": (scores or None, weights)} tensors the attentions write into (attention()'s into).
        head (with upto="self"): the record holds that self-attention head's weights and scores only, [B, 1, T, T].
        rec["cross_present"]: cross-attention's (k, v) of the memory (the trace's value norms read its v)."""
        rec = {}
        if self.window is not None:  # a sliding layer (Gemma): the given mask AND the last `window` positions
            mask = self.windowed(mask, positions, x.shape[1] + (0 if past is None else past[0].shape[2]))
            rec.update(self_mask=mask)

        def self_attention(h):
            if isinstance(self.self_attn, GatedDeltaNet):  # rec["linear"]: q, k, g, β for its implied attention
                out, delta, present = self.self_attn(h, past, ablate)
                rec.update(linear=delta, present=present)
                return out
            sink = None if into is None else into.get("self")
            only = dict(need_output=False, head=head) if upto == "self" else {}  # a long trace's recompute
            args = (h, h, mask, scale, positions, past, ablate, bias, need_weights, sink)
            out, w, s, present = self.self_attn(*args, **only)
            rec.update(self_weights=w, self_scores=s, present=present)
            return out

        def cross_attention(h):
            sink = None if into is None else into.get("cross")
            out, w, s, kv = self.cross_attn(h, memory, cross_mask, scale, need_weights=need_weights, into=sink)
            rec.update(cross_weights=w, cross_scores=s, cross_present=kv)
            return out

        def moe(h):
            out, routing = self.ffn(h)
            rec.update(moe=routing)  # router probabilities, choices and load-balancing loss
            return out

        ffn = moe if isinstance(self.ffn, MoEFeedForward) else self.ffn
        if self.parallel:  # x + attn(norm_self(x)) + ffn(norm_ffn(x)): two norms of the same x (GPT-NeoX, Pythia)
            h = self.norm_self(x)  # Phi (shared_block_norm): this one norm feeds the FFN too
            if upto is not None:  # one attention's record only
                self_attention(h)
                return x, rec
            return x + self_attention(h) + ffn(h if self.norm_ffn is None else self.norm_ffn(x)), rec
        if upto == "self":  # its record only: the attention's output is not computed
            self_attention(self._sublayer_input(x, self.norm_self, self.post_self))
            return x, rec
        x = self._sublayer(x, self.norm_self, self_attention, self.post_self)
        if self.cross_attn is not None:
            x = self._sublayer(x, self.norm_cross, cross_attention, self.post_cross)
        if upto is not None:
            return x, rec
        x = self._sublayer(x, self.norm_ffn, ffn, self.post_ffn)
        return x, rec
