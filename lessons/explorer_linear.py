"""The Explorer for a model with Gated DeltaNet linear-attention layers (Qwen3.5): each layer's kind named, a softmax
layer's attention as usual, a linear layer's implied attention Ã (O = Ã·V, models/core/linear_attention.py) on a
diverging
scale, and one softmax head beside one linear-attention head of the same prompt.

Its trace keeps the softmax layers under attention["decoder.self"] and the linear ones under
attention["decoder.linear"] (each computed when first read), with their layer numbers in tr.layers."""

from __future__ import annotations

import numpy as np
import streamlit as st

import viz
from ui import controls, shell
from ui.i18n import t, viz_labels

KIND = {"full_attention": "softmax", "linear_attention": "linear"}


def layer_matrix(tr, layer: int) -> tuple[str, np.ndarray]:
    """(kind, [H, T, T]) of model layer `layer`: its softmax weights, or the linear layer's implied attention."""
    if layer in tr.layers["decoder.self"]:
        return "softmax", tr.attention["decoder.self"][tr.layers["decoder.self"].index(layer)]
    return "linear", tr.attention["decoder.linear"][tr.layers["decoder.linear"].index(layer)]


def draw(kind: str, m: np.ndarray, layer: int, head: int, tokens: list[str], scale: float, key: str, where=None):
    """One head [T, T]: a softmax head on the usual 0..1 scale, a linear head's Ã on a diverging one (white = 0)."""
    title = t(f"explorer_linear.{kind}_title", layer=layer + 1, head=head + 1)
    labels = viz_labels()  # query, key, weight in the page's language
    if kind == "softmax":
        fig = viz.heatmap(m, tokens, tokens, title=title, zmax=1.0, scale=scale, labels=labels)
    else:  # Ã is not a weight (rows may be negative): named by its symbol, the same in every language
        fig = viz.value_heatmap(m, tokens, tokens, title=title, x_title=labels.key, y_title=labels.query,
                                hover_name="Ã", colorscale="diverging", scale=scale)  # fmt: skip
    shell.plot(fig, key, m, tokens, tokens, where=where)


def hybrid_explorer(model, tr, scale: float) -> None:
    """The page body for such a model (the Explorer's own views assume every layer is softmax attention)."""
    cfg, tokens = model.config, list(tr.tokens)
    named = (f"{i + 1} {t('explorer_linear.kind.' + KIND[k])}" for i, k in enumerate(tr.layer_kinds))
    st.caption(t("explorer_linear.kinds", kinds=" · ".join(named)))
    # heads: n_heads in a softmax layer, linear_value_heads in a linear one (offer the larger; clamp below)
    layer, head = controls.layer_head(controls.Depth(cfg.n_layers, max(cfg.n_heads, cfg.linear_value_heads)))
    kind, att = layer_matrix(tr, layer)
    head = min(head, att.shape[0] - 1)
    draw(kind, att[head], layer, head, tokens, scale, "hybrid_head")
    k = cfg.linear_conv_kernel  # the short causal conv before q, k, v: column j mixes tokens j − k + 1 … j
    st.caption(t(f"explorer_linear.{kind}_caption", kernel=k, back=k - 1))
    st.caption(t("explorer_linear.skipped"))
    st.subheader(t("explorer_linear.compare_title"))
    soft, linear = tr.layers["decoder.self"][0], tr.layers["decoder.linear"][0]
    left, right = st.columns(2)
    draw("softmax", layer_matrix(tr, soft)[1][0], soft, 0, tokens, scale, "hybrid_softmax", left)
    draw("linear", layer_matrix(tr, linear)[1][0], linear, 0, tokens, scale, "hybrid_linear", right)
    st.markdown(t("explorer_linear.compare_text"))
