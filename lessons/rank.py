"""Attention rank: causal vs bidirectional, exact vs numerical vs effective rank, and precision."""

import numpy as np
import streamlit as st

import viz
from lessons.rank_toys import exact_text, pitfall, toy
from models.inspection.experiments import sweep_verdict
from ui import charts, controls, precision_keys, shell, slots, state
from ui.i18n import names, t
from ui.loaders import head_rank_report, rank_sweep, with_status
from ui.params import DTYPES, SWEEP_INPUTS, TOLERANCES
from viz import Series
from viz.lines import sweep_bands
from viz.palette import MASK_KIND_COLORS

MASKS = ("causal", "bidirectional")

settings = state.current()
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
cfg = model.config


def intro() -> None:
    """What the lesson is about: a causal attention matrix is triangular, its determinant the diagonal's product."""
    st.markdown(t("rank.intro"))
    if cfg.arch == "encoder-decoder":
        st.caption(t("rank.encdec_note"))


def formulas() -> None:
    """The intro's argument as formulas, under the spectra: on a 1366x768 projector the page opens on them (issue 39).
    Short formulas side by side, stacked on a phone (a long one does not fit it); a 3x3 matrix, not 4x4."""
    left, right = st.columns(2, vertical_alignment="center")
    left.latex(r"A=\begin{pmatrix}a_{11}&\cdots&0\\\vdots&\ddots&\vdots\\a_{n1}&\cdots&a_{nn}\end{pmatrix}")
    right.latex(r"\det A=\prod_{i=1}^{n}a_{ii},\qquad a_{ii}=\frac{e^{s_{ii}}}{\sum_{j\le i}e^{s_{ij}}}>0")


# ---------------------------------------------------------------- the prompt, one head, both masks
def head_controls() -> tuple[int, int, str, float | None]:
    """(layer, head, dtype, tolerance or None for numpy's own) of the prompt section."""
    st.header(t("rank.prompt_title"))
    which, precision = st.columns(2)  # one row: the spectra start higher
    with which:
        layer, head = controls.layer_head(cfg)
    for name in ("dtype", "tol"):
        state.ensure(name)
    c1, c2 = precision.columns(2)
    c1.segmented_control(t("rank.dtype"), DTYPES, key="dtype", required=True, help=t("rank.dtype_help"))
    c2.select_slider(t("rank.tol"), TOLERANCES, key="tol", format_func=names("rank.tol"), help=t("rank.tol_help"))
    shell.track("dtype", "tol")
    dtype, tol_name = st.session_state["dtype"], st.session_state["tol"]
    tol = None if tol_name == "auto" else float(tol_name)
    return layer, head, dtype, tol


def spectra(reports: dict, layer: int, head: int, dtype: str) -> None:
    """The singular values of the head's attention under each mask, with the rank tolerance."""
    n = reports["causal"].n
    cols = st.columns(2)
    for col, kind in zip(cols, MASKS, strict=True):
        r = reports[kind]
        fig = viz.lines(
            np.arange(1, n + 1),
            [Series(t(f"mask.{kind}"), r.singular_values, color=MASK_KIND_COLORS[kind])],
            x_title=t("rank.sv_index"),
            y_title=t("rank.sv"),
            title=t("rank.spectrum_title", mask=t(f"mask.{kind}"), layer=layer + 1, head=head + 1, dtype=dtype),
            log_y=True,
            hlines=[(r.tolerance, t("rank.tol_line", tol=f"{r.tolerance:.1e}"))],
            scale=settings.figure_scale,
        )
        charts.plot(col, fig, key=f"spectrum_{kind}")


def measures(reports: dict, dtype: str) -> None:
    """The ranks and what limits them, side by side for both masks, and what they mean here."""
    st.markdown(t("rank.watch"))  # the end of the lead, here so that the page opens on the spectra (issue 31)
    rows = {
        t("rank.row.n"): lambda r: str(r.n),
        t("rank.row.numerical", dtype=dtype): lambda r: f"{r.numerical_rank} / {r.n}",
        t("rank.row.tol"): lambda r: f"{r.tolerance:.2e}",
        t("rank.row.effective"): lambda r: f"{r.effective_rank:.1f}  ({r.effective_rank / r.n:.0%})",
        t("rank.row.condition"): lambda r: f"{r.condition_number:.3g}",
        t("rank.row.min_diag", dtype=dtype): lambda r: f"{r.min_diagonal:.3g}",
        t("rank.row.log10_diag"): lambda r: f"{r.log10_min_diagonal:.1f}",
        t("rank.row.logdet"): lambda r: f"{r.log_abs_det:.4g}",
        t("rank.row.exact"): exact_text,
    }
    st.table(
        {t("rank.measure"): list(rows), **{t(f"mask.{k}"): [f(reports[k]) for f in rows.values()] for k in MASKS}},
        hide_index=True,
        width="stretch",
    )
    c = reports["causal"]
    if c.numerical_rank < c.n:
        below = int((c.singular_values <= c.tolerance).sum())
        st.warning(
            t(
                "rank.underflow",
                cond=f"{c.condition_number:.2g}",
                k=below,
                n=c.n,
                dtype=dtype,
                exp=f"{c.log10_min_diagonal:.0f}",
                logdet=f"{c.log_abs_det:.4g}",
                min=f"{c.min_diagonal:.3g}",
            )
        )
    else:
        st.success(t("rank.causal_full", n=c.n, dtype=dtype))
    b = reports["bidirectional"]
    st.info(t("rank.compare", bn=b.numerical_rank, n=b.n, be=f"{b.effective_rank:.1f}", ce=f"{c.effective_rank:.1f}"))
    with st.expander(t("rank.three_ranks_title")):
        st.markdown(t("rank.three_ranks"))
        st.latex(r"\operatorname{rank}_{\mathrm{num}}(A)=\#\{i:\sigma_i>\tau\}")
        st.latex(r"\tau_{\mathrm{numpy}}=\sigma_{\max}\cdot n\cdot\varepsilon_{\mathrm{dtype}}")
        st.latex(r"\operatorname{erank}(A)=\exp\Big(-\sum_i p_i\log p_i\Big),\quad p_i=\frac{\sigma_i}{\sum_j\sigma_j}")


def all_heads(dtype: str, tol: float | None) -> None:
    """Numerical and effective rank of every head, on request (one SVD per head and mask)."""
    if st.toggle(t("rank.all_heads"), key="rank_all", help=t("rank.all_heads_help")):
        rows = []
        for li, hi in ((li, hi) for li in range(cfg.n_layers) for hi in range(cfg.n_heads)):
            row = {t("ctl.layer"): li + 1, t("ctl.head"): hi + 1}
            for kind in MASKS:
                r = head_rank_report(settings.model, settings.weights, text, kind, li, hi, dtype, tol)
                row[t("rank.col.numerical", mask=t(f"mask.{kind}"))] = r.numerical_rank
                row[t("rank.col.effective", mask=t(f"mask.{kind}"))] = f"{r.effective_rank:.1f}"
            rows.append(row)
        st.table(rows, hide_index=True, width="stretch")


# ---------------------------------------------------------------- the sweep over lengths
@slots.fragment
def sweep() -> None:
    """Its own fragment: changing the sweep's inputs reruns only this section."""
    st.header(t("rank.sweep_title"))
    st.markdown(t("rank.sweep_intro"))
    for name in ("sweep_in", "samples"):
        state.ensure(name)
    c1, c2 = st.columns(2)
    c1.segmented_control(
        t("rank.sweep_in"),
        SWEEP_INPUTS,
        key="sweep_in",
        required=True,
        format_func=names("rank.sweep_in"),
        help=t("rank.sweep_in_help"),
    )
    c2.slider(t("rank.samples"), 2, 16, key="samples")
    shell.track("sweep_in", "samples")
    inputs, n_samples = st.session_state["sweep_in"], st.session_state["samples"]
    weights, runs = ("trained", "random"), {}
    for k, w in enumerate(weights):
        doing = t("rank.sweep_running", weights=t(f"weights.{w}"), samples=n_samples, k=k + 1, n=len(weights))
        weights_key = precision_keys.key(settings.model, w)  # trained weights in the session's precision
        runs[w] = with_status(doing, rank_sweep, settings.model, weights_key, inputs, n_samples)
    x = runs["trained"]["lengths"]
    for what in ("effective", "numerical"):
        series = sweep_bands(runs, what, lambda kind, w: t("rank.sweep_series", mask=t(f"mask.{kind}"),
                                                            weights=t(f"weights.{w}")), MASKS)  # fmt: skip
        fig = viz.lines(
            x,
            series,
            x_title=t("rank.length"),
            y_title=t(f"rank.sweep_y.{what}"),
            title=t(f"rank.sweep_fig.{what}"),
            log_x=True,
            y_range=(0, 1.05),
            scale=settings.figure_scale,
        )
        charts.plot(st, fig, key=f"sweep_{what}")
    st.caption(t("rank.sweep_caption", samples=n_samples))
    for w in ("trained", "random"):
        low, means = sweep_verdict(runs[w])
        numbers = {k: f"{v:.0%}" for k, v in means.items()}
        st.markdown(t(f"rank.verdict.{'low_effective' if low else 'other'}", weights=t(f"weights.{w}"), **numbers))


intro()
layer, head, dtype, tol = head_controls()
reports = {
    kind: head_rank_report(settings.model, settings.weights, text, kind, layer, head, dtype, tol) for kind in MASKS
}
spectra(reports, layer, head, dtype)
formulas()
measures(reports, dtype)
all_heads(dtype, tol)
sweep()
pitfall()
toy(settings.figure_scale)
