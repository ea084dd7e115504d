"""Softmax and the 1/√d_k scale: why scores are divided, what the scale does to a row, and to a
trained model; and why q·k is not a cosine similarity."""

import numpy as np
import streamlit as st

import viz
from lessons.softmax_bf16 import bf16_section
from lessons.softmax_sections import dot_vs_cosine, live_model
from lessons.softmax_softcap import softcap_section
from models import analysis
from ui import body, charts, shell, state
from ui.i18n import t
from ui.params import DKS, LOG2_SCALE, SIGMAS
from ui.softmax_loaders import ROW_KEYS, SAMPLES, across_scales, dot_table, score_row
from viz import Series

settings = state.current()
fig_scale = settings.figure_scale  # figure and font size, not an attention scale
st.markdown(t("softmax.intro"))


# ---------------------------------------------------------------- the variance argument
def derivation() -> None:
    """Why Var(q·k) = d_k σ⁴, step by step, with its source (under the figures it explains)."""
    # Two by two, read left to right; a phone stacks them in order.
    steps = (
        r"q,k\sim\mathcal N(0,\sigma^2 I_{d_k})\;\Rightarrow",
        r"\operatorname{Var}(q\cdot k)=\sum_{i=1}^{d_k}\operatorname{Var}(q_ik_i)",
        r"=\sum_{i=1}^{d_k}\mathbb E[q_i^2]\,\mathbb E[k_i^2]=d_k\,\sigma^4",
        r"\operatorname{Var}\!\Big(\frac{q\cdot k}{\sqrt{d_k}}\Big)=\sigma^4",
    )
    for pair in (steps[:2], steps[2:]):
        for col, formula in zip(st.columns(2, vertical_alignment="center"), pair, strict=True):
            col.latex(formula)
    st.caption(t("softmax.var_source"))


def variance() -> tuple[float, int]:
    """Var(q·k) = d_k σ⁴, measured against the formula; returns the chosen (σ, d_k) for later sections."""
    st.header(t("softmax.var_title"))
    # What is drawn, the controls, then the figures; the derivation follows them, so that on a
    # 1366x768 projector the page opens on its first figure (issue 31).
    st.caption(t("softmax.var_sampling"))
    for name in ("sigma", "dk"):
        state.ensure(name)
    c1, c2 = st.columns(2)
    c1.select_slider("σ", SIGMAS, key="sigma", help=t("softmax.sigma_help"))
    # a new d_k starts the one-row demo at its own 1/sqrt(d_k)
    c2.select_slider("d_k", DKS, key="dk", on_change=lambda: st.session_state.update(sm_log2s=None))
    shell.track("sigma", "dk")
    sigma, d_k = st.session_state["sigma"], st.session_state["dk"]
    table = dot_table() * sigma**2  # q·k scales with σ·σ
    x = table[:, DKS.index(d_k)]
    raw_var, scaled_var, theory = float(np.var(x)), float(np.var(x / np.sqrt(d_k))), d_k * sigma**4
    c1, c2 = st.columns(2)
    hist = viz.histograms(
        {t("softmax.raw", var=f"{raw_var:.3g}"): x, t("softmax.scaled", var=f"{scaled_var:.3g}"): x / np.sqrt(d_k)},
        x_title="q·k",
        y_title=t("softmax.density"),
        title=t("softmax.hist_title", d_k=d_k, sigma=sigma, n=f"{SAMPLES:,}"),
        bins=80,
        colors=[viz.HEAD_COLORS[3], viz.HEAD_COLORS[0]],
        scale=fig_scale,
    )
    charts.plot(c1, hist, key="sm_hist")
    curve = table.var(axis=0)
    fig = viz.lines(
        np.array(DKS),
        [
            Series(t("softmax.empirical"), curve, color=viz.HEAD_COLORS[3], markers=False),
            Series(t("softmax.theory"), np.array(DKS) * sigma**4, color=viz.HEAD_COLORS[7], dash="dash", markers=False),
            Series(t("softmax.empirical_scaled"), curve / np.array(DKS), color=viz.HEAD_COLORS[0]),
        ],
        x_title="d_k",
        y_title=t("softmax.var_axis"),
        title=t("softmax.curve_title", n=f"{SAMPLES:,}"),
        log_x=True,
        log_y=True,
        current=d_k,
        scale=fig_scale,
    )
    charts.plot(c2, fig, key="sm_curve")
    derivation()
    st.markdown(
        t(
            "softmax.var_numbers",
            d_k=d_k,
            sigma=sigma,
            raw=f"{raw_var:.4g}",
            theory=f"{theory:.4g}",
            err=f"{abs(raw_var / theory - 1):.1%}",
            scaled=f"{scaled_var:.4g}",
            s4=f"{sigma**4:.4g}",
            sd=f"{np.sqrt(raw_var):.3g}",
        )
    )
    return sigma, d_k


# ---------------------------------------------------------------- one row under a scale
@body.page_part  # its slider reruns this section alone (issue 40)
def one_row(sigma: float, d_k: int) -> None:
    """One row of scores under a scale the student picks: its softmax, entropy, peak and Jacobian."""
    st.header(t("softmax.row_title"))
    st.markdown(t("softmax.row_intro", n=ROW_KEYS, d_k=d_k, sigma=sigma))
    row = score_row(sigma, d_k)
    default = -0.5 * np.log2(d_k)  # log2(1/sqrt(d_k))
    if st.session_state.get("sm_log2s") is None:  # first load, or the student moved d_k (its on_change)
        st.session_state["sm_log2s"] = default  # starts at this d_k's own 1/sqrt(d_k)
    st.slider(
        t("softmax.scale_slider"), *LOG2_SCALE, step=0.25, key="sm_log2s", help=t("softmax.scale_help"), format="%.2f"
    )
    shell.track("sm_log2s")
    s = 2.0 ** st.session_state["sm_log2s"]
    p = analysis.softmax(s * row)
    marks = [(1.0, t("softmax.mark.unscaled")), (2.0**default, "1/√d_k"), (2.0 ** (default - 1), "1/(2√d_k)")]
    c1, c2 = st.columns(2)
    charts.plot(
        c1,
        viz.bars(
            p,
            [f"k{j + 1}" for j in range(ROW_KEYS)],
            x_title=t("softmax.keys"),
            y_title=t("lbl.weight"),
            title=t("softmax.row_fig", s=f"{s:.4g}"),
            highlight=int(p.argmax()),
            y_range=(0, 1.05),
            scale=fig_scale,
        ),
        key="sm_row",
    )
    grid, entropy, peak, jacobian = across_scales(sigma, d_k)
    curves = [
        Series(t("softmax.entropy"), entropy, color=viz.HEAD_COLORS[0], markers=False),
        Series(t("softmax.max_weight"), peak, color=viz.HEAD_COLORS[3], markers=False),
        Series(t("softmax.jacobian"), jacobian, color=viz.HEAD_COLORS[2], markers=False),
    ]
    charts.plot(
        c2,
        viz.lines(
            grid,
            curves,
            x_title=t("softmax.scale_axis"),
            y_title="",
            title=t("softmax.curves_title"),
            log_x=True,
            vlines=marks,
            current=s,
            scale=fig_scale,
        ),
        key="sm_curves",
    )
    entropy, jac = float(analysis.row_entropy(p)), analysis.softmax_jacobian_norm(p)
    st.markdown(
        t(
            "softmax.row_numbers",
            s=f"{s:.4g}",
            h=f"{entropy:.3f}",
            hmax=f"{np.log(ROW_KEYS):.3f}",
            pmax=f"{p.max():.3f}",
            jac=f"{jac:.3g}",
            uniform=f"{1 / ROW_KEYS:.3f}",
        )
    )
    st.latex(r"\frac{\partial\,\mathrm{softmax}(s)_i}{\partial s_j}=p_i(\delta_{ij}-p_j)")
    st.latex(r"J=\operatorname{diag}(p)-pp^{\top},\qquad 0\le\|J\|_2\le\tfrac12")
    st.markdown(t("softmax.row_explain"))


# ---------------------------------------------------------------- the trained model, on the prompt
@body.page_part
def trained_model() -> None:
    """The prompt box and every section that reads the prompt, last on the page: a new prompt reruns these alone, not
    the variance, one-row and cosine sections above, which do not depend on it (issue 40). Their own controls (the
    factor, the layer and head) rerun them all: the soft-capping section shows the layer and head picked above."""
    now = state.current()  # read again: in this part's own rerun the prompt has changed
    live_model(now, now.figure_scale)
    softcap_section(now, now.figure_scale)
    bf16_section(now, now.figure_scale)


sigma, d_k = variance()
one_row(sigma, d_k)
dot_vs_cosine(d_k, fig_scale)
trained_model()
