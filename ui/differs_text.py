"""The words of "What differs" (lessons/explorer_differs_parts.py): how a layer, a head and a model's output head are
named, and the one-line summary of the field guide's roles. Pure functions of a model's config or of arrays."""

from __future__ import annotations

import numpy as np

import models
from models.inspection.heads import ROLES

from .i18n import t

WHERE_MAX = 6  # heads of one role named in words before "…"


def head_kind(model: models.LiveModel) -> str:
    """What the model's output head predicts, as the messages name it: "decoder" (the next token), "encoder" (masked
    tokens), "detector" (ELECTRA's discriminator: which tokens were replaced), "encoder-decoder" (the output's next)."""
    return "detector" if model.config.detector_head else model.config.arch


def has_linear_layers(model: models.LiveModel) -> bool:
    """Qwen3.5: Gated DeltaNet layers beside softmax ones (no attention pattern of their own)."""
    return "linear_attention" in (model.config.layer_types or ())


def layer_names(n: int) -> list[str]:
    """Residual-stream rows: the embeddings (layer 0), then after each block."""
    return [t("lens.embedding")] + [f"{t('lbl.layer')} {i}" for i in range(1, n)]


def head_name(layer: int, head: int) -> str:
    return f"L{layer + 1}H{head + 1}"


def role_summary(roles: np.ndarray, role_names: dict[str, str]) -> str:
    """ "induction 2 (L2H1, L2H4) · previous token 3 (…)": every role some head has, how many, where."""
    out = []
    for r in ROLES:
        where = [head_name(int(la), int(h)) for la, h in zip(*np.nonzero(roles == r), strict=True)]
        if where:
            shown = ", ".join(where[:WHERE_MAX]) + (", …" if len(where) > WHERE_MAX else "")
            out.append(f"{role_names[r]} **{len(where)}** ({shown})")
    return " · ".join(out) or t("explorer_differs.no_roles")
