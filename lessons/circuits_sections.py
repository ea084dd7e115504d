"""The "Circuits between heads" page's sections under its first: composition scores, path patching from one head,
a head's OV and QK circuits in tokens, and the sources."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import viz
from ui import shell, state
from ui.circuit_loaders import composition_run, path_run, role_scores, token_circuits
from ui.i18n import code_span, in_run_language, md, t
from ui.loaders import get_model, with_status
from ui.state import Settings
from viz.circuits import composition_grid, composition_map, head_labels

INPUTS = ("q", "k", "v")


def error(run: dict) -> None:
    """Say a loader's {"error": ...} in the page's language."""
    fields = {k: v for k, v in run.items() if k != "error"}
    if "detail" in fields:
        fields["detail"] = md(fields["detail"])
    key = run["error"]
    (st.info if key in ("empty", "vocab", "no_word") else st.warning)(t(f"circuits.err.{key}", **fields))


def best_pair(scores: dict[str, np.ndarray] | None) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The field guide's best previous-token head and its best induction head in a later layer (None: one layer, or
    no field guide for this model)."""
    if scores is None:
        return None
    prev, ind = scores["previous_token"], scores["induction"]
    n_layers = prev.shape[0]
    if n_layers < 2:
        return None
    s = np.unravel_index(int(np.nanargmax(np.where(np.isfinite(prev[:-1]), prev[:-1], -np.inf))), prev[:-1].shape)
    later = np.full_like(ind, -np.inf)
    later[s[0] + 1 :] = np.nan_to_num(ind[s[0] + 1 :], nan=-np.inf)
    r = np.unravel_index(int(np.argmax(later)), ind.shape)
    return (int(s[0]), int(s[1])), (int(r[0]), int(r[1]))


def composition(settings: Settings, model_name: str) -> None:
    st.subheader(t("circuits.comp_title"))
    st.markdown(t("circuits.comp_intro"))
    run = with_status(t("circuits.computing", name=md(model_name)), composition_run, model_name, settings.weights)
    if "error" in run:
        error(run)
        return
    tr = in_run_language()
    roles = run["roles"]
    labels = head_labels(roles, {r: tr(f"heads.role.{r}") for r in np.unique(roles) if r})
    grids = [composition_grid(m) for m in run["maps"].values()]
    top = max((float(np.nanmax(g)) for g in grids if np.isfinite(g).any()), default=1.0)
    tabs = st.tabs([t(f"circuits.kind.{k}") for k in ("K", "Q", "V")])
    for tab, kind in zip(tabs, ("K", "Q", "V"), strict=True):
        base = run["baselines"][kind]
        shell.plot(
            composition_map(run["maps"][kind], labels, title=t(f"circuits.kind.{kind}"),
                            sender=t("circuits.sender"), receiver=t("circuits.receiver"),
                            value_name=t("circuits.score"), baseline=base, baseline_name=t("circuits.baseline"),
                            limit=top, scale=settings.figure_scale),
            key=f"cc_comp_{kind}", matrix=composition_grid(run["maps"][kind]), rows=labels, cols=labels, where=tab,
        )  # fmt: skip
        tab.caption(t("circuits.comp_caption", kind=t(f"circuits.kind.{kind}"), baseline=f"{base:.3f}"))
    pair = best_pair(role_scores(model_name, settings.weights))
    if pair is None:
        return
    (l1, h1), (l2, h2) = pair
    m = run["maps"]
    st.markdown(t("circuits.comp_pair", sender=f"L{l1 + 1}H{h1 + 1}", receiver=f"L{l2 + 1}H{h2 + 1}",
                  **{k.lower(): f"{m[k][l1, h1, l2, h2]:.3f}" for k in ("K", "Q", "V")},
                  baseline=f"{run['baselines']['K']:.3f}"))  # fmt: skip


def path(settings: Settings, model_name: str, texts: tuple[str, str, str, str]) -> None:
    """Path patching from a sender (default: the field guide's best previous-token head) into every later head."""
    st.subheader(t("circuits.path_title"))
    st.markdown(t("circuits.path_intro"))
    scores = role_scores(model_name, settings.weights)
    cfg = get_model(model_name, settings.weights).config
    n_layers, n_heads = cfg.n_layers, cfg.n_heads
    if n_layers < 2:
        st.info(t("circuits.path_none"))
        return
    options = list(range((n_layers - 1) * n_heads))
    for key in ("cc_sender", "cc_input"):
        state.ensure(key)
    s = st.session_state
    if s["cc_sender"] not in options:
        pair = best_pair(scores)
        s["cc_sender"] = pair[0][0] * n_heads + pair[0][1] if pair else 0
    roles = composition_run(model_name, settings.weights).get("roles")
    tr = in_run_language()

    def label(i: int) -> str:
        role = roles[i // n_heads, i % n_heads] if roles is not None else ""
        if not role:
            return f"L{i // n_heads + 1}H{i % n_heads + 1}"
        return tr("circuits.path_option", layer=i // n_heads + 1, head=i % n_heads + 1, role=tr(f"heads.role.{role}"))

    c1, c2 = st.columns([2, 3])
    c1.selectbox(t("circuits.path_sender"), options, format_func=label, key="cc_sender")
    c2.segmented_control(t("circuits.path_input"), INPUTS, key="cc_input", required=True)
    shell.track("cc_sender", "cc_input")
    sender = (s["cc_sender"] // n_heads, s["cc_sender"] % n_heads)
    run = with_status(t("circuits.computing", name=md(model_name)), path_run, model_name, settings.weights, *texts,
                      sender, s["cc_input"])  # fmt: skip
    if "error" in run:
        error(run)
        return
    a, w = code_span(run["answer"]), code_span(run["wrong"])
    clean, corr = f"{run['clean']:.3f}", f"{run['corrupted']:.3f}"
    if not run["disagree"]:
        st.warning(t("circuits.path_agree", a=a, w=w, clean=clean, corrupted=corr))
        return
    rec = run["recovered"]
    rows, cols = viz.head_names(*rec.shape)
    shell.plot(
        viz.signed_cells(rec, rows, cols, title=t("circuits.path_map", layer=sender[0] + 1, head=sender[1] + 1,
                                                   input=s["cc_input"]),
                         x_title=t("circuits.head"), y_title=t("circuits.layer"), value_name=t("circuits.recovered"),
                         extra=run["patched"], extra_name=t("circuits.patched"),
                         note=t("circuits.path_note", clean=clean, corrupted=corr), scale=settings.figure_scale),
        key="cc_path", matrix=rec, rows=rows, cols=cols,
    )  # fmt: skip
    st.caption(t("circuits.path_caption", a=a, w=w, clean=clean, corrupted=corr))
    _hint(texts)


def _hint(texts: tuple[str, str, str, str]) -> None:
    """The repeated-span template corrupts the copied word: say how to corrupt the clue instead (issue 43's lesson)."""
    clean, corrupted, answer, wrong = texts
    a, b = clean.split(), corrupted.split()
    if len(a) != len(b) or answer not in a:
        return
    i = a.index(answer)
    if i == 0 or a[i] == b[i] or a[i - 1] != b[i - 1]:  # only where the copied word, not the clue, was changed
        return
    st.info(t("circuits.path_hint", clue=code_span(a[i - 1]), other=code_span(wrong), answer=code_span(answer)))


def tokens(settings: Settings, model_name: str, layer: int, head: int) -> None:
    """The head of the first section: its OV and QK circuits in tokens, copying score, OV's singular values."""
    st.subheader(t("circuits.tok_title", layer=layer + 1, head=head + 1))
    st.markdown(t("circuits.tok_intro"))
    run = with_status(t("circuits.computing", name=md(model_name)), token_circuits, model_name, settings.weights,
                      layer, head)  # fmt: skip
    if "error" in run:
        error(run)
        return
    c1, c2 = st.columns(2)
    for where, key, cols in ((c1, "ov", ("source", "output")), (c2, "qk", ("query", "key"))):
        where.markdown(f"**{t(f'circuits.{key}_table')}**")
        frame = pd.DataFrame([(a, b, f"{v:.2f}") for a, b, v in run[key]],
                             columns=[t(f"circuits.col.{c}") for c in (*cols, "value")])  # fmt: skip
        where.dataframe(frame, hide_index=True, width="stretch")
    st.markdown(t("circuits.copying", score=f"{run['copying']:+.2f}"))
    sv = run["singular"]
    names = [str(i + 1) for i in range(len(sv))]
    shell.plot(
        viz.bars(sv, names, x_title=t("circuits.sv_x"), y_title=t("circuits.sv_y"), text_fmt=None,
                 title=t("circuits.sv_title", layer=layer + 1, head=head + 1), scale=settings.figure_scale),
        key="cc_sv", matrix=sv[None], rows=[t("circuits.sv_y")], cols=names,
    )  # fmt: skip
    c1, c2 = st.columns([3, 2], vertical_alignment="center")
    c1.markdown(t("circuits.rank", rank=f"{run['rank']:.1f}", most=len(sv)))
    c2.page_link("lessons/rank.py", label=t("circuits.rank_link"), icon=":material/stacked_line_chart:")


def sources() -> None:
    with st.expander(t("circuits.sources_title")):
        st.markdown(t("circuits.sources"))
