"""The Explorer's router section for a published mixture-of-experts model (Mixtral): which experts each token of
the prompt goes to in every layer, with their gate weights, and the chosen layer's router probabilities and load
per expert, all read from the trace (Trace.router: softmax of the router's logits, [L, T, n_experts])."""

import numpy as np
import streamlit as st

import viz
from models import analysis
from models.core import moe
from ui import charts
from ui.i18n import t


def router_section(cfg, probs: np.ndarray, tokens: list[str], layer: int, fig_scale: float) -> None:
    st.subheader(t("explorer.router_title"))
    total = sum(analysis.parameter_counts(cfg).values())
    active = sum(analysis.parameter_counts(cfg, active=True).values())
    st.markdown(t("explorer.router_intro", n=cfg.n_experts, k=cfg.experts_top_k, total=f"{total:,}",
                  active=f"{active:,}", share=f"{active / total:.0%}"))  # fmt: skip
    chosen, gates = moe.route(probs, cfg.experts_top_k, cfg.moe_renormalize)
    li = min(layer, probs.shape[0] - 1)
    load, aux = moe.balance_of(probs[li], cfg.experts_top_k)
    charts.plot(st,
        viz.router_choices(chosen, gates, tokens, cfg.n_experts, title=t("explorer.router_choice_fig"),
                           x_title=t("lab_moe.token"), y_title=t("lab_moe.layer"), expert_word=t("lab_moe.expert"),
                           gate_word=t("lab_moe.gate"), scale=fig_scale),
        key="explorer_router_choice",
    )  # fmt: skip
    experts = [str(e + 1) for e in range(cfg.n_experts)]
    columns = [f"{i} {tok}" for i, tok in enumerate(tokens)]
    charts.plot(st,
        viz.value_heatmap(probs[li].T, experts, columns, title=t("explorer.router_probs_fig", layer=li + 1),
                          x_title=t("lab_moe.token"), y_title=t("lab_moe.expert"), hover_name=t("lab_moe.prob"),
                          zmin=0, square=False, index_labels=False, text_fmt=None,
                          height=int((170 + 24 * cfg.n_experts) * fig_scale), scale=fig_scale),
        key="explorer_router_probs",
    )  # fmt: skip
    charts.plot(st,
        viz.expert_load(load, title=t("explorer.router_load_fig", layer=li + 1), x_title=t("lab_moe.expert"),
                        y_title=t("lab_moe.share"), ideal_word=t("lab_moe.ideal"), scale=fig_scale),
        key="explorer_router_load",
    )  # fmt: skip
    # transformers' load_balancing_loss_func: k × this layer's value (tests/models/test_router_loss_hf.py)
    hf = cfg.experts_top_k * aux
    st.caption(t("explorer.router_caption", k=cfg.experts_top_k, aux=f"{aux:.3f}", hf=f"{hf:.3f}", layer=li + 1))
