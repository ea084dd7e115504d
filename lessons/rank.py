"""Attention rank: causal vs bidirectional, exact vs numerical vs effective rank, and precision."""

import numpy as np
import streamlit as st

import viz
from models import analysis
from ui import controls, shell, state
from ui.i18n import names, t
from ui.loaders import rank_report, rank_sweep
from ui.params import DTYPES, PIT_SIGMAS, SWEEP_INPUTS, TOLERANCES, TOY_MASKS
from viz.palette import MASK_KIND_COLORS, WEIGHT_DASH
from viz.plots import Series

MASKS = ("causal", "bidirectional")

settings = state.current()
model = shell.model_or_stop(settings)
text = shell.prompt_or_stop(settings, model)
cfg = model.config
st.markdown(t("rank.intro"))
if cfg.arch == "encoder-decoder":
    st.caption(t("rank.encdec_note"))
# Short formulas, one per line: a long one does not fit a phone.
st.latex(
    r"A=\begin{pmatrix}a_{11}&0&\cdots&0\\a_{21}&a_{22}&\cdots&0\\\vdots&&\ddots&\vdots\\"
    r"a_{n1}&a_{n2}&\cdots&a_{nn}\end{pmatrix}"
)
st.latex(r"\det A=\prod_{i=1}^{n}a_{ii},\qquad a_{ii}=\frac{e^{s_{ii}}}{\sum_{j\le i}e^{s_{ij}}}>0")

# ---------------------------------------------------------------- the prompt, one head, both masks
st.header(t("rank.prompt_title"))
layer, head = controls.layer_head(cfg)
for name in ("dtype", "tol"):
    state.ensure(name)
c1, c2 = st.columns(2)
c1.segmented_control(t("rank.dtype"), DTYPES, key="dtype", required=True, help=t("rank.dtype_help"))
c2.select_slider(t("rank.tol"), TOLERANCES, key="tol", format_func=names("rank.tol"), help=t("rank.tol_help"))
shell.track("dtype", "tol")
dtype, tol_name = st.session_state["dtype"], st.session_state["tol"]
tol = None if tol_name == "auto" else float(tol_name)
reports = {kind: rank_report(settings.model, settings.weights, text, kind, layer, head, dtype, tol) for kind in MASKS}
n = reports["causal"].n

cols = st.columns(2)
for col, kind in zip(cols, MASKS, strict=True):
    r = reports[kind]
    fig = viz.plots.lines(
        np.arange(1, n + 1),
        [Series(t(f"mask.{kind}"), r.singular_values, color=MASK_KIND_COLORS[kind])],
        x_title=t("rank.sv_index"),
        y_title=t("rank.sv"),
        title=t("rank.spectrum_title", mask=t(f"mask.{kind}"), layer=layer + 1, head=head + 1, dtype=dtype),
        log_y=True,
        hlines=[(r.tolerance, t("rank.tol_line", tol=f"{r.tolerance:.1e}"))],
        scale=settings.scale,
    )
    col.plotly_chart(fig, key=f"spectrum_{kind}")


def _exact(r: analysis.RankReport) -> str:
    return t("rank.exact_full", n=r.n) if r.exact_full_rank else t("rank.exact_unknown")


rows = {
    t("rank.row.n"): lambda r: str(r.n),
    t("rank.row.numerical", dtype=dtype): lambda r: f"{r.numerical_rank} / {r.n}",
    t("rank.row.tol"): lambda r: f"{r.tolerance:.2e}",
    t("rank.row.effective"): lambda r: f"{r.effective_rank:.1f}  ({r.effective_rank / r.n:.0%})",
    t("rank.row.condition"): lambda r: f"{r.condition_number:.3g}",
    t("rank.row.min_diag", dtype=dtype): lambda r: f"{r.min_diagonal:.3g}",
    t("rank.row.log10_diag"): lambda r: f"{r.log10_min_diagonal:.1f}",
    t("rank.row.logdet"): lambda r: f"{r.log_abs_det:.4g}",
    t("rank.row.exact"): _exact,
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

if st.toggle(t("rank.all_heads"), key="rank_all", help=t("rank.all_heads_help")):
    table: dict[str, list] = {t("ctl.layer"): [], t("ctl.head"): []}
    for kind in MASKS:
        table[t("rank.col.numerical", mask=t(f"mask.{kind}"))] = []
        table[t("rank.col.effective", mask=t(f"mask.{kind}"))] = []
    for li in range(cfg.n_layers):
        for hi in range(cfg.n_heads):
            table[t("ctl.layer")].append(li + 1)
            table[t("ctl.head")].append(hi + 1)
            for kind in MASKS:
                r = rank_report(settings.model, settings.weights, text, kind, li, hi, dtype, tol)
                table[t("rank.col.numerical", mask=t(f"mask.{kind}"))].append(r.numerical_rank)
                table[t("rank.col.effective", mask=t(f"mask.{kind}"))].append(f"{r.effective_rank:.1f}")
    st.table(table, hide_index=True, width="stretch")


# ---------------------------------------------------------------- the sweep over lengths
@st.fragment
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
    with st.spinner(t("rank.sweep_running")):
        runs = {w: rank_sweep(settings.model, w, inputs, n_samples) for w in ("trained", "random")}
    x = runs["trained"]["lengths"]
    for what in ("effective", "numerical"):
        series = [
            Series(
                t("rank.sweep_series", mask=t(f"mask.{kind}"), weights=t(f"weights.{w}")),
                runs[w][f"{kind}.{what}"].mean(-1),
                low=runs[w][f"{kind}.{what}"].min(-1),
                high=runs[w][f"{kind}.{what}"].max(-1),
                color=MASK_KIND_COLORS[kind],
                dash=WEIGHT_DASH[w],
            )
            for w in ("trained", "random")
            for kind in MASKS
        ]
        fig = viz.plots.lines(
            x,
            series,
            x_title=t("rank.length"),
            y_title=t(f"rank.sweep_y.{what}"),
            title=t(f"rank.sweep_fig.{what}"),
            log_x=True,
            y_range=(0, 1.05),
            scale=settings.scale,
        )
        st.plotly_chart(fig, key=f"sweep_{what}")
    st.caption(t("rank.sweep_caption", samples=n_samples))
    for w in ("trained", "random"):
        r = runs[w]
        bi_num, c_num = r["bidirectional.numerical"].mean(), r["causal.numerical"].mean()
        bi_eff, c_eff = r["bidirectional.effective"].mean(), r["causal.effective"].mean()
        key = "rank.verdict.low_effective" if bi_num >= 0.99 and bi_eff < c_eff else "rank.verdict.other"
        st.markdown(
            t(
                key,
                weights=t(f"weights.{w}"),
                bn=f"{bi_num:.0%}",
                cn=f"{c_num:.0%}",
                be=f"{bi_eff:.0%}",
                ce=f"{c_eff:.0%}",
            )
        )


sweep()


# ---------------------------------------------------------------- the float32 pitfall, reproduced
@st.fragment
def pitfall() -> None:
    """Random q, k (no model): the case where a naive matrix_rank rates causal below bidirectional."""
    st.header(t("rank.pit_title"))
    st.markdown(t("rank.pit_intro"))
    for name in ("pit_n", "pit_d", "pit_sigma"):
        state.ensure(name)
    c1, c2, c3 = st.columns(3)
    c1.slider("n", 4, 256, key="pit_n")
    c2.slider("d", 1, 64, key="pit_d")
    c3.select_slider(t("rank.pit_sigma"), PIT_SIGMAS, key="pit_sigma", help=t("rank.pit_sigma_help"))
    shell.track("pit_n", "pit_d", "pit_sigma")
    n, d, sigma = st.session_state["pit_n"], st.session_state["pit_d"], st.session_state["pit_sigma"]
    rng = np.random.default_rng(0)
    scores = rng.normal(0, sigma, (n, d)) @ rng.normal(0, sigma, (n, d)).T / np.sqrt(d)
    cases = {"causal": np.where(np.tril(np.ones((n, n), bool)), scores, -np.inf), "bidirectional": scores}
    got = {(k, dt): analysis.rank_report(v, np.dtype(dt)) for k, v in cases.items() for dt in DTYPES}
    st.table(
        {
            t("rank.measure"): [t("rank.pit_row", mask=t(f"mask.{k}"), dtype=dt) for k in cases for dt in DTYPES],
            t("rank.row.numerical", dtype=""): [f"{got[k, dt].numerical_rank} / {n}" for k in cases for dt in DTYPES],
            t("rank.row.min_diag", dtype=""): [f"{got[k, dt].min_diagonal:.3g}" for k in cases for dt in DTYPES],
            t("rank.row.condition"): [f"{got[k, dt].condition_number:.3g}" for k in cases for dt in DTYPES],
            t("rank.row.logdet"): [f"{got[k, dt].log_abs_det:.4g}" for k in cases for dt in DTYPES],
        },
        hide_index=True,
        width="stretch",
    )
    c32, b32 = got["causal", "float32"].numerical_rank, got["bidirectional", "float32"].numerical_rank
    key = "rank.pit_paradox" if c32 < b32 else "rank.pit_no_paradox"
    st.markdown(t(key, c=c32, b=b32, n=n, exp=f"{got['causal', 'float64'].log10_min_diagonal:.0f}"))


pitfall()

# ---------------------------------------------------------------- a toy the student edits by hand
st.header(t("rank.toy_title"))
st.markdown(t("rank.toy_intro"))
for name in ("toy_n", "toy_mask", "toy_seed", "toy_sharp", "toy_row"):
    state.ensure(name)
c1, c2, c3 = st.columns(3)
c1.slider(t("rank.toy_n"), 2, 6, key="toy_n")
c2.segmented_control(t("rank.toy_mask"), TOY_MASKS, key="toy_mask", format_func=names("mask"), required=True)
c3.number_input(t("rank.toy_seed"), 0, 999, key="toy_seed", help=t("rank.toy_seed_help"))
size, kind, seed = st.session_state["toy_n"], st.session_state["toy_mask"], st.session_state["toy_seed"]
st.session_state["toy_row"] = min(st.session_state["toy_row"], size - 1)
c1, c2 = st.columns(2)
c1.slider(t("rank.toy_sharp"), 1, 100, key="toy_sharp", help=t("rank.toy_sharp_help"))
c2.segmented_control(
    t("rank.toy_row"), list(range(size)), format_func=lambda i: str(i + 1), key="toy_row", required=True
)
shell.track("toy_n", "toy_mask", "toy_seed", "toy_sharp", "toy_row")
sharp, row = st.session_state["toy_sharp"], st.session_state["toy_row"]

# The logits live outside widget state (a slider not drawn this run would lose its value):
# random from the seed, then whatever the student dragged, per (size, seed).
store = st.session_state.setdefault("_toy_logits", {})
logits = store.setdefault((size, seed), np.round(np.random.default_rng(seed).normal(0, 1, (size, size)), 1))
allowed = np.tril(np.ones((size, size), bool)) if kind == "causal" else np.ones((size, size), bool)
if st.session_state.get("_toy_shown") != (size, seed, row):
    for j in range(size):  # the sliders show the selected row's stored logits
        st.session_state[f"toy_l{j}"] = float(logits[row, j])
    st.session_state["_toy_shown"] = (size, seed, row)
st.caption(t("rank.toy_row_caption", row=row + 1))
sliders = st.columns(size)
for j in range(size):
    disabled = not allowed[row, j]
    sliders[j].slider(
        t("rank.toy_logit", i=row + 1, j=j + 1),
        -10.0,
        10.0,
        step=0.1,
        key=f"toy_l{j}",
        disabled=disabled,
        help=t("rank.toy_masked") if disabled else None,
    )
    logits[row, j] = st.session_state[f"toy_l{j}"]
scores = np.where(allowed, logits * sharp, -np.inf)
tok = [str(i + 1) for i in range(size)]
c1, c2 = st.columns(2)
c1.plotly_chart(
    viz.plots.value_heatmap(
        scores,
        tok,
        tok,
        title=t("rank.toy_scores", sharp=sharp),
        colorscale="diverging",
        x_title=t("lbl.key"),
        y_title=t("lbl.query"),
        hover_name=t("rank.score"),
        text_fmt=".1f",
        index_labels=False,  # the toy's tokens are the numbers 1..n themselves
        scale=settings.scale,
    ),
    key="toy_scores",
)
weights64 = analysis.softmax(scores, np.float64)
c2.plotly_chart(
    viz.plots.value_heatmap(
        weights64,
        tok,
        tok,
        title=t("rank.toy_weights"),
        zmin=0,
        zmax=1,
        x_title=t("lbl.key"),
        y_title=t("lbl.query"),
        hover_name=t("lbl.weight"),
        text_fmt=".3g",
        index_labels=False,
        scale=settings.scale,
    ),
    key="toy_weights",
)
toy = {d: analysis.rank_report(scores, np.dtype(d)) for d in DTYPES}
st.table(
    {
        t("rank.measure"): [
            t("rank.row.numerical", dtype=""),
            t("rank.row.min_diag", dtype=""),
            t("rank.row.sv_min"),
            t("rank.row.det"),
            t("rank.row.logdet"),
            t("rank.row.exact"),
        ],
        **{
            d: [
                f"{r.numerical_rank} / {r.n}",
                f"{r.min_diagonal:.3g}",
                f"{r.singular_values[-1]:.3g}",
                f"{np.exp(r.log_abs_det):.3g}",
                f"{r.log_abs_det:.4g}",
                _exact(r),
            ]
            for d, r in toy.items()
        },
    },
    hide_index=True,
    width="stretch",
)
st.markdown(t(f"rank.toy_explain.{kind}"))
