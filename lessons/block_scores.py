"""The block page's third section: additive (Bahdanau et al. 2015) vs scaled dot-product scores on one head's
q and k: the two patterns, parameters, FLOPs from the shapes, measured wall time."""

import numpy as np
import streamlit as st

import models
import viz
from models.teaching import additive
from ui import charts, controls, shell
from ui.block_loaders import score_patterns, wall_times
from ui.i18n import md, names, t, viz_labels
from ui.state import Settings
from viz import Series


def scores_section(settings: Settings) -> None:
    st.subheader(t("block.scores_title"))
    model = shell.model_or_stop(settings)
    text = shell.prompt_or_stop(settings, model)
    layer, head = controls.layer_head(model.config)
    p = score_patterns(settings.model, settings.weights, text, layer, head)
    dk, da, tokens = p["d_k"], p["d_a"], p["tokens"]
    st.markdown(
        t(
            "block.scores_explain",
            model=md(names("model")(settings.model) if settings.model in models.AVAILABLE else settings.model),
            dk=dk,
            da=da,
            params=p["n_params"],
            seed=additive.ADDITIVE_SEED,
        )
    )
    labels, scale = viz_labels(), settings.figure_scale
    cols = st.columns(2)
    for where, key, title in ((cols[0], "dot", "block.dot_title"), (cols[1], "additive", "block.add_title")):
        fig = viz.heatmap(p[key], tokens, tokens, title=t(title), scale=scale, labels=labels)
        charts.plot(where, fig, key=f"score_{key}")
    st.caption(t("block.same_as_model", diff=f"{np.abs(p['dot'] - p['model']).max():.1e}"))

    n = len(tokens)
    f = additive.flops(n, n, dk, da)
    rows = {
        t("block.row.params"): (0, p["n_params"]),
        t("block.row.per_pair"): (2 * dk, 4 * da),
        t("block.row.per_token"): (0, 2 * 2 * da * dk),
        t("block.row.total", t=n): (f.dot, f.additive),
        t("block.row.per_score", t=n): (f"{f.dot_per_score:.0f}", f"{f.additive_per_score:.1f}"),
        t("block.row.memory"): (n * n, n * n * da),
    }
    st.table(
        {
            t("block.col.what"): list(rows),
            t("block.col.dot"): [str(v[0]) for v in rows.values()],
            t("block.col.additive"): [str(v[1]) for v in rows.values()],
        }
    )
    st.caption(t("block.flops_caption"))

    times = wall_times(dk, da)
    lengths = np.array(additive.TIMING_LENGTHS, dtype=float)
    fig = viz.lines(
        lengths,
        [
            Series(t("block.col.dot"), np.array(times["dot"])),
            Series(t("block.col.additive"), np.array(times["additive"])),
        ],
        x_title=t("block.x_t"),
        y_title=t("block.y_ms"),
        title=t("block.time_title"),
        log_y=True,
        height=round(320 * scale),
        scale=scale,
    )
    charts.plot(st, fig, key="score_times")
    dot, add = times["dot"][-1], times["additive"][-1]
    st.caption(t("block.time_readout", t=int(lengths[-1]), dot=f"{dot:.3f}", add=f"{add:.3f}", x=f"{add / dot:.0f}"))
    st.markdown(t("block.vaswani"))
