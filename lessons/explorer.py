"""Attention Explorer: the prompt's attention per layer and head, as a heatmap, a grid, or lines.

The controls come first, then the prompt box and what it changes, in a fragment of its own
(lessons/explorer_view.py): Enter re-sends only that part (docs/perf.md, issue 31 §3)."""

import streamlit as st

from lessons import explorer_compare
from lessons.explorer_neuron import neuron_toggle
from lessons.explorer_sinks import sinks_toggle
from lessons.explorer_view import View, prompt_and_figure
from ui import controls, score_scale, shell, state
from ui.i18n import names, t
from ui.params import AGGREGATES, VIEWS, WEIGHTINGS

settings = state.current()
model = shell.model_or_stop(settings)
second = explorer_compare.second(settings, model)  # ?compare=: a second model beside this one (issue 44), or None

v = None  # Qwen3.5 (softmax and Gated DeltaNet layers) draws its own controls (lessons/explorer_linear.py)
if "linear_attention" not in (model.config.layer_types or ()):
    # Two compact rows of controls above a full-width figure (beside it, in a column, the heatmap got too
    # narrow for every token's label), and the examples collapsed in the prompt box: the heatmap starts
    # near the top of a laptop screen (1366x768). Presentation mode and phones stack the columns.
    kind = controls.attention_kind_for(model.config.arch)
    for name in ("view", "agg", "autoscale", "weighting"):
        state.ensure(name)
    c1, c2 = st.columns(2)
    with c1:
        st.segmented_control(t("ctl.view"), VIEWS, format_func=names("explorer.view"), key="view", required=True)
    view = st.session_state["view"]
    with c2:
        if second is None:
            layer, head = controls.layer_head(model.config, with_head=view != "lines")
        else:  # each model's column draws its own layer and head (lessons/explorer_view.py)
            layer, head = st.session_state.get("layer") or 0, st.session_state.get("head") or 0
            explorer_compare.same_depth_toggle()
    c3, c4 = st.columns(2)
    with c4:
        st.segmented_control(
            t("explorer.weighting"), WEIGHTINGS, format_func=names("explorer.weighting"), key="weighting",
            required=True, help=t("explorer.weighting_help"),
        )  # fmt: skip
        st.toggle(t("ctl.autoscale"), key="autoscale", help=t("ctl.autoscale_help"))
    shell.track("view", "autoscale", "weighting")
    with c3:
        if view == "heatmap":
            aggs = AGGREGATES if kind != "decoder.cross" else AGGREGATES[:2]
            if st.session_state["agg"] not in aggs:
                st.session_state["agg"] = "head"
            st.segmented_control(t("ctl.agg"), aggs, format_func=names("explorer.agg"), key="agg", required=True)
            shell.track("agg")
        neuron_toggle(kind)  # the sections under the figure: their switches here, drawn once, not on every Enter
        if kind != "decoder.cross":
            sinks_toggle()
    zmax = None if st.session_state["autoscale"] else 1.0
    norm = st.session_state["weighting"] == "norm"
    v = View(kind, view, layer, head, st.session_state["agg"], zmax, norm)

prompt_and_figure(model, v, second)
if v is not None:
    st.markdown(t("explorer.explain"))
    cfg, cross = model.config, v.kind == "decoder.cross"
    st.latex(r"\mathrm{Attention}(Q,K,V)=" + score_scale.formula(cfg, cross))  # T5's and Gemma 2's as they are
    source = {"scaled": "explorer.source", "relative": "explorer.source_relative", "softcap": "explorer.source_softcap"}
    cap = f"{cfg.attn_softcap:g}" if cfg.attn_softcap is not None else ""
    st.caption(t(source[score_scale.form(cfg, cross)], d_k=cfg.d_head, scale=score_scale.scale_text(cfg), cap=cap))
