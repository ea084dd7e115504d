"""Granite MoE (IBM, GraniteMoeForCausalLM: granite-3.0/3.1-*-a*m, PowerMoE): a Llama-style decoder whose FFNs are
mixtures of experts (models/core/moe.py), with four scalar multipliers from its config.json.

- The router (`router.layer`: [n_experts, d], no bias) picks the top-k logits and softmaxes over those k: the same
  gates as the renormalised top-k of the softmax over all experts (softmax is monotone and shift-invariant), a gate
  of 1 at k = 1, so moe_renormalize as Mixtral. The router probabilities a Trace shows are softmax over all experts
  of those logits, the softmax transformers' load-balancing loss takes of them.
- Experts are stored stacked: `input_linear` [E, 2·I, d] with the gate rows first (SiLU(gate) ⊙ up), and
  `output_linear` [E, d, I]: split here into each expert's w1 (gate), w3 (up) and w2 (down).
- attention_multiplier is the factor on q·k (attn_scale), replacing 1/sqrt(d_head) (granite-3.1: 1/64 = 1/d_head);
  embedding_multiplier scales the token embeddings (no sqrt(d)); residual_multiplier scales each sublayer's output
  before the residual add; the logits are divided by logits_scaling.
"""

from __future__ import annotations

import dataclasses

import torch

from ...config import ModelConfig
from .common import UnsupportedModel
from .llama import llama_config, llama_rename


def _multiplier(c: dict, key: str) -> float | None:
    value = float(c.get(key, 1.0))
    return None if value == 1.0 else value  # 1: the quiet default, nothing scaled


def granite_moe_config(c: dict) -> ModelConfig:
    n, k = int(c.get("num_local_experts", 8)), int(c.get("num_experts_per_tok", 2))
    if not 1 <= k <= n:
        raise UnsupportedModel(f"num_experts_per_tok={k} must be between 1 and num_local_experts={n}")
    if c.get("attention_bias"):
        raise UnsupportedModel("Granite MoE with attention_bias=true (biases on q, k, v, o, none on the experts) is "
                               "not supported")  # fmt: skip
    dense = llama_config({**c, "model_type": "llama", "mlp_bias": False, "head_dim": None})  # attention, norms, RoPE
    return dataclasses.replace(
        dense, n_experts=n, experts_top_k=k, moe_renormalize=True,
        moe_aux_weight=float(c.get("router_aux_loss_coef", 0.001)),
        attn_scale=float(c.get("attention_multiplier", 1.0)),  # replaces 1/sqrt(d_head), even at 1.0
        embed_multiplier=_multiplier(c, "embedding_multiplier"), residual_scale=_multiplier(c, "residual_multiplier"),
        logits_divisor=_multiplier(c, "logits_scaling"),
    )  # fmt: skip


def granite_moe_rename(name: str, t: torch.Tensor, cfg: ModelConfig) -> list[tuple[str, torch.Tensor]]:
    parts = name.split(".")
    if parts[:2] == ["model", "layers"] and len(parts) > 4 and parts[3] == "block_sparse_moe":
        i, rest = parts[2], ".".join(parts[4:])
        ours = f"decoder.{i}.ffn"
        if rest in ("router.layer.weight", "router.weight"):  # as published; as transformers 5 names it in memory
            return [(f"{ours}.router.weight", t)]
        if rest in ("input_linear.weight", "experts.gate_up_proj"):  # [E, 2I, d]: gate rows, then up rows
            gate, up = t.chunk(2, dim=1)
            out = [(f"{ours}.experts.{e}.w1.weight", gate[e]) for e in range(t.shape[0])]
            return out + [(f"{ours}.experts.{e}.w3.weight", up[e]) for e in range(t.shape[0])]
        if rest in ("output_linear.weight", "experts.down_proj"):  # [E, d, I]
            return [(f"{ours}.experts.{e}.w2.weight", t[e]) for e in range(t.shape[0])]
        return []
    return llama_rename(name, t, cfg)
