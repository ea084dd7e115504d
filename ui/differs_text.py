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


def head_names(layers: list[int], n_heads: int) -> list[str]:
    """Every head of these layers, layer by layer: L1H1, L1H2, …"""
    return [head_name(layer, h) for layer in layers for h in range(n_heads)]


def best_pairs(pairs: list[tuple[int, int, int, int, float]], k: int) -> str:
    """ "A L1H2 ↔ B L3H4 (0.91), …": the k matched pairs (layer and head of A, of B, similarity) most alike."""
    best = sorted(pairs, key=lambda p: -p[4])[:k]
    return ", ".join(f"A {head_name(la, ha)} ↔ B {head_name(lb, hb)} ({s:.2f})" for la, ha, lb, hb, s in best)


def cka_reading(cka: np.ndarray, base: float) -> dict[str, object]:
    """What the CKA map's sentence says: how many layer pairs are above the shuffled baseline, of how many, and the
    most alike pair with its value (layers named as layer_names does)."""
    i, j = np.unravel_index(int(np.argmax(cka)), cka.shape)
    la, lb = layer_names(cka.shape[0])[i], layer_names(cka.shape[1])[j]
    return dict(above=int((cka > base).sum()), total=cka.size, best=f"{cka[i, j]:.3f}", la=la, lb=lb)


def role_summary(roles: np.ndarray, role_names: dict[str, str]) -> str:
    """ "induction 2 (L2H1, L2H4) · previous token 3 (…)": every role some head has, how many, where."""
    out = []
    for r in ROLES:
        where = [head_name(int(la), int(h)) for la, h in zip(*np.nonzero(roles == r), strict=True)]
        if where:
            shown = ", ".join(where[:WHERE_MAX]) + (", …" if len(where) > WHERE_MAX else "")
            out.append(f"{role_names[r]} **{len(where)}** ({shown})")
    return " · ".join(out) or t("explorer_differs.no_roles")
