"""Attention Explorer: the prompt's attention per layer and head, as a heatmap, a grid, or lines."""

import numpy as np
import streamlit as st

import viz
from models.analysis import attention_rollout, attention_sinks, sink_shares
from ui import charts, controls, shell, state
from ui.i18n import md, names, t, viz_labels
from ui.loaders import greedy_target, trace
from ui.params import AGGREGATES, VIEWS

SINKS_LISTED = 8  # the strongest sinks named in the notice; the tables below show every head

settings = state.current()
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
labels = viz_labels()

target = None
if model.config.arch == "encoder-decoder":
    source = (settings.model, settings.weights, text)
    if "_target_for" not in st.session_state and st.session_state.get("target"):
        st.session_state["_target_for"] = source  # a target from a shared link is kept
    if st.session_state.get("_target_for") != source or st.session_state.get("target") is None:
        st.session_state["_target_for"] = source  # pre-filled with the model's own greedy translation
        st.session_state["target"] = greedy_target(settings.model, settings.weights, text)
    target = st.text_input(t("explorer.target"), key="target", live=True, help=t("explorer.target_help"))
    shell.track("target")
tr = trace(settings.model, settings.weights, text, target)

wordpiece = getattr(model.tokenizer, "kind", "bpe") == "wordpiece"
shell.token_chips(tr.tokens, t("explorer.tokens_wordpiece" if wordpiece else "explorer.tokens", n=len(tr.tokens)))

# Two compact rows of controls above a full-width figure (beside it, in a column, the heatmap got too
# narrow for every token's label), and the examples collapsed in the prompt box: the heatmap starts
# near the top of a laptop screen (1366x768). Presentation mode and phones stack the columns.
kind = controls.attention_kind(tr)
for name in ("view", "agg", "autoscale"):
    state.ensure(name)
q_tokens, k_tokens = controls.axis_tokens(tr, kind)
att = tr.attention[kind]  # [L, H, Tq, Tk]
c1, c2 = st.columns(2)
with c1:
    st.segmented_control(t("ctl.view"), VIEWS, format_func=names("explorer.view"), key="view", required=True)
view = st.session_state["view"]
with c2:
    layer, head = controls.layer_head(model.config, with_head=view != "lines")
c3, c4 = st.columns(2)
with c4:
    st.toggle(t("ctl.autoscale"), key="autoscale", help=t("ctl.autoscale_help"))
zmax = None if st.session_state["autoscale"] else 1.0
shell.track("view", "autoscale")
with c3:
    if view == "lines":
        everything = t("ctl.focus_all")
        focus = st.selectbox(
            t("ctl.focus"), [None, *range(len(q_tokens))], key="focus",
            format_func=lambda i: everything if i is None else f"{i} {q_tokens[i]}",
        )  # fmt: skip
    elif view == "heatmap":
        square = kind != "decoder.cross"
        aggs = AGGREGATES if square else AGGREGATES[:2]
        if st.session_state["agg"] not in aggs:
            st.session_state["agg"] = "head"
        st.segmented_control(t("ctl.agg"), aggs, format_func=names("explorer.agg"), key="agg", required=True)
        shell.track("agg")

figure_area = st.container()
with figure_area:
    if view == "grid":
        fig = viz.heads_grid(att, zmax=zmax, selected=(layer, head), scale=settings.figure_scale, labels=labels)
        charts.plot(st, fig, key="grid")
        st.caption(t("explorer.grid_caption"))
        title = t("explorer.head_title", layer=layer + 1, head=head + 1)  # the selected head, opened big
        big = viz.heatmap(
            att[layer, head], q_tokens, k_tokens, title=title, zmax=zmax, scale=settings.figure_scale, labels=labels
        )
        shell.plot(big, "grid_big", att[layer, head], q_tokens, k_tokens)
        shown, what = att, f"{kind} [layers, heads, queries, keys]"
    elif view == "lines":
        fig = viz.head_view(att[layer], q_tokens, k_tokens, focus=focus, scale=settings.figure_scale, labels=labels)
        charts.plot(st, fig, key="lines")
        st.caption(t("explorer.lines_caption"))
        shown, what = att[layer], f"{kind} layer {layer + 1} [heads, queries, keys]"
    else:
        agg = st.session_state["agg"]
        if agg == "mean":
            shown, title = att[layer].mean(axis=0), t("explorer.mean_title", layer=layer + 1)
        elif agg == "rollout":
            shown, title = attention_rollout(att), t("explorer.rollout_title")
        else:
            shown, title = att[layer, head], t("explorer.head_title", layer=layer + 1, head=head + 1)
        fig = viz.heatmap(shown, q_tokens, k_tokens, title=title, zmax=zmax, scale=settings.figure_scale, labels=labels)
        shell.plot(fig, "heatmap", shown, q_tokens, k_tokens)
        if agg == "rollout":
            st.caption(t("explorer.rollout_caption"))
        what = f"{kind} {title}"

if kind != "decoder.cross":
    sinks = attention_sinks(att, q_tokens)
    if sinks:
        top = sorted(sinks, key=lambda s: -s["weight"])[:SINKS_LISTED]
        heads = ", ".join(f"L{s['layer'] + 1}H{s['head'] + 1}→{s['token']} ({s['weight']:.0%})" for s in top)
        more = t("explorer.sinks_more", n=len(sinks) - len(top)) if len(sinks) > len(top) else ""
        st.info(t("explorer.sinks", heads=md(heads)) + more)
    # A toggle, not an expander: an expander's figures are built on every rerun even when closed
    # (three more figures cost about 30 ms a keystroke).
    state.ensure("sink_tables")
    shell.track("sink_tables")
    if st.toggle(t("explorer.sinks_title"), key="sink_tables"):
        shares = sink_shares(att, q_tokens)
        groups = ("start", "end", "punctuation")
        tabs = st.tabs([t(f"explorer.sinks.{group}") for group in groups])  # one full-width table each
        for col, group in zip(tabs, groups, strict=True):
            charts.plot(
                col,
                viz.value_heatmap(
                    shares[group],
                    [str(i + 1) for i in range(att.shape[0])],
                    [str(h + 1) for h in range(att.shape[1])],
                    index_labels=False,
                    title=t(f"explorer.sinks.{group}"),
                    x_title=t("lbl.head"),
                    y_title=t("lbl.layer"),
                    hover_name=t("lbl.weight"),
                    zmin=0,
                    zmax=1,
                    text_fmt=".0%",
                    scale=settings.figure_scale,
                ),
                key=f"sinks_{group}",
            )
        st.caption(t("explorer.sinks_explain"))

st.markdown(t("explorer.explain"))
st.latex(r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}+M\right)V")
st.caption(t("explorer.source", d_k=model.config.d_head, scale=f"{model.config.scale:.4f}"))

d1, d2 = st.columns(2)
d1.download_button(t("explorer.download.json"), viz.attention_json(shown, q_tokens, k_tokens, what), "attention.json")
if np.ndim(shown) == 2:
    d2.download_button(
        t("explorer.download.csv"), viz.attention_csv(shown, q_tokens, k_tokens), "attention.csv", "text/csv"
    )
