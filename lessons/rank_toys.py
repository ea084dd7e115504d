"""The rank lesson's two sections without a model: the float32 pitfall on random q, k, and a toy
attention matrix the student edits by hand."""

import numpy as np
import streamlit as st

import viz
from models import analysis
from ui import charts, shell, slots, state
from ui.i18n import names, t
from ui.params import DTYPES, PIT_SIGMAS, TOY_MASKS


def exact_text(r: analysis.RankReport) -> str:
    return t("rank.exact_full", n=r.n) if r.exact_full_rank else t("rank.exact_unknown")


# ---------------------------------------------------------------- the float32 pitfall, reproduced
@slots.fragment
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


# ---------------------------------------------------------------- a toy the student edits by hand
def toy(fig_scale: float) -> None:
    """A few logits the student drags by hand, their softmax, and its ranks in both precisions."""
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
    charts.plot(
        c1,
        viz.value_heatmap(
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
            scale=fig_scale,
        ),
        key="toy_scores",
    )
    weights64 = analysis.softmax(scores, np.float64)
    charts.plot(
        c2,
        viz.value_heatmap(
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
            scale=fig_scale,
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
                    exact_text(r),
                ]
                for d, r in toy.items()
            },
        },
        hide_index=True,
        width="stretch",
    )
    st.markdown(t(f"rank.toy_explain.{kind}"))
