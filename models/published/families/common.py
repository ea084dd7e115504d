"""What every family's mapping shares: the activation names, RoPE settings, the token cap, and the one
layout change RoPE needs (rotate-half -> interleaved pairs).

Llama-family RoPE (and GPT-NeoX's) pairs dimension i with i + r/2 ("rotate half", r the rotated width);
ours pairs 2i with 2i+1 (RoFormer's own layout). The rows of the published q and k projections are permuted
so that their dimension i lands on our 2i and i + r/2 on 2i + 1. q·k is unchanged by applying one
permutation to both q and k, so scores and attention are exactly the published model's, and one
rotation function serves every model in the app (instead of a second RoPE code path).
"""

from __future__ import annotations

import os

import torch

# Real models read at most $ATTENTION_LAB_MAX_TOKENS tokens (default 2,048: a few paragraphs), never more than their
# own context; the toy models keep the length they were trained at. Past long_trace.LAZY_ATTENTION_BYTES a trace
# computes a layer's attention when it is read (a 2,048-token trace of a 28-layer model would be 7.5 GB otherwise).
MAX_TOKENS_ENV = "ATTENTION_LAB_MAX_TOKENS"
DEFAULT_MAX_TOKENS = 2048


def max_tokens() -> int:
    """$ATTENTION_LAB_MAX_TOKENS (read when a model is loaded), else 2,048; a value that is not a whole number >= 8
    falls back to the default."""
    try:
        value = int(os.environ.get(MAX_TOKENS_ENV, DEFAULT_MAX_TOKENS))
    except ValueError:
        return DEFAULT_MAX_TOKENS
    return value if value >= 8 else DEFAULT_MAX_TOKENS


# what the family mappings cap with (models/published/checkpoints.py caps every published model again with
# max_tokens() at load)
MAX_TOKENS = max_tokens()
ACTIVATIONS = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu", "relu": "relu",
               "swish": "silu", "silu": "silu", "gelu_fast": "gelu_tanh"}  # fmt: skip


class UnsupportedModel(ValueError):
    """A config this app cannot map onto its Transformer; the message says which setting and why."""


def _act(name: str) -> str:
    if name not in ACTIVATIONS:
        raise UnsupportedModel(f"activation {name!r} is not supported (known: {', '.join(ACTIVATIONS)})")
    return ACTIVATIONS[name]


def rope_settings(c: dict) -> tuple[float, tuple[float, float, float, int] | None]:
    """(θ base, Llama 3.1 scaling or None) from either config layout."""
    params = c.get("rope_parameters") or {}
    scaling = c.get("rope_scaling") or params
    theta = float(params.get("rope_theta", c.get("rope_theta", 10000.0)))
    kind = scaling.get("rope_type", scaling.get("type", "default")) if scaling else "default"
    if kind == "default":
        return theta, None
    if kind == "llama3":
        return theta, (
            float(scaling["factor"]),
            float(scaling["low_freq_factor"]),
            float(scaling["high_freq_factor"]),
            int(scaling["original_max_position_embeddings"]),
        )
    raise UnsupportedModel(f"RoPE scaling {kind!r} is not supported (default and llama3 are)")


def half_to_interleaved(t: torch.Tensor, d_head: int, rotary: int | None = None) -> torch.Tensor:
    """Permute the output rows of a q or k projection (weight [heads·dh, d] or bias [heads·dh]), or a per-head
    vector [dh] (Qwen3's q_norm/k_norm gains), from rotate-half pairs (i, i + r/2) to interleaved pairs
    (2i, 2i + 1) within the first r = rotary dims of each head (all dh by default); the rest stay in place.

    A per-head norm's gain may be permuted with the rows: the norm's statistics run over the whole head (the
    same set of numbers in any order) and its gain scales each dimension, so it moves with its dimension."""
    r = d_head if rotary is None else rotary
    half = r // 2
    dev = t.device  # a GPU load permutes the rows where they are
    pairs = torch.stack([torch.arange(half, device=dev), torch.arange(half, device=dev) + half], dim=1).reshape(-1)
    perm = torch.cat([pairs, torch.arange(r, d_head, device=dev)])  # a partial rotary's pass-through dims stay
    heads = t.shape[0] // d_head
    return t.reshape(heads, d_head, *t.shape[1:])[:, perm].reshape(t.shape)
