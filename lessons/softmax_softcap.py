"""Soft-capping (Gemma 2): cap·tanh(s/cap) against s, and the selected head's scores before and after the cap."""

import numpy as np
import streamlit as st

import viz
from ui import charts, shell
from ui.i18n import t
from ui.softcap_loaders import softcap_head
from ui.state import Settings


def softcap_section(settings: Settings, fig_scale: float) -> None:
    """Drawn only for a model with config.attn_softcap (a published Gemma 2); uses the layer and head picked above."""
    name = shell.published_or(settings, "decoder", "")
    model = shell.load(name, settings.weights) if name else None  # loaded already by the section above
    cap = model.config.attn_softcap if model is not None else None
    if cap is None or not settings.prompt.strip():
        return
    cfg = model.config
    layer = min(int(st.session_state.get("layer", 0)), cfg.n_layers - 1)
    head = min(int(st.session_state.get("head", 0)), cfg.n_heads - 1)
    st.header(t("softmax.softcap_title"))
    st.latex(r"s \;\mapsto\; \mathrm{cap}\cdot\tanh\!\big(s/\mathrm{cap}\big)")
    st.markdown(t("softmax.softcap_explain", cap=f"{cap:g}", span=f"{2 * cap:g}", model=shell.code_span(name)))
    run = softcap_head(name, settings.weights, settings.prompt, layer, head)
    before, after = np.asarray(run["before"]), np.asarray(run["after"])
    seen = np.isfinite(after)
    charts.plot(
        st,
        viz.softcap_curve(
            cap,
            before[seen],
            after[seen],
            x_title=t("softmax.softcap_x"),
            y_title=t("softmax.softcap_y"),
            title=t("softmax.softcap_fig", layer=layer + 1, head=head + 1, cap=f"{cap:g}"),
            curve_name=t("softmax.softcap_curve"),
            line_name=t("softmax.softcap_line"),
            points_name=t("softmax.softcap_points", layer=layer + 1, head=head + 1),
            scale=fig_scale,
        ),
        key="sm_softcap",
    )
    b, a = before[seen], after[seen]
    squeezed = int((np.abs(b - a) > 0.1 * np.abs(b)).sum())
    st.markdown(t("softmax.softcap_numbers", layer=layer + 1, head=head + 1, n=int(b.size),
                  lo=f"{b.min():.2f}", hi=f"{b.max():.2f}", alo=f"{a.min():.2f}", ahi=f"{a.max():.2f}",
                  squeezed=squeezed, cap=f"{cap:g}"))  # fmt: skip
    st.caption(t("softmax.softcap_source"))
