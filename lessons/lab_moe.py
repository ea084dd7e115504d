"""The lab's mixture-of-experts section: per side with experts, the total vs active parameter count, which
experts the router chose for each token in each layer, the router's probabilities and the load per expert
in the chosen layer, all read from the side's trace (Trace.router) on the prompt."""

import streamlit as st

import viz
from models import analysis
from models.core import moe
from ui import charts
from ui.i18n import t
from ui.params import SIDES


def experts_section(configs, sides, runs, layer: int, fig_scale: float) -> None:
    st.header(t("lab_moe.title"))
    with_experts = [s for s in SIDES if configs[s].n_experts and runs[s].get("router") is not None]
    if not with_experts:
        st.info(t("lab_moe.none"))
        return
    st.markdown(t("lab_moe.intro"))
    cols = st.columns(2, gap="large")
    for side, col in zip(SIDES, cols, strict=True):
        if side not in with_experts:
            continue
        cfg, run, name = configs[side], runs[side], t(f"lab.side.{side}")
        total = sum(analysis.parameter_counts(cfg).values())
        active = sum(analysis.parameter_counts(cfg, active=True).values())
        probs = run["router"]  # [L, T, n]
        chosen, gates = moe.route(probs, cfg.experts_top_k)
        li = min(layer, cfg.n_layers - 1)
        load, aux = moe.balance_of(probs[li], cfg.experts_top_k)
        experts = [str(e + 1) for e in range(cfg.n_experts)]
        columns = [f"{i} {tok}" for i, tok in enumerate(run["tokens"])]  # unique, escaped once by value_heatmap
        with col:
            st.markdown(t("lab_moe.counts", side=name, n=cfg.n_experts, k=cfg.experts_top_k, total=f"{total:,}",
                          active=f"{active:,}", share=f"{active / total:.0%}"))  # fmt: skip
            if sides[side][1] is None:
                st.caption(t("lab_moe.random_note", side=name))
            charts.plot(st,
                viz.router_choices(chosen, gates, run["tokens"], cfg.n_experts,
                                   title=t("lab_moe.choice_fig", side=name), x_title=t("lab_moe.token"),
                                   y_title=t("lab_moe.layer"), expert_word=t("lab_moe.expert"),
                                   gate_word=t("lab_moe.gate"), scale=fig_scale),
                key=f"{side}_moe_choice",
            )  # fmt: skip
            charts.plot(st,
                viz.value_heatmap(probs[li].T, experts, columns, title=t("lab_moe.probs_fig", side=name, layer=li + 1),
                                  x_title=t("lab_moe.token"), y_title=t("lab_moe.expert"),
                                  hover_name=t("lab_moe.prob"), zmin=0, square=False, index_labels=False,
                                  text_fmt=None, height=int((170 + 24 * cfg.n_experts) * fig_scale), scale=fig_scale),
                key=f"{side}_moe_probs",
            )  # fmt: skip
            charts.plot(st,
                viz.expert_load(load, title=t("lab_moe.load_fig", side=name, layer=li + 1),
                                x_title=t("lab_moe.expert"), y_title=t("lab_moe.share"),
                                ideal_word=t("lab_moe.ideal"), scale=fig_scale),
                key=f"{side}_moe_load",
            )  # fmt: skip
            st.caption(t("lab_moe.load_caption", layer=li + 1, aux=f"{aux:.3f}", k=cfg.experts_top_k,
                         most=f"{cfg.n_experts / cfg.experts_top_k:g}", weight=cfg.moe_aux_weight))  # fmt: skip
