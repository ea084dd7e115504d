"""The Model size page's ALBERT section: the factorised embedding V·E + E·H against V·H, and where it breaks even."""

import numpy as np
import streamlit as st

import viz
from models.teaching import catalog
from ui import charts
from ui.i18n import t


def albert_section(scale: float) -> None:
    st.header(t("scaling.albert_title"))
    st.markdown(t("scaling.albert_intro"))
    c1, c2, c3 = st.columns(3)
    c1.number_input(t("scaling.albert_v"), 1000, 300_000, key="albert_v", step=1000)
    c2.number_input(t("scaling.albert_h"), 64, 16384, key="albert_h", step=64)
    c3.number_input(t("scaling.albert_e"), 8, 4096, key="albert_e", step=8)
    v, h, e = (int(st.session_state[k]) for k in ("albert_v", "albert_h", "albert_e"))
    full, factored = catalog.albert_embedding(v, h, e)
    even = catalog.breakeven_e(v, h)
    m1, m2, m3 = st.columns(3)
    m1.metric("V × H", f"{full:,}", help=t("scaling.albert_full_help", v=f"{v:,}", h=h))
    m2.metric("V × E + E × H", f"{factored:,}", delta=f"{factored / full - 1:+.1%}", delta_color="inverse")
    m3.metric(t("scaling.albert_even"), f"{even:,.1f}", help=t("scaling.albert_even_help"))
    es = np.unique(np.geomspace(8, max(16, 2 * h), 64).astype(int))
    charts.plot(st,
        viz.lines(es, [viz.Series("V × E + E × H", (v * es + es * h).astype(float), markers=False)], x_title="E",
                  y_title=t("common.params"), log_x=True, log_y=True, hlines=[(float(full), "V × H")],
                  vlines=[(even, t("scaling.albert_even"))], current=float(e),
                  title=t("scaling.albert_fig", e=e), scale=scale),
        key="sc_albert",
    )  # fmt: skip
