"""The factor s on q·k that a configuration uses, and why it is that number (issue 41).

Vaswani et al. 2017 (§3.2.1) divide q·k by √d_k, and ModelConfig.scale is 1/√d_head unless attn_scale overrides it.
The published families that override it each have their own reason, and a page that prints "1/√d_k = s" for them
is wrong:
- T5 (positional "relative", Raffel et al. 2020) has no scale at all (s = 1: its initialisation folds 1/√d_k into
  W_Q) and adds a learned relative-position bias to q·k instead;
- Granite MoE's attention_multiplier replaces 1/√d_k (granite-3.1: 1/64 = 1/d_k, not 1/√64);
- Gemma 2 and 3 take query_pre_attn_scalar^-½ (which need not be d_head), and Gemma 2 then soft-caps the scores,
  c·tanh(s·q·k / c), before the mask.
The Architecture lab's toy configs may set s = 1 or s = 1/d_head (μP) by hand.

Pure functions of a ModelConfig: the pages print `scale_reason` and draw the formula `score_form` names.
"""

from __future__ import annotations

import math

from ..config import ModelConfig

# why s is what it is: the family's rule, the lab's choices, or a factor set in the config by hand
REASONS = ("default", "t5", "granite", "gemma", "one", "inverse", "config")
# what is added to or done with s·q·k before the softmax: nothing, T5's relative bias b(j − i), Gemma 2's soft cap
FORMS = ("scaled", "relative", "softcap")


def scale_reason(cfg: ModelConfig) -> tuple[float, str]:
    """(s, the reason key of REASONS) of cfg: the factor on q·k that the model uses, and why."""
    s = cfg.scale
    if cfg.positional == "relative":
        return s, "t5"  # attn_scale=1.0 (models/published/families/t5.py)
    if cfg.attn_scale is None:
        return s, "default"  # 1/√d_head
    if cfg.norm_position == "sandwich":
        return s, "gemma"  # query_pre_attn_scalar^-½ (models/published/families/gemma.py)
    if cfg.n_experts and cfg.moe_renormalize:
        # attention_multiplier (models/published/families/granite.py; Mixtral leaves attn_scale None)
        return s, "granite"
    if s == 1.0:
        return s, "one"
    if math.isclose(s, 1.0 / cfg.d_head, rel_tol=1e-9):
        return s, "inverse"
    return s, "config"


def score_form(cfg: ModelConfig) -> str:
    """Which of FORMS the self-attention scores take: s·q·k (+ mask), T5's q·k + b(j − i) (no scale), or Gemma 2's
    c·tanh(s·q·k / c) with c = cfg.attn_softcap."""
    if cfg.positional == "relative":
        return "relative"
    if cfg.attn_softcap is not None:
        return "softcap"
    return "scaled"


def query_pre_attn_scalar(cfg: ModelConfig) -> float:
    """Gemma's query_pre_attn_scalar, read back from its scale s = scalar^-½ (1 / s²)."""
    return 1.0 / cfg.scale**2
