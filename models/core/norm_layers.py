"""The norms a Transformer is built from: LayerNorm (torch's) and RMSNorm, chosen by ModelConfig.norm.

Their own module because both the blocks (one norm per sublayer) and the attention (Qwen3's per-head q/k norm,
over d_head instead of d_model) build them, and blocks.py imports attention.py.
"""

from __future__ import annotations

import torch
from torch import nn

from ..config import ModelConfig

# Epsilons inside the norms' square roots: PyTorch's LayerNorm default (1e-5) and Llama's
# RMSNorm value (1e-6, Touvron et al. 2023 code). BERT uses 1e-12.
LAYERNORM_EPS = 1e-5
RMSNORM_EPS = 1e-6


class RMSNorm(nn.Module):
    """x / sqrt(mean(x²) + eps) · g (Zhang & Sennrich 2019): LayerNorm without centring or bias."""

    def __init__(self, d: int, eps: float = RMSNORM_EPS):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def extra_repr(self) -> str:
        return f"({self.weight.shape[0]},), eps={self.eps}"  # as nn.LayerNorm prints itself

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def make_norm(cfg: ModelConfig, d: int | None = None) -> nn.Module:
    """The config's norm over the last d dimensions (d_model unless given: qk_norm normalises over d_head)."""
    d = cfg.d_model if d is None else d
    if cfg.norm == "layernorm":
        return nn.LayerNorm(d, eps=cfg.norm_eps or LAYERNORM_EPS)
    return RMSNorm(d, cfg.norm_eps or RMSNORM_EPS)
