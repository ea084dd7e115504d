"""SmolLM3 (SmolLM3ForCausalLM): config.json -> ModelConfig; its tensors are Llama's (llama.llama_rename).

Llama with NoPE layers: `no_rope_layers` holds one flag per layer, 1 = RoPE, 0 = no positional signal at all
in that layer's attention (every 4th layer in SmolLM3-3B). When the list is absent transformers derives it from
`no_rope_layer_interval`: layer i uses RoPE unless (i + 1) % interval == 0. Ours: ModelConfig.nope_layers, the
indices of the 0s. The q/k rows of a NoPE layer are permuted like the others (harmless: q·k is unchanged by one
permutation of both). Its RoPE θ defaults to 2,000,000 (transformers' SmolLM3Config.default_theta).
"""

from __future__ import annotations

import dataclasses

from ...config import ModelConfig
from .common import UnsupportedModel
from .llama import llama_config

DEFAULT_THETA = 2_000_000.0
DEFAULT_INTERVAL = 4


def smollm3_config(c: dict) -> ModelConfig:
    if c.get("use_sliding_window"):
        raise UnsupportedModel("SmolLM3 with use_sliding_window=true is not supported")
    other = sorted(set(c.get("layer_types") or []) - {"full_attention"})
    if other:
        raise UnsupportedModel(f"SmolLM3 layer_types {other} are not supported: every layer must be full_attention")
    n = c["num_hidden_layers"]
    flags = c.get("no_rope_layers")
    if flags is None:
        interval = c.get("no_rope_layer_interval", DEFAULT_INTERVAL)
        flags = [int((i + 1) % interval != 0) for i in range(n)]
    if len(flags) < n:
        raise UnsupportedModel(f"no_rope_layers has {len(flags)} entries for {n} layers")
    params = c.get("rope_parameters") or {}
    if "rope_theta" not in params and "rope_theta" not in c:
        c = {**c, "rope_theta": DEFAULT_THETA}
    cfg = llama_config({**c, "model_type": "llama"})  # Llama's switches (biases, GQA, tied head, scaling)
    nope = tuple(i for i in range(n) if not flags[i])
    return dataclasses.replace(cfg, nope_layers=nope or None)
