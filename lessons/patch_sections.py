"""The "What a head causes" page's sections under its first two maps: a head opened on the Explorer, one layer's heads
by position, the residual stream, attribution patching against the exact map, the batch of eight, and the sources."""

from __future__ import annotations

from urllib.parse import urlencode

import numpy as np
import streamlit as st

import models
import viz
from ui import charts, patch_jobs, patch_pairs, shell, state
from ui.i18n import in_run_language, md, t
from ui.loaders import with_status
from ui.patch_loaders import BOOTSTRAP, patch_batch, patch_positions
from ui.state import Settings

GAP = 0.2  # a head whose estimate and exact share differ by more than this is named on the scatter
BATCH_TOP = 12  # heads drawn in the batch figure


def draw_partial(job: patch_jobs.Job) -> None:
    """While a published model's map is computed: the layers done so far, a progress line and Cancel."""
    st.progress(job.done / job.n_layers, text=t("patch.progress", done=job.done, layers=job.n_layers))
    if job.partial is not None:
        rows, cols = viz.head_names(*job.partial.shape)
        fig = viz.signed_cells(job.partial, rows, cols, title=t("patch.map_title"), x_title=t("patch.head"),
                               y_title=t("patch.layer"), value_name=t("patch.recovered"),
                               scale=state.current().figure_scale)  # fmt: skip
        charts.plot(st, fig, key="pt_live")
    st.button(t("patch.cancel"), key="pt_cancel", on_click=job.cancel.set, icon=":material/stop_circle:")


def cancelled(key: tuple) -> None:
    """A cancelled map: said, with a button that starts it again."""
    st.info(t("patch.cancelled"))
    st.button(t("patch.run_again"), key="pt_again", on_click=patch_jobs.forget, args=(key,))


def _cell(index: int, n_heads: int) -> tuple[int, int]:
    return index // n_heads, index % n_heads


def explorer_link(model_name: str, clean: str, recovered: np.ndarray) -> None:
    """Every head, the largest recovered share first, and a link that opens the one picked on the Explorer on the
    clean prompt: where does it look? The pick is bound to the URL (the guided lesson's goal reads it)."""
    n_heads = recovered.shape[1]
    order = [int(i) for i in np.argsort(-np.nan_to_num(recovered.ravel(), nan=-np.inf), kind="stable")]
    tr = in_run_language()  # AppTest may call format_func after the run

    def label(i: int) -> str:
        layer, head = _cell(i, n_heads)
        return tr("patch.head_option", layer=layer + 1, head=head + 1, share=f"{recovered[layer, head]:.2f}")

    state.ensure("pt_head")
    if st.session_state["pt_head"] not in order:  # none yet, or a head this model lacks: the largest share
        st.session_state["pt_head"] = order[0]
    c1, c2 = st.columns([2, 3], vertical_alignment="bottom")
    c1.selectbox(t("patch.open_head"), order, format_func=label, key="pt_head")
    shell.track("pt_head")
    layer, head = _cell(st.session_state["pt_head"], n_heads)
    query = urlencode({"model": model_name, "layer": layer + 1, "head": head + 1, "prompt": clean,
                       "lang": state.lang()})  # fmt: skip
    c2.link_button(t("patch.open", layer=layer + 1, head=head + 1), f"explorer?{query}", icon=":material/grid_on:")


def by_position(settings: Settings, model_name: str, texts: tuple, run: dict, rows: list[str], cols: list[str]) -> None:
    """One layer's heads patched one position at a time: the columns say where in the prompt a head's effect lives."""
    n_layers = len(rows)
    state.ensure("pt_layer")
    st.session_state["pt_layer"] = min(max(st.session_state["pt_layer"] or 0, 0), n_layers - 1)
    number = lambda i: str(i + 1)  # noqa: E731
    st.subheader(t("patch.pos_title", layer=st.session_state["pt_layer"] + 1))
    if n_layers <= 12:
        st.segmented_control(t("patch.pos_layer"), list(range(n_layers)), format_func=number, key="pt_layer",
                             required=True)  # fmt: skip
    else:
        st.select_slider(t("patch.pos_layer"), list(range(n_layers)), format_func=number, key="pt_layer")
    shell.track("pt_layer")
    layer = st.session_state["pt_layer"]
    # a published model: heads × positions patched runs, so on demand (the toy decoder's take a moment)
    if model_name not in models.SHIPPED and not st.toggle(t("patch.pos_toggle"), key="pt_pos_on"):
        st.caption(t("patch.pos_off", n=len(run["tokens"])))
        return
    label = t("patch.computing", name=md(model_name))
    share = with_status(label, patch_positions, model_name, settings.weights, *texts)[layer]  # [H, T]
    shell.plot(
        viz.token_cells(share, cols, run["tokens"], title="",
                        x_title=t("patch.position"), y_title=t("patch.head"), value_name=t("patch.recovered"),
                        scale=settings.figure_scale),
        key="pt_positions", matrix=share, rows=cols, cols=run["tokens"],
    )  # fmt: skip
    st.caption(t("patch.pos_caption"))


def residual(settings: Settings, run: dict) -> None:
    share = run["resid_recovered"]  # [L, T]
    rows = [f"L{i + 1}" for i in range(share.shape[0])]
    st.subheader(t("patch.resid_title"))
    shell.plot(
        viz.token_cells(share, rows, run["tokens"], title="", x_title=t("patch.position"),
                        y_title=t("patch.layer"), value_name=t("patch.recovered"), scale=settings.figure_scale),
        key="pt_resid", matrix=share, rows=rows, cols=run["tokens"],
    )  # fmt: skip
    st.caption(t("patch.resid_caption"))


def estimate(settings: Settings, run: dict, rows: list[str], cols: list[str]) -> None:
    exact, est = run["recovered"].ravel(), run["est_recovered"].ravel()
    names = [f"{r}{c}" for r in rows for c in cols]
    flagged = np.isfinite(exact) & np.isfinite(est) & (np.abs(exact - est) > GAP)
    st.subheader(t("patch.est_title"))
    c1, c2 = st.columns([3, 2])
    shell.plot(
        viz.estimate_scatter(exact, est, names, flagged=flagged, title="", x_title=t("patch.est_x"),
                             y_title=t("patch.est_y"), line_name=t("patch.est_line"),
                             flagged_name=t("patch.est_flagged"), others_name=t("patch.est_others"),
                             scale=settings.figure_scale),
        key="pt_estimate", where=c1,
    )  # fmt: skip
    shown = [names[i] for i in np.flatnonzero(flagged)]
    named = t("patch.est_some", heads=", ".join(shown)) if shown else t("patch.est_none")
    c2.caption(t("patch.est_caption", gap=GAP, named=named))


def batch(settings: Settings, model_name: str) -> None:
    """Eight pairs of the selected template behind a toggle (eight more patching runs), each head's mean share with its
    bootstrap interval."""
    st.subheader(t("patch.batch_title"))
    state.ensure("pt_batch")
    st.toggle(t("patch.batch_toggle"), key="pt_batch", help=t("patch.batch_help"))
    shell.track("pt_batch")
    if not st.session_state["pt_batch"]:
        return
    kind = st.session_state.get("pt_template") or patch_pairs.TEMPLATES[0]
    out = with_status(t("patch.batch_computing", name=md(model_name)), patch_batch, model_name, settings.weights, kind)
    if not out["n"]:
        st.info(t("patch.batch_none"))
        return
    mean, n_heads = out["mean"].ravel(), out["mean"].shape[1]
    top = [int(i) for i in np.argsort(-np.nan_to_num(mean, nan=-np.inf))[:BATCH_TOP]]
    names = [f"L{i // n_heads + 1}H{i % n_heads + 1}" for i in top]
    low, high = out["low"].ravel()[top], out["high"].ravel()[top]
    shell.plot(
        viz.interval_bars(mean[top], low, high, names, title=t("patch.batch_fig", n=out["n"]),
                          x_title=t("patch.batch_x"), value_name=t("patch.batch_x"), scale=settings.figure_scale),
        key="pt_batch_fig", matrix=np.stack([mean[top], low, high], 1), rows=names,
        cols=[t("patch.mean"), "2.5%", "97.5%"],
    )  # fmt: skip
    left = out["tried"] - out["n"]
    note = t("patch.batch_left", n=left, tried=out["tried"]) if left else ""
    st.caption(t("patch.batch_caption", top=len(top), boot=f"{BOOTSTRAP:,}", left=note))


def sources() -> None:
    with st.expander(t("patch.sources_title")):
        st.markdown(t("patch.sources"))
