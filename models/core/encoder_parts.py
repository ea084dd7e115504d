"""What ALBERT, DistilBERT and ELECTRA add to the one Transformer (models/core/transformer.py builds them from here).

- A layer stack whose blocks are ONE module (ALBERT, Lan et al. 2020, §3.1 cross-layer parameter sharing):
  nn.ModuleList holds the same Block n_layers times, so the forward, the trace and the KV cache still see
  n_layers layers, while parameters() (which skips repeats) counts the weights once: ALBERT-base's ≈ 11.7M.
- The output head: a vocabulary head (with BERT's MLM transform, mapping to the embedding width E when that
  differs from d), or ELECTRA's discriminator (Clark et al. 2020): dense d -> d, activation, dense d -> 1, one
  logit per token that it was replaced (sigmoid: the probability).
"""

from __future__ import annotations

from collections.abc import Callable

from torch import nn

from ..config import ModelConfig

MODULES = {"gelu": lambda: nn.GELU(), "gelu_tanh": lambda: nn.GELU(approximate="tanh"), "relu": nn.ReLU,
           "silu": nn.SiLU}  # fmt: skip


def activation_module(name: str) -> nn.Module:
    """The activation as a module (gelu is the exact erf form; gelu_tanh GPT-2's "gelu_new")."""
    if name not in MODULES:
        raise ValueError(f"no single-input activation {name!r} (known: {', '.join(MODULES)})")
    return MODULES[name]()


def layer_stack(cfg: ModelConfig, make: Callable[[int], nn.Module]) -> nn.ModuleList:
    """n_layers blocks make(i); with shared_layers the one block make(0), n_layers times."""
    if cfg.shared_layers:
        return nn.ModuleList([make(0)] * cfg.n_layers)
    return nn.ModuleList(make(i) for i in range(cfg.n_layers))


def output_head(cfg: ModelConfig) -> tuple[nn.Module | None, nn.Linear]:
    """(the transform before the output matrix or None, the output matrix). The MLM transform is
    dense d -> E, activation, LayerNorm(E) (E = embedding_size, else d), before [V, E] (Devlin et al.; ALBERT and
    ELECTRA's generator in E); the detector's is dense d -> d, activation, before [1, d]."""
    d = cfg.d_model
    if cfg.detector_head:
        return nn.Sequential(nn.Linear(d, d), activation_module(cfg.activation)), nn.Linear(d, 1, bias=cfg.head_bias)
    if not cfg.mlm_head:
        return None, nn.Linear(d, cfg.vocab_size, bias=cfg.head_bias)
    e = cfg.embedding_size or d
    act = activation_module(cfg.mlm_activation or "gelu")
    mlm = nn.Sequential(nn.Linear(d, e), act, nn.LayerNorm(e, eps=cfg.norm_eps or 1e-5))
    return mlm, nn.Linear(e, cfg.vocab_size, bias=cfg.head_bias)
