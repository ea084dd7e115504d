"""The lens page's knock-out section: pick heads of a layer, zero them or flatten their pattern, compare."""

import math

import streamlit as st

import models
import viz
from ui import charts, shell, state
from ui.head_loaders import copying, induction, knockout
from ui.i18n import md, names, t
from ui.loaders import with_status
from ui.state import Settings

MODES = ("zero", "uniform")


def _controls(cfg: models.ModelConfig) -> tuple[int, tuple[int, ...], str]:
    """Layer, heads and mode, bound to the URL; a layer or head this model does not have is dropped."""
    for name in ("ko_layer", "ko_heads", "ko_mode"):
        state.ensure(name)
    s = st.session_state
    s["ko_layer"] = min(s["ko_layer"], cfg.n_layers - 1)
    s["ko_heads"] = [h for h in s["ko_heads"] if h < cfg.n_heads]
    number = lambda i: str(i + 1)  # noqa: E731
    c1, c2, c3 = st.columns([2, 3, 2])
    if cfg.n_layers <= 8:
        c1.segmented_control(
            t("lens.ko_layer"), list(range(cfg.n_layers)), format_func=number, key="ko_layer", required=True
        )
    else:
        c1.select_slider(t("lens.ko_layer"), list(range(cfg.n_layers)), format_func=number, key="ko_layer")
    c2.pills(t("lens.ko_heads"), list(range(cfg.n_heads)), format_func=number, key="ko_heads", selection_mode="multi")
    c3.segmented_control(t("lens.ko_mode"), MODES, format_func=names("lens.ko_mode"), key="ko_mode", required=True)
    shell.track("ko_layer", "ko_heads", "ko_mode")
    return s["ko_layer"], tuple(sorted(s["ko_heads"])), s["ko_mode"]


def knockout_section(settings: Settings, model_name: str, model: models.LiveModel, text: str, tokens) -> None:
    st.subheader(t("lens.ko_title"))
    st.markdown(t("lens.ko_explain"))
    cfg = model.config
    layer, heads, mode = _controls(cfg)
    scores = with_status(t("lens.computing_scores", name=md(model_name)), induction, model_name, settings.weights)
    st.caption(
        t(
            "lens.induction_hint",
            layer=layer + 1,
            scores=", ".join(f"H{h + 1} {scores[layer, h]:.2f}" for h in range(cfg.n_heads)),
        )
    )
    if not heads:
        st.info(t("lens.ko_none"))
        return
    ko = knockout(model_name, settings.weights, text, layer, heads, mode)
    which = "lens.ko_knocked_one" if len(heads) == 1 else "lens.ko_knocked"
    knocked_name = t(which, layer=layer + 1, heads=", ".join(str(h + 1) for h in heads))
    c1, c2 = st.columns([3, 2])
    charts.plot(
        c1,
        viz.bars(
            ko["p_knocked"],
            ko["names"],
            x_title=t("common.next_token"),
            y_title=t("common.prob"),
            title=t("lens.ko_bars_title", token=tokens[-1]),
            text_fmt=".2f",
            y_range=(0, 1.05),
            reference=ko["p_base"],
            names_shown=(knocked_name, t("lens.ko_unchanged")),
            scale=settings.figure_scale,
        ),
        key="ko_bars",
    )
    if math.isnan(ko["loss_base"]):
        c2.info(t("lens.loss_one_token"))
    else:
        delta = ko["loss_knocked"] - ko["loss_base"]
        c2.metric(t("lens.loss_before"), f"{ko['loss_base']:.3f}", help=t("lens.loss_help"))
        c2.metric(t("lens.loss_after"), f"{ko['loss_knocked']:.3f}", f"{delta:+.3f}", delta_color="inverse")
    c2.markdown(t("lens.ko_numbers", changed=ko["changed"], n=len(tokens), tv=f"{ko['total_variation']:.3f}"))
    label = t("lens.computing_copy", name=md(model_name))
    base = with_status(label, copying, model_name, settings.weights, None, (), "zero")
    knocked = with_status(label, copying, model_name, settings.weights, layer, heads, mode)
    c2.markdown(t("lens.copy", base=f"{base:.2f}", knocked=f"{knocked:.2f}"))
