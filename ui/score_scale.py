"""The scale on q·k as the pages print it, "scale s = 0.1250 (1/√64)", with the family's own reason, and the
attention formula as the model computes it (models/core/score_scale.py says which rule a config follows)."""

from __future__ import annotations

import math

from models.config import ModelConfig
from models.core.score_scale import query_pre_attn_scalar, scale_reason, score_form

from .i18n import t

SCALED = r"\mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}+M\right)V"
LATEX = {
    "scaled": r"\mathrm{softmax}\!\left(s\,QK^{\top}+M\right)V",
    "relative": r"\mathrm{softmax}\!\left(QK^{\top}+B+M\right)V,\qquad B_{ij}=b_{h}\big(\mathrm{bucket}(j-i)\big)",
    "softcap": r"\mathrm{softmax}\!\left(c\,\tanh\!\left(\frac{s\,QK^{\top}}{c}\right)+M\right)V,\qquad c={cap}",
}


def scale_text(cfg: ModelConfig) -> str:
    """ "scale s = 0.1250 (1/√64)", "scale s = 1.0000 (T5: no scaling; …)", in the page's language."""
    s, reason = scale_reason(cfg)
    d = cfg.d_head
    why = t(f"common.scale.{reason}", d=d, sqrt=f"{1 / math.sqrt(d):.4f}", q=f"{query_pre_attn_scalar(cfg):.6g}")
    return t("common.scale", s=f"{s:.4f}", why=why)


def form(cfg: ModelConfig, cross: bool = False) -> str:
    """The form of models.core.score_scale.FORMS the drawn scores take; cross-attention has no relative bias (T5)."""
    kind = score_form(cfg)
    return "scaled" if cross and kind == "relative" else kind


def formula(cfg: ModelConfig, cross: bool = False) -> str:
    """The LaTeX of the attention this model computes: Vaswani's 1/√d_k where that is the scale, else s·QKᵀ; T5's
    q·k + B with no scale; Gemma 2's soft cap c·tanh(s·QKᵀ / c)."""
    kind = form(cfg, cross)
    if kind == "scaled":
        return SCALED if scale_reason(cfg)[1] == "default" else LATEX["scaled"]
    return LATEX[kind].replace("{cap}", f"{cfg.attn_softcap:g}" if cfg.attn_softcap is not None else "")
