"""The Explorer's neuron view (BertViz, Vig 2019): why does this query attend to that key? q and k of the selected
head, q ⊙ k per dimension and its sum, the score before the scale and the mask (models/inspection/neuron_view.py); for
RoPE
models before and after the rotation. Self-attention only (cross-attention's keys come from the other stack)."""

import streamlit as st

import models
import viz
from models.inspection.neuron_view import SELF_KINDS, allowed_keys
from ui import charts, score_scale, shell, state
from ui.head_loaders import neuron
from ui.i18n import md, t

AUTO = -1  # the last token as query; the query's highest-weight key as key
NOTES = {"relative": "explorer_neuron.relative", "softcap": "explorer_neuron.softcap"}


def _valid(name: str, options: list) -> None:
    """A query or key from an earlier prompt, or one the new query may not see, falls back to -1 (automatic)."""
    if st.session_state.get(name) not in options:
        st.session_state[name] = AUTO


def neuron_toggle(kind: str) -> None:
    """The section's switch, with the Explorer's controls above the prompt box (not re-sent on Enter). A toggle, not
    an expander: an expander's figure is built on every rerun even when closed (explorer_sinks.py)."""
    if kind not in SELF_KINDS:
        return
    state.ensure("neuron")
    shell.track("neuron")
    st.toggle(t("explorer_neuron.toggle"), key="neuron", help=t("explorer_neuron.toggle_help"))


def neuron_section(settings: state.Settings, model: models.LiveModel, tr: models.Trace, kind: str, layer: int,
                   head: int, text: str, target: str | None) -> None:  # fmt: skip
    """Drawn under the figure when the toggle above (neuron_toggle) is on."""
    if kind not in SELF_KINDS or not st.session_state.get("neuron"):
        return
    for name in ("nv_q", "nv_k"):
        state.ensure(name)
    tokens = list(tr.target_tokens if kind == "decoder.self" and tr.target_tokens is not None else tr.tokens)
    att = tr.attention[kind][layer, head]  # [T, T]
    n = len(tokens)
    _valid("nv_q", [AUTO, *range(n)])
    query = n - 1 if st.session_state["nv_q"] == AUTO else st.session_state["nv_q"]
    keys = [int(j) for j in allowed_keys(tr, kind, layer, query)]
    if not keys:  # a fully masked row (padding): nothing to explain
        return
    _valid("nv_k", [AUTO, *keys])
    top = max(keys, key=lambda j: att[query, j])
    c1, c2 = st.columns(2)
    last = t("explorer_neuron.last", token=f"{n - 1} {tokens[-1]}")
    best = t("explorer_neuron.top", token=f"{top} {tokens[top]}")
    c1.selectbox(t("explorer_neuron.query"), [AUTO, *range(n)], key="nv_q",
                 format_func=lambda i: last if i == AUTO else f"{i} {tokens[i]}")  # fmt: skip
    c2.selectbox(t("explorer_neuron.key"), [AUTO, *keys], key="nv_k",
                 format_func=lambda j: best if j == AUTO else f"{j} {tokens[j]}")  # fmt: skip
    shell.track("nv_q", "nv_k")
    key = top if st.session_state["nv_k"] == AUTO else st.session_state["nv_k"]
    nv = neuron(settings.model, settings.weights, text, target, kind, layer, head, query, key)
    words = viz.NeuronWords(
        q=t("explorer_neuron.q"), k=t("explorer_neuron.k"), dimension=t("explorer_neuron.dimension"),
        rotated=t("explorer_neuron.rotated"), unrotated=t("explorer_neuron.unrotated"),
        title=t("explorer_neuron.title", dot="{dot}", scale="{scale}", score="{score}"),  # filled in by viz
    )  # fmt: skip
    before = dict(q_before=nv.q, k_before=nv.k, product_before=nv.q * nv.k) if nv.rope else {}
    fig = viz.neuron_bars(nv.q_rot, nv.k_rot, nv.product, dot=nv.dot, scale_factor=nv.scale, score=nv.score,
                          words=words, scale=settings.figure_scale, **before)  # fmt: skip
    charts.plot(st, fig, key="neuron_view")
    st.markdown(
        t("explorer_neuron.explain", layer=layer + 1, head=head + 1, query_token=md(f"{query} {tokens[query]}"),
          key_token=md(f"{key} {tokens[key]}"), dot=f"{nv.dot:.4g}", scale=f"{nv.scale:.4g}", score=f"{nv.score:.4g}",
          weight=f"{float(att[query, key]):.1%}")
    )  # fmt: skip
    if nv.rope:
        d = len(nv.q)
        st.caption(t("explorer_neuron.rope", dims=nv.rope_dims, d=d, before=f"{nv.dot_unrotated:.4g}",
                     offset=abs(query - key)))  # fmt: skip
        if model.meta.get("model_type"):  # a published checkpoint: its rotate-half rows were permuted at load
            rest = t("explorer_neuron.order_rest", dims=nv.rope_dims) if nv.rope_dims < d else ""
            st.caption(t("explorer_neuron.order", model=shell.code_span(settings.model), half=nv.rope_dims // 2,
                         rest=rest))  # fmt: skip
    if nv.extra is not None:
        st.info(t(NOTES[nv.extra]))
    if model.config.kv_heads < model.config.n_heads:
        st.caption(t("explorer_neuron.gqa"))
    st.latex(r"\mathrm{score}_{ij} = s\,(q_i \cdot k_j) = s \sum_d q_{i,d}\, k_{j,d}")  # s: not always 1/√d_k
    st.caption(score_scale.scale_text(model.config))
