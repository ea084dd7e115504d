"""Decoder-only: the logit lens (each layer read through the final norm and head) and knocking out heads."""

import numpy as np
import streamlit as st

import viz
from lessons.lens_knockout import knockout_section
from ui import charts, controls, shell, state
from ui.head_loaders import logit_lens
from ui.i18n import t, viz_labels
from viz import Series

WINDOW = 16  # positions in the lens table at once: a cell must fit a short token

settings = state.current()
model_name = shell.published_or(settings, "decoder", "decoder")  # a published decoder (GPT-2, Qwen, ...) if picked
model = shell.model_or_stop(settings, model_name, always="lens.always_decoder")
controls.softmax_layers_or_stop(model.config)  # Qwen3.5: the knock-out section needs softmax layers
text = shell.prompt_or_stop(settings, model)
cfg = model.config
st.markdown(t("lens.intro"))

# ---------------------------------------------------------------- logit lens
st.subheader(t("lens.lens_title"))
st.markdown(t("lens.lens_explain"))
lens = logit_lens(model_name, settings.weights, text)
tokens, n = lens["tokens"], len(lens["tokens"])
start = 0
if n > WINDOW:
    state.ensure("lens_from")
    st.session_state["lens_from"] = min(st.session_state["lens_from"], n - WINDOW)
    start = st.slider(t("lens.window"), 0, n - WINDOW, key="lens_from")
    shell.track("lens_from")
shown = slice(start, start + WINDOW)
charts.plot(
    st,
    viz.lens_table(
        [row[shown] for row in lens["top"]],
        lens["top_prob"][:, shown],
        tokens[shown],
        first_position=start,
        embedding=t("lens.embedding"),
        top_name=t("lens.top_name"),
        prob_name=t("lens.prob_name"),
        title=t("lens.table_title", start=start, end=start + len(tokens[shown]) - 1),
        labels=viz_labels(),
        scale=settings.figure_scale,
    ),
    key="lens_table",
)
st.caption(t("lens.table_caption"))

final, by_layer = lens["final"], lens["final_prob"]  # [T], [L+1, T]
top_ids = lens["top_ids"]
layers = np.arange(cfg.n_layers + 1)
agree = top_ids[:, -1] == top_ids[-1, -1]  # [L+1]: this layer's top token is the final one
first = int(cfg.n_layers + 1 - np.argmin(agree[::-1])) if not agree.all() else 0
c1, c2 = st.columns([3, 2])
charts.plot(
    c1,
    viz.lines(
        layers,
        [
            Series(t("lens.series_last", token=final[-1]), by_layer[:, -1]),
            Series(t("lens.series_mean"), by_layer.mean(-1), dash="dash"),
        ],
        x_title=t("lens.x_layer"),
        y_title=t("lens.prob_name"),
        title=t("lens.by_layer_title"),
        y_range=(0, 1.02),
        scale=settings.figure_scale,
    ).update_xaxes(tick0=0, dtick=1),  # layers are whole numbers
    key="lens_by_layer",
)
c2.markdown(
    t(
        "lens.first_layer",
        token=shell.code_span(final[-1]),
        p=f"{by_layer[-1, -1]:.3f}",
        layer=first,
        n=cfg.n_layers,
        p0=f"{by_layer[0, -1]:.3f}",
    )
)
c2.caption(t("lens.caveat"))

# ---------------------------------------------------------------- knock-out
knockout_section(settings, model_name, model, text, tokens)
