"""Attention Explorer: the prompt's attention per layer and head, as a heatmap, a grid, or lines."""

import dataclasses
import functools

import numpy as np
import streamlit as st

import viz
from lessons.explorer_linear import hybrid_explorer
from lessons.explorer_long import LINES_WINDOW, grid_width, long_matrix, window
from lessons.explorer_neuron import neuron_section
from lessons.explorer_router import router_section
from lessons.explorer_sinks import sinks
from models.analysis import attention_rollout, value_weighted
from ui import charts, controls, shell, state, url
from ui.i18n import names, t, viz_labels
from ui.loaders import greedy_target, trace
from ui.params import AGGREGATES, VIEWS, WEIGHTINGS

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
    target = st.text_input(
        t("explorer.target"), key="target", live=True, max_chars=url.MAX_PROMPT_CHARS, help=t("explorer.target_help")
    )
    shell.track("target")
tr = trace(settings.model, settings.weights, text, target)

cut = {"wordpiece": "explorer.tokens_wordpiece", "sentencepiece": "explorer.tokens_sentencepiece"}  # else BPE
shell.token_chips(tr.tokens, t(cut.get(getattr(model.tokenizer, "kind", "bpe"), "explorer.tokens"), n=len(tr.tokens)))
if tr.layers:  # Qwen3.5: softmax and Gated DeltaNet linear-attention layers (lessons/explorer_linear.py)
    hybrid_explorer(model, tr, settings.figure_scale)
    shell.stop()

# Two compact rows of controls above a full-width figure (beside it, in a column, the heatmap got too
# narrow for every token's label), and the examples collapsed in the prompt box: the heatmap starts
# near the top of a laptop screen (1366x768). Presentation mode and phones stack the columns.
kind = controls.attention_kind(tr)
for name in ("view", "agg", "autoscale", "weighting"):
    state.ensure(name)
q_tokens, k_tokens = controls.axis_tokens(tr, kind)
raw, value_norms = tr.attention[kind], tr.value_norms[kind]  # [L, H, Tq, Tk], [L, H, Tk]
c1, c2 = st.columns(2)
with c1:
    st.segmented_control(t("ctl.view"), VIEWS, format_func=names("explorer.view"), key="view", required=True)
view = st.session_state["view"]
with c2:
    layer, head = controls.layer_head(model.config, with_head=view != "lines")
c3, c4 = st.columns(2)
with c4:
    st.segmented_control(
        t("explorer.weighting"), WEIGHTINGS, format_func=names("explorer.weighting"), key="weighting",
        required=True, help=t("explorer.weighting_help"),
    )  # fmt: skip
    st.toggle(t("ctl.autoscale"), key="autoscale", help=t("ctl.autoscale_help"))
zmax = None if st.session_state["autoscale"] else 1.0
shell.track("view", "autoscale", "weighting")
norm = st.session_state["weighting"] == "norm"


def rows(layer=slice(None), head=slice(None)) -> np.ndarray:
    """The weights α_ij, or value-weighted: α_ij‖f(x_j)‖ ÷ its row's sum (explorer.norm_caption), of the slice drawn."""
    if not norm:
        return raw[layer, head]
    return value_weighted(raw[layer, head], value_norms[layer, head]).astype(np.float32)


def titled(title: str) -> str:
    return t("explorer.norm_suffix", title=title) if norm else title


if norm:  # the colour bar and hover name what the cells are
    labels = dataclasses.replace(labels, weight=t("explorer.norm_label"))
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
    if view == "grid":  # a long prompt: a window of it (lessons/explorer_long.py), read layer by layer
        qs, ks = window("grid", q_tokens, k_tokens, grid_width(len(raw), model.config.n_heads), model.config.n_heads)
        at = dict(q_start=qs.start, k_start=ks.start)
        att = np.stack([rows(n)[:, qs, ks] for n in range(len(raw))])
        fig = viz.heads_grid(att, zmax=zmax, selected=(layer, head), scale=settings.figure_scale, labels=labels, **at)
        charts.plot(st, fig, key="grid")
        st.caption(t("explorer.grid_caption"))
        title = titled(t("explorer.head_title", layer=layer + 1, head=head + 1))  # the selected head, big
        big = viz.heatmap(att[layer, head], q_tokens[qs], k_tokens[ks], title=title, zmax=zmax,
                          scale=settings.figure_scale, labels=labels, **at)  # fmt: skip
        shell.plot(big, "grid_big", att[layer, head], q_tokens[qs], k_tokens[ks])
        shown, what = att, f"{kind} [layers, heads, queries {qs.start}.., keys {ks.start}..]"
    elif view == "lines":
        qs, ks = window("lines", q_tokens, k_tokens, LINES_WINDOW, model.config.n_heads, follow=focus)
        att = rows(layer)[:, qs, ks]
        focus = focus - qs.start if focus is not None and qs.start <= focus < qs.stop else None
        fig = viz.head_view(att, q_tokens[qs], k_tokens[ks], focus=focus, scale=settings.figure_scale, labels=labels,
                            q_start=qs.start, k_start=ks.start)  # fmt: skip
        charts.plot(st, fig, key="lines")
        st.caption(t("explorer.lines_caption"))
        shown, what = att, f"{kind} layer {layer + 1} [heads, queries {qs.start}.., keys {ks.start}..]"
    else:
        agg = st.session_state["agg"]
        if agg == "mean":
            shown, title = rows(layer).mean(axis=0), t("explorer.mean_title", layer=layer + 1)
        elif agg == "rollout":
            # layer by layer ([L, 1, T, T]: each layer's head mean), never the whole [L, H, T, T] of a long prompt
            means = np.stack([np.asarray(rows(n), np.float64).mean(0) for n in range(len(raw))])
            shown, title = attention_rollout(means[:, None]), t("explorer.rollout_title")
        else:
            shown, title = rows(layer, head), t("explorer.head_title", layer=layer + 1, head=head + 1)
        title = titled(title)
        if viz.is_long(*np.shape(shown)):  # a picture and a zoom (lessons/explorer_long.py)
            long_matrix(shown, q_tokens, k_tokens, title=title, zmax=zmax, scale=settings.figure_scale, labels=labels,
                        key="heatmap")  # fmt: skip
        else:
            fig = viz.heatmap(shown, q_tokens, k_tokens, title=title, zmax=zmax, scale=settings.figure_scale,
                              labels=labels)  # fmt: skip
            shell.plot(fig, "heatmap", shown, q_tokens, k_tokens)
        if agg == "rollout":
            st.caption(t("explorer.rollout_caption"))
        what = f"{kind} {title}"

    if norm:
        st.latex(r"\|\alpha_{ij} f(x_j)\| = \alpha_{ij}\,\|f(x_j)\|")  # two lines: one is too wide on a phone
        st.latex(r"f(x) = (x W_V + b_V)\, W_O^{h}")
        st.caption(t("explorer.norm_caption"))

neuron_section(settings, model, tr, kind, layer, head, text, target)  # self-attention only
if kind != "decoder.cross":
    sinks(raw, value_norms, q_tokens, settings.figure_scale)
if tr.router.get(kind.split(".")[0]) is not None and model.config.n_experts:  # a published MoE (Mixtral)
    router_section(model.config, tr.router[kind.split(".")[0]], list(tr.tokens), layer, settings.figure_scale)

st.markdown(t("explorer.explain"))
st.latex(r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\!\left(\frac{QK^{\top}}{\sqrt{d_k}}+M\right)V")
st.caption(t("explorer.source", d_k=model.config.d_head, scale=f"{model.config.scale:.4f}"))

# The files are made when a button is clicked (data= a function), not in every rerun: the browser then has
# no new file to fetch after each keystroke either (docs/perf.md).
d1, d2 = st.columns(2)
as_json = functools.partial(viz.attention_json, shown, q_tokens, k_tokens, what)
d1.download_button(t("explorer.download.json"), as_json, "attention.json", "application/json")
if np.ndim(shown) == 2:
    as_csv = functools.partial(viz.attention_csv, shown, q_tokens, k_tokens)
    d2.download_button(t("explorer.download.csv"), as_csv, "attention.csv", "text/csv")
