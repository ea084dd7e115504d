"""Which position signal each layer of a model uses: RoPE at which θ, or none (NoPE), and its attention window.

SmolLM3 switches RoPE off in some layers (ModelConfig.nope_layers, every 4th in SmolLM3-3B); Gemma 3 turns its
sliding-window layers at θ = rope_local_base (10⁴) and its full-attention layers at rope_base (10⁶). Layers are
0-based here; pages show them 1-based.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..config import ModelConfig


@dataclass(frozen=True)
class LayerPosition:
    layer: int  # 0-based
    rope_base: float | None  # RoPE's θ in this layer; None: no positional signal in its attention (NoPE)
    window: int | None  # the sliding window it narrows its mask to; None: the model's mask (full)


def layer_positions(cfg: ModelConfig) -> list[LayerPosition]:
    """One entry per layer of a RoPE decoder: what models/core/blocks.py builds for that layer."""
    nope = set(cfg.nope_layers or ())
    return [
        LayerPosition(i, None if i in nope or cfg.positional != "rope" else cfg.layer_rope_base(i), cfg.layer_window(i))
        for i in range(cfg.n_layers)
    ]


def varies_by_layer(cfg: ModelConfig) -> bool:
    """Whether the position signal differs between layers (NoPE layers, or Gemma 3's two RoPE bases)."""
    return cfg.positional == "rope" and (bool(cfg.nope_layers) or cfg.rope_local_base is not None)


def nope_interval(cfg: ModelConfig) -> int | None:
    """k when the NoPE layers are exactly every k-th layer (layer i, 0-based, when (i + 1) % k == 0), else None."""
    nope = sorted(cfg.nope_layers or ())
    if not nope:
        return None
    k = nope[0] + 1
    return k if nope == [i for i in range(cfg.n_layers) if (i + 1) % k == 0] else None
