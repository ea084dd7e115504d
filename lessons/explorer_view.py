"""The Explorer's prompt box and everything the prompt changes: the token chips, the figure, the neuron view, the
sinks, the downloads. A fragment of its own (ui/body.page_part): Enter re-sends these 12 elements, not the page's
37 (the controls above and the explanation below stay as they are), which is what made the Explorer slower than a
bare one-heatmap page (docs/perf.md, issue 31 §3). A control reruns the whole page, this part included.

With a second model (`?compare=`, issue 44; lessons/explorer_compare.py) the chips and the figure are drawn by one
function (_column) for each model, in two columns; the sections under them stay model A's."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import streamlit as st

import models
import viz
from lessons import explorer_compare as compare
from lessons.explorer_compare import Second
from lessons.explorer_linear import hybrid_explorer
from lessons.explorer_long import LINES_WINDOW, grid_width, long_matrix, window
from lessons.explorer_neuron import neuron_section
from lessons.explorer_router import router_section
from lessons.explorer_sinks import sinks
from models.core.long_trace import AttentionLayers
from models.core.progressive import Progressive
from models.inspection.attention_stats import aggregated, shown_weights
from ui import body, charts, controls, downloads, shell, state, toy_words, url
from ui.i18n import t, viz_labels
from ui.loaders import greedy_target
from ui.long_runs import draw_partial, trace_or_partial

TOKENS_CAPTION = {"wordpiece": "explorer.tokens_wordpiece", "sentencepiece": "explorer.tokens_sentencepiece"}


@dataclasses.dataclass(frozen=True)
class View:
    """What the controls above chose (lessons/explorer.py); None: a hybrid model draws its own (explorer_linear)."""

    kind: str
    view: str
    layer: int
    head: int
    agg: str
    zmax: float | None
    norm: bool


def _target(settings: state.Settings, text: str) -> str:
    """The encoder-decoder's target box, pre-filled with the model's own greedy translation of the prompt."""
    source = (settings.model, settings.weights, text)
    if "_target_for" not in st.session_state and st.session_state.get("target"):
        st.session_state["_target_for"] = source  # a target from a shared link is kept
    if st.session_state.get("_target_for") != source or st.session_state.get("target") is None:
        st.session_state["_target_for"] = source
        st.session_state["target"] = greedy_target(settings.model, settings.weights, text)
    target = st.text_input(
        t("explorer.target"), key="target", live=True, max_chars=url.MAX_PROMPT_CHARS, help=t("explorer.target_help")
    )
    shell.track("target")
    return target


@body.page_part
def prompt_and_figure(model: models.LiveModel, v: View | None, second: Second | None = None) -> None:
    settings = state.current()  # read again: in this part's own rerun the prompt has changed
    shell.prompt_box(settings)
    shell.track("prompt")
    text = shell.prompt_or_stop(settings, model)
    target = _target(settings, text) if model.config.arch == "encoder-decoder" else None
    tr = trace_or_partial(settings.model, settings.weights, text, target)
    if second is None or v is None:
        drawn = _column(settings, model, tr, v)
    else:  # two models side by side (lessons/explorer_compare.py)
        v, drawn = _compared(settings, model, tr, v, second, text, target)
    if drawn is None:  # a forward still running, or Qwen3.5's own page
        return
    shown, what = drawn
    if second is not None:
        compare.a_only(settings.model)  # the sections below read model A alone
    neuron_section(settings, model, tr, v.kind, v.layer, v.head, text, target)  # self-attention only
    raw, value_norms = tr.attention[v.kind], tr.value_norms[v.kind]
    if v.kind != "decoder.cross" and isinstance(raw, AttentionLayers):  # long: each layer is a recompute
        one = slice(v.layer, v.layer + 1)
        sinks(raw[one], value_norms[one], controls.axis_tokens(tr, v.kind)[0], settings.figure_scale, first=v.layer)
        st.caption(t("explorer_long.sinks_layer"))
    elif v.kind != "decoder.cross":
        sinks(raw, value_norms, controls.axis_tokens(tr, v.kind)[0], settings.figure_scale)
    if tr.router.get(v.kind.split(".")[0]) is not None and model.config.n_experts:  # a published MoE (Mixtral)
        router_section(model.config, tr.router[v.kind.split(".")[0]], list(tr.tokens), v.layer, settings.figure_scale)
    downloads.array_buttons(shown, *controls.axis_tokens(tr, v.kind), what)


def _column(settings: state.Settings, model: models.LiveModel, tr, v: View | None, prefix: str = ""):
    """One model's token chips and figure; (the array drawn, what it is), or None while its forward runs (and for
    Qwen3.5, whose page is its own). prefix: the element keys' (the second model's column, issue 44)."""
    caption = t(TOKENS_CAPTION.get(getattr(model.tokenizer, "kind", "bpe"), "explorer.tokens"), n=len(tr.tokens))
    shell.token_chips(toy_words.chip_labels(model.tokenizer, tr.ids, tr.tokens), caption)  # 桌, not <e6> <a1> <8c>
    if isinstance(tr, Progressive) and v is not None:  # a long prompt whose forward still runs (ui/long_runs.py)
        draw_partial(tr, v.view, v.agg, v.norm, v.layer, lambda: _figure(settings, model, tr, v, prefix))
        return None
    if v is None:  # Qwen3.5: softmax and Gated DeltaNet linear-attention layers (lessons/explorer_linear.py)
        hybrid_explorer(model, tr, settings.figure_scale)
        return None
    return _figure(settings, model, tr, v, prefix)


def _compared(settings: state.Settings, model: models.LiveModel, tr, v: View, b: Second, text: str, target):
    """Model A in the left column (its pickers keep the keys layer and head), B in the right; what differs below.
    Returns A's view with the layer and head picked here, and what _column drew for A."""
    compare.note(settings.model, b.name)
    # they stack by themselves on a narrow screen; on a projector too, but for these two (ui/css.py: cmp_cols)
    left, right = st.container(key="cmp_cols").columns(2)
    with left:
        compare.heading(settings.model)
        cfg = model.config
        layer, head = controls.layer_head(cfg, v.view != "lines", stacked=controls.stacked(cfg.n_layers, cfg.n_heads))
        v = dataclasses.replace(v, layer=layer, head=head)
        drawn = _column(settings, model, tr, v)
    with right:
        compare.column_b(settings, model.config, b, v, text, target, functools.partial(_column, settings))
    compare.differs(settings, b, text)
    return v, drawn


def _figure(
    settings: state.Settings, model: models.LiveModel, tr: models.Trace, v: View, prefix: str = ""
) -> tuple[np.ndarray, str]:
    """Draw the chosen view of one model's trace; returns the array drawn and what it is (for the downloads). prefix
    goes before every element key, so a second model's column draws the same figures (issue 44)."""
    q_tokens, k_tokens = controls.axis_tokens(tr, v.kind)
    raw, value_norms = tr.attention[v.kind], tr.value_norms[v.kind]  # [L, H, Tq, Tk], [L, H, Tk]
    labels = viz_labels()
    if v.norm:  # the colour bar and hover name what the cells are
        labels = dataclasses.replace(labels, weight=t("explorer.norm_label"))
    layer, head, zmax, scale = v.layer, v.head, v.zmax, settings.figure_scale

    def rows(layer=slice(None), head=slice(None)) -> np.ndarray:  # α_ij, or value-weighted (explorer.norm_caption)
        return shown_weights(raw, value_norms, v.norm, layer, head)

    def titled(title: str) -> str:
        return t("explorer.norm_suffix", title=title) if v.norm else title

    if v.view == "grid":  # a long prompt: a window of it (lessons/explorer_long.py), read layer by layer
        n_heads = model.config.n_heads
        qs, ks = window("grid", q_tokens, k_tokens, grid_width(len(raw), n_heads), n_heads, prefix=prefix)
        at = dict(q_start=qs.start, k_start=ks.start)
        att = np.stack([rows(n)[:, qs, ks] for n in range(len(raw))])
        fig = viz.heads_grid(att, zmax=zmax, selected=(layer, head), scale=scale, labels=labels, **at)
        charts.plot(st, fig, key=f"{prefix}grid")
        st.caption(t("explorer.grid_caption"))
        title = titled(t("explorer.head_title", layer=layer + 1, head=head + 1))  # the selected head, big
        big = viz.heatmap(att[layer, head], q_tokens[qs], k_tokens[ks], title=title, zmax=zmax, scale=scale,
                          labels=labels, **at)  # fmt: skip
        shell.plot(big, f"{prefix}grid_big", att[layer, head], q_tokens[qs], k_tokens[ks])
        shown, what = att, f"{v.kind} [layers, heads, queries {qs.start}.., keys {ks.start}..]"
    elif v.view == "lines":
        focus = controls.focus_query(q_tokens, f"{prefix}focus")
        qs, ks = window("lines", q_tokens, k_tokens, LINES_WINDOW, model.config.n_heads, follow=focus, prefix=prefix)
        att = rows(layer)[:, qs, ks]
        focus = focus - qs.start if focus is not None and qs.start <= focus < qs.stop else None
        fig = viz.head_view(att, q_tokens[qs], k_tokens[ks], focus=focus, scale=scale, labels=labels,
                            q_start=qs.start, k_start=ks.start)  # fmt: skip
        charts.plot(st, fig, key=f"{prefix}lines")
        st.caption(t("explorer.lines_caption"))
        shown, what = att, f"{v.kind} layer {layer + 1} [heads, queries {qs.start}.., keys {ks.start}..]"
    else:
        shown = aggregated(raw, value_norms, v.norm, v.agg, layer, head)
        title = {"mean": t("explorer.mean_title", layer=layer + 1), "rollout": t("explorer.rollout_title")}.get(
            v.agg, t("explorer.head_title", layer=layer + 1, head=head + 1)
        )
        title = titled(title)
        if viz.is_long(*np.shape(shown)):  # a picture and a zoom (lessons/explorer_long.py)
            at = dict(key=f"{prefix}heatmap", prefix=prefix)  # the second model's column has its own zoom (issue 44)
            long_matrix(shown, q_tokens, k_tokens, title=title, zmax=zmax, scale=scale, labels=labels, **at)
        else:
            fig = viz.heatmap(shown, q_tokens, k_tokens, title=title, zmax=zmax, scale=scale, labels=labels)
            shell.plot(fig, f"{prefix}heatmap", shown, q_tokens, k_tokens)
        if v.agg == "rollout":
            st.caption(t("explorer.rollout_caption"))
        what = f"{v.kind} {title}"
    if v.norm:
        st.latex(r"\|\alpha_{ij} f(x_j)\| = \alpha_{ij}\,\|f(x_j)\|")  # two lines: one is too wide on a phone
        st.latex(r"f(x) = (x W_V + b_V)\, W_O^{h}")
        st.caption(t("explorer.norm_caption"))
    return shown, what
