"""A mixture-of-experts feed-forward layer: a linear router sends each token to k of n expert FFNs.

Router: p = softmax(x · W_r) over the n experts; each token goes to its k most probable experts.
Gate weights: with k ≥ 2 the chosen probabilities are renormalised to sum to 1, which is Mixtral's
softmax over the top-k logits (Jiang et al. 2024, §2.1). With k = 1 the gate is the router probability
p_i itself, not renormalised, as in the Switch Transformer (Fedus et al. 2021, §2.1): renormalising one
weight would make it 1 and leave the router no gradient from the language-model loss.

Load-balancing loss (Fedus et al. 2021, §2.2, eq. 4): aux = n · Σ_i f_i · P_i, with f_i the fraction of
the token→expert assignments that go to expert i (T·k of them; for k = 1 exactly Switch's fraction of
tokens) and P_i the mean router probability of expert i. It is 1 when both are uniform (1/n each) and
grows when the router prefers a few experts. transformers' `load_balancing_loss_func` counts each token's k
choices against the T tokens (its f_i sum to k), so it reports k × this value for one layer (k at an even load), and
it pools every layer's tokens before the product (tests/models/test_router_loss_hf.py).
The Mixtral paper describes no auxiliary loss; its published Hugging Face config trains with transformers' loss
at a coefficient of 0.02 (`router_aux_loss_coef`).

The forward pass returns what it routed instead of storing it: one module is shared by every session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from ..config import ModelConfig
from . import readonly


@dataclass(frozen=True)
class Routing:
    """What the router did for one batch: probs (B, T, n), chosen experts (B, T, k), their gate weights
    (B, T, k), and the load-balancing loss (a scalar tensor, differentiable)."""

    probs: torch.Tensor
    chosen: torch.Tensor
    gates: torch.Tensor
    aux: torch.Tensor


def gate_weights(probs: torch.Tensor, k: int, renormalize: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """(top-k experts, their gate weights) per token: renormalised over the k for k ≥ 2 (Mixtral),
    the raw probability for k = 1 (Switch) unless renormalize (Mixtral's and Granite's code renormalise at
    every k: a gate of 1 at k = 1)."""
    top_p, top_i = probs.topk(k, dim=-1)
    if k > 1 or renormalize:
        top_p = top_p / top_p.sum(-1, keepdim=True)
    return top_i, top_p


def load_fractions(chosen: torch.Tensor, n_experts: int) -> torch.Tensor:
    """f_i: the share of all token→expert assignments that went to expert i; sums to 1."""
    counts = F.one_hot(chosen.reshape(-1), n_experts).sum(0).to(torch.float32)
    return counts / max(1, chosen.numel())


def balance_loss(probs: torch.Tensor, chosen: torch.Tensor) -> torch.Tensor:
    """n · Σ_i f_i · P_i over every token of the batch (f_i carries no gradient; P_i does)."""
    n = probs.shape[-1]
    f = load_fractions(chosen, n)
    p_mean = probs.reshape(-1, n).mean(0)
    return n * (f * p_mean).sum()


class MoEFeedForward(nn.Module):
    """n experts, each a FeedForward of the config's activation and width, and a bias-free linear router."""

    def __init__(self, cfg: ModelConfig, expert: Callable[[ModelConfig], nn.Module]):
        """expert(cfg) builds one expert: blocks.FeedForward (passed in, as blocks imports this module)."""
        super().__init__()
        self.k, self.renormalize = cfg.experts_top_k, cfg.moe_renormalize
        self.router = nn.Linear(cfg.d_model, cfg.n_experts, bias=False)
        self.experts = nn.ModuleList(expert(cfg) for _ in range(cfg.n_experts))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, Routing]:
        """x: (B, T, d) -> (Σ over the chosen experts of gate · expert(x), the Routing)."""
        probs = F.softmax(self.router(x), dim=-1)  # (B, T, n)
        chosen, gates = gate_weights(probs, self.k, self.renormalize)  # (B, T, k) each
        flat, out = x.reshape(-1, x.shape[-1]), torch.zeros_like(x).reshape(-1, x.shape[-1])
        # every (token, slot) assignment sorted by expert once (stable: a token's slots stay in expert order), so
        # each expert reads one contiguous run of rows; one index_add_ sums each token's k gated outputs
        order = torch.argsort(chosen.reshape(-1), stable=True)
        counts = torch.bincount(chosen.reshape(-1), minlength=len(self.experts)).tolist()
        rows = order // self.k  # the token of each sorted assignment
        picked, gate = flat[rows], gates.reshape(-1)[order, None]
        outs = [expert(run) for expert, run in zip(self.experts, picked.split(counts), strict=True) if run.shape[0]]
        if outs:  # (an empty batch routes nothing)
            out.index_add_(0, rows, torch.cat(outs).mul_(gate))
        return out.reshape(x.shape), Routing(probs, chosen, gates, balance_loss(probs, chosen))


def route(probs: np.ndarray, k: int, renormalize: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Router probabilities [..., n] as a Trace holds them -> (chosen experts, gate weights), each [..., k],
    by the same rule as the forward pass."""
    chosen, gates = gate_weights(readonly.tensor(np.asarray(probs, dtype=np.float32)), k, renormalize)
    return chosen.numpy(), gates.numpy()


def balance_of(probs: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """(f [n]: load per expert, summing to 1; n · Σ f_i · P_i) of router probabilities [T, n] of one layer."""
    p = readonly.tensor(np.asarray(probs, dtype=np.float32))
    chosen, _ = gate_weights(p, k)
    return load_fractions(chosen, p.shape[-1]).numpy(), float(balance_loss(p, chosen))


def aux_loss(records: list[dict]) -> torch.Tensor:
    """The mean load-balancing loss over the MoE layers of a forward pass's records (0 without any)."""
    losses = [r["moe"].aux for r in records if "moe" in r]
    return torch.stack(losses).mean() if losses else torch.zeros(())
