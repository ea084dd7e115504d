"""Next-token choice: greedy, or sampling with temperature, top-k and top-p (nucleus).

This temperature divides the OUTPUT logits before the softmax over the vocabulary; it is not the
attention scale 1/sqrt(d_k), which divides q·k inside every attention layer.
"""

from __future__ import annotations

import torch


def next_token_probs(
    logits: torch.Tensor, temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None
) -> torch.Tensor:
    """softmax(logits / T), then keep the top_k most likely and/or the smallest set whose mass
    reaches top_p (Holtzman et al. 2020), renormalised. logits: (V,) -> float64 (V,), sums to 1."""
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    probs = torch.softmax(logits.to(torch.float64) / temperature, dim=-1)
    keep = torch.ones_like(probs, dtype=torch.bool)
    order = torch.argsort(probs, descending=True)
    if top_k is not None and top_k > 0:
        keep[order[top_k:]] = False
    if top_p is not None and 0 < top_p < 1:
        sorted_p = probs[order]
        before = torch.cumsum(sorted_p, 0) - sorted_p  # mass of the tokens ranked above each token
        keep[order[before >= top_p]] = False  # the most likely token is always kept
    probs = torch.where(keep, probs, torch.zeros_like(probs))
    return probs / probs.sum()


def choose(probs: torch.Tensor, greedy: bool, generator: torch.Generator | None) -> int:
    if greedy:
        return int(torch.argmax(probs))
    return int(torch.multinomial(probs, 1, generator=generator))
