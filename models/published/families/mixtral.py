"""Mixtral (Jiang et al. 2024): a Mistral-architecture decoder whose FFNs are mixtures of experts (models/core/moe.py).

Each block's `block_sparse_moe` holds a bias-free router (`gate`: [n_experts, d]) and n_experts SwiGLU FFNs
(`experts.j.w1` gate, `w3` up, `w2` down), stored one expert at a time as published: they map one to one onto
the toy MoE's modules. Mixtral's code renormalises the top-k router probabilities at every k (a gate of 1 at
k = 1), where the toy's k = 1 keeps Switch's raw probability: `moe_renormalize` says which.
"""

from __future__ import annotations

import dataclasses

import torch

from ...config import ModelConfig
from .common import UnsupportedModel
from .llama import llama_config, llama_rename


def mixtral_config(c: dict) -> ModelConfig:
    n, k = int(c.get("num_local_experts", 8)), int(c.get("num_experts_per_tok", 2))
    if not 1 <= k <= n:
        raise UnsupportedModel(f"num_experts_per_tok={k} must be between 1 and num_local_experts={n}")
    dense = llama_config({**c, "model_type": "mistral"})  # attention, norms and RoPE as Mistral
    return dataclasses.replace(dense, n_experts=n, experts_top_k=k, moe_renormalize=True,
                               moe_aux_weight=float(c.get("router_aux_loss_coef", 0.02)))  # fmt: skip


def mixtral_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    parts = name.split(".")
    if parts[:2] == ["model", "layers"] and len(parts) > 4 and parts[3] == "block_sparse_moe":
        i, rest = parts[2], parts[4:]
        if rest == ["gate", "weight"]:
            return [(f"decoder.{i}.ffn.router.weight", t)]
        if rest[0] == "experts" and rest[2] in ("w1", "w2", "w3") and rest[3] == "weight":
            return [(f"decoder.{i}.ffn.experts.{rest[1]}.{rest[2]}.weight", t)]
        return []
    return llama_rename(name, t, cfg)
