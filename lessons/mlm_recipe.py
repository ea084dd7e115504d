"""The MLM page's BERT recipe section: one seeded draw of the 15% / 80-10-10 recipe on the prompt,
BERT's exact count beside this app's per-token rule, and the shares converging over 10,000 draws."""

import random

import numpy as np
import streamlit as st

import viz
from models.training import mlm
from ui import charts, shell, state
from ui.i18n import names, t
from ui.loaders import recipe_counts
from ui.params import RECIPE_RULES
from viz import Series

DRAWS = 10_000
STRIP_PX = 380  # fits a phone; wider screens get the same compact block
OUTCOME_COLORS = {"mask": viz.HEAD_COLORS[3], "random": viz.HEAD_COLORS[1], "keep": viz.HEAD_COLORS[2]}


def recipe_section(settings: state.Settings, model, model_name: str, ids: list[int], maskable: list[int]) -> None:
    cfg, mask_id, tokens = model.config, model.tokenizer.mask_id, model.tokenizer.token_strs(ids)
    st.header(t("mlm.recipe_title"))
    st.markdown(t("mlm.recipe_intro"))
    state.ensure("recipe_seed")
    state.ensure("recipe_rule")
    c1, c2 = st.columns([1, 2])
    c1.number_input(t("mlm.recipe_seed"), 0, 9999, key="recipe_seed", help=t("mlm.recipe_seed_help"))
    c2.segmented_control(t("mlm.recipe_rule"), RECIPE_RULES, format_func=names("mlm.rule"), key="recipe_rule",
                         required=True, help=t("mlm.recipe_rule_help"))  # fmt: skip
    shell.track("recipe_seed", "recipe_rule")
    if not maskable:
        st.info(t("mlm.recipe_nothing"))
        shell.stop()
    exact = st.session_state["recipe_rule"] == "exact"
    rng = random.Random(st.session_state["recipe_seed"])
    inp, outcome = mlm.bert_recipe(ids, rng, cfg.vocab_size, mask_id, model.tokenizer.special_ids, exact=exact)
    colors = {i: OUTCOME_COLORS[o] for i, o in enumerate(outcome) if o}
    st.caption(t("mlm.recipe_before"))
    charts.plot(
        st,
        viz.token_strip(tokens, colors=colors, scale=settings.figure_scale, width_px=STRIP_PX),
        key="recipe_before",
        width="content",
    )
    st.caption(t("mlm.recipe_after"))
    charts.plot(
        st,
        viz.token_strip(model.tokenizer.token_strs(inp), colors=colors, scale=settings.figure_scale, width_px=STRIP_PX),
        key="recipe_after",
        width="content",
    )
    chosen = [o for o in outcome if o]
    if not chosen:
        st.info(t("mlm.recipe_empty", n=len(maskable), p=f"{(1 - mlm.MLM_CHOOSE) ** len(maskable):.0%}"))
    st.markdown(
        t(
            "mlm.recipe_draw",
            n=len(maskable),
            k=len(chosen),
            **{o: sum(c == o for c in chosen) for o in mlm.OUTCOMES},
            legend=" · ".join(f"{names('mlm.outcome')(o)}" for o in mlm.OUTCOMES),
        )
    )
    m = len(maskable)
    k_bert = mlm.bert_count(len(ids), m)
    st.markdown(t("mlm.rule_compare", n=len(ids), m=m, k=k_bert, mean=f"{mlm.MLM_CHOOSE * m:.2f}",
                  p0=f"{(1 - mlm.MLM_CHOOSE) ** m:.1%}"))  # fmt: skip
    counts = recipe_counts(tuple(ids), DRAWS, st.session_state["recipe_seed"], model_name, exact)
    draws = np.arange(1, DRAWS + 1)
    keep = np.unique(np.round(np.geomspace(1, DRAWS, 120)).astype(int)) - 1  # log-spaced points: 120, not 10 000
    shares = mlm.recipe_shares(counts)  # running shares per draw: chosen of eligible, each outcome of chosen
    series = [
        Series(names("mlm.outcome")(o), shares[o][keep], color=OUTCOME_COLORS[o], markers=False) for o in mlm.OUTCOMES
    ]
    series.append(
        Series(t("mlm.chosen_share_exact", k=k_bert, m=m) if exact
               else t("mlm.chosen_share"), shares["chosen"][keep], color=viz.HEAD_COLORS[7], dash="dot", markers=False)
    )  # fmt: skip
    charts.plot(
        st,
        viz.lines(
            draws[keep],
            series,
            x_title=t("mlm.draws"),
            y_title=t("mlm.share"),
            title=t("mlm.converge_title_exact" if exact else "mlm.converge_title", n=f"{DRAWS:,}"),
            log_x=True,
            hlines=[(0.8, "80%"), (0.1, "10%")],  # 15% is the dotted line's target (in the title)
            y_range=(0, 1),
            scale=settings.figure_scale,
        ),
        key="recipe_converge",
    )
    st.markdown(t("mlm.recipe_final", n=f"{DRAWS:,}", **{k: f"{v[-1]:.2%}" for k, v in shares.items()}))
