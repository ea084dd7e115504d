"""Feed-forward networks and the one Transformer block all three architectures stack (norms: norm_layers.py)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .attention import MultiHeadAttention
from .config import ModelConfig
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
        self.w3 = nn.Linear(cfg.d_model, cfg.d_ff, bias=cfg.bias) if cfg.activation == "swiglu" else None
        self.w2 = nn.Linear(cfg.d_ff, cfg.d_model, bias=cfg.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.w1(x)  # (B, T, d_ff)
        if self.activation == "relu":
            h = F.relu(h)
        elif self.activation == "gelu":
            h = F.gelu(h)  # exact erf form (Hendrycks & Gimpel 2016)
        elif self.activation == "gelu_tanh":
            h = F.gelu(h, approximate="tanh")  # GPT-2's "gelu_new": the paper's tanh approximation
        elif self.activation == "silu":
            h = F.silu(h)  # Marian's "swish": z·σ(z) in a plain two-matrix FFN, no gate
        else:
            h = F.silu(h) * self.w3(x)
        return self.w2(h)  # (B, T, d)


class Block(nn.Module):
    """Self-attention, (cross-attention,) FFN, each with a residual connection and a norm.

    A decoder-only block has ONE self-attention (masked) and an FFN; only the encoder-decoder's
    decoder block adds a second attention, and that one is cross-attention over the encoder
    output (Vaswani et al. 2017, Fig. 1) — notes that give a GPT block two self-attentions are wrong.
    """

    def __init__(self, cfg: ModelConfig, cross: bool):
        super().__init__()
        self.pre = cfg.norm_position == "pre"
        self.parallel = cfg.parallel_residual  # GPT-J / GPT-NeoX: attention and FFN side by side, on the same x
        self.self_attn = MultiHeadAttention(cfg, rope=cfg.positional == "rope")
        self.norm_self = make_norm(cfg)
        self.cross_attn = MultiHeadAttention(cfg, rope=False) if cross else None
        self.norm_cross = make_norm(cfg) if cross else None
        self.ffn = MoEFeedForward(cfg, FeedForward) if cfg.n_experts else FeedForward(cfg)
        self.norm_ffn = make_norm(cfg)

    def _sublayer(self, x, norm, fn):
        """Pre-norm: x + f(norm(x)) (GPT-2, Llama). Post-norm: norm(x + f(x)) (Vaswani, BERT)."""
        return x + fn(norm(x)) if self.pre else norm(x + fn(x))

    def forward(self, x, mask, scale, positions, memory=None, cross_mask=None, past=None, ablate=None):
        """x: (B, T, d). Returns the new x and a record of weights, scores and the (k, v) cache (and, in an
        MoE block, rec["moe"]: the models.moe.Routing).
        ablate = {head: "zero" | "uniform"} knocks heads out of the self-attention (not cross-attention)."""
        rec = {}

        def self_attention(h):
            out, w, s, present = self.self_attn(h, h, mask, scale, positions, past, ablate)
            rec.update(self_weights=w, self_scores=s, present=present)
            return out

        def cross_attention(h):
            out, w, s, _ = self.cross_attn(h, memory, cross_mask, scale)
            rec.update(cross_weights=w, cross_scores=s)
            return out

        def moe(h):
            out, routing = self.ffn(h)
            rec.update(moe=routing)  # router probabilities, choices and load-balancing loss
            return out

        ffn = moe if isinstance(self.ffn, MoEFeedForward) else self.ffn
        if self.parallel:  # x + attn(norm_self(x)) + ffn(norm_ffn(x)): two norms of the same x (GPT-NeoX, Pythia)
            return x + self_attention(self.norm_self(x)) + ffn(self.norm_ffn(x)), rec
        x = self._sublayer(x, self.norm_self, self_attention)
        if self.cross_attn is not None:
            x = self._sublayer(x, self.norm_cross, cross_attention)
        x = self._sublayer(x, self.norm_ffn, ffn)
        return x, rec
