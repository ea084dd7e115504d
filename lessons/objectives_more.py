"""T5's span corruption, NSP vs SOP, the causal LM, and the summary table of the objectives page."""

import streamlit as st

import viz
from models.training import objectives
from ui import charts
from ui.i18n import t
from ui.objective_loaders import mean_fractions

STRIP_PX = 380  # fits a phone; presentation mode (scale 1.5, columns stacked) widens it with the font
LOSS_COLOR, SENTINEL_COLOR = viz.HEAD_COLORS[2], viz.HEAD_COLORS[3]
SEEDS = 200  # the summary's average over seeds 0..199
SOURCES = {
    "mlm": "Devlin et al. 2019 (BERT), §3.1; create_pretraining_data.py",
    "mlm_app": "models/training/mlm.py (exact=False)",
    "dynamic": "Liu et al. 2019 (RoBERTa), §4.1",
    "electra_disc": "Clark et al. 2020 (ELECTRA), §2",
    "electra_gen": "Clark et al. 2020 (ELECTRA), §2",
    "t5": "Raffel et al. 2020 (T5), §3.3",
    "nsp_sop": "Devlin et al. 2019; Lan et al. 2020 (ALBERT), §3.1",
    "causal": "Radford et al. 2018 (GPT)",
}


def strip(where, tokens, colors, scale, key) -> None:
    charts.plot(where, viz.token_strip(tokens, colors=colors, scale=scale, width_px=round(STRIP_PX * scale)),
                key=key, width="content")  # fmt: skip


def span_section(tokens: list[str], seed: int, scale: float) -> None:
    st.header(t("objectives.t5_title"))
    st.markdown(t("objectives.t5_explain"))
    sc = objectives.span_corruption(tokens, seed)
    c1, c2 = st.columns(2)
    c1.caption(t("objectives.t5_input"))
    strip(c1, sc.inputs, dict.fromkeys(sc.input_sentinels, SENTINEL_COLOR), scale, "obj_t5_in")
    c2.caption(t("objectives.t5_target"))
    colors = {i: SENTINEL_COLOR if i in sc.target_sentinels else LOSS_COLOR for i in range(len(sc.targets))}
    strip(c2, sc.targets, colors, scale, "obj_t5_out")
    lengths = [e - s for s, e in sc.spans]
    st.markdown(
        t(
            "objectives.t5_counts",
            k=sc.n_noise,
            n=len(tokens),
            share=f"{sc.n_noise / len(tokens):.0%}",
            spans=len(sc.spans),
            lengths=", ".join(map(str, lengths)),
            mean=f"{sum(lengths) / max(1, len(lengths)):.2f}",
            inp=len(sc.inputs),
            out=len(sc.targets),
        )
    )


def pairs_section(text: str, seed: int) -> None:
    st.header(t("objectives.pairs_title"))
    st.markdown(t("objectives.pairs_explain"))
    pairs = objectives.sentence_pairs(text, seed)
    st.caption(t(f"objectives.pairs_from.{pairs.from_prompt}"))
    a, b = pairs.first, pairs.second
    rows = [
        (t("objectives.nsp"), a, b, t("objectives.is_next")),
        (t("objectives.nsp"), a, pairs.nsp_negative, t("objectives.not_next")),
        (t("objectives.sop"), a, b, t("objectives.in_order")),
        (t("objectives.sop"), *pairs.sop_negative, t("objectives.swapped")),
    ]
    cols = [t("objectives.col_task"), t("objectives.col_a"), t("objectives.col_b"), t("objectives.col_label")]
    st.table([dict(zip(cols, r, strict=True)) for r in rows], hide_index=True)
    st.markdown(t("objectives.pairs_why"))


def causal_section(tokens: list[str], scale: float) -> None:
    st.header(t("objectives.causal_title"))
    inputs = ["[BOS]", *tokens]
    targets = objectives.causal_targets(len(inputs))
    st.markdown(t("objectives.causal_explain", n=len(tokens), positions=len(inputs)))
    strip(st, inputs, {i: LOSS_COLOR for i, has in enumerate(targets) if has}, scale, "obj_causal")


def summary_section(tokens: list[str], seed: int) -> None:
    st.header(t("objectives.summary_title"))
    n = len(tokens)
    counts = objectives.loss_counts(n, seed)
    means = mean_fractions(n, SEEDS)
    cols = [t(f"objectives.sum_{c}") for c in ("objective", "input", "where", "here", "mean", "source")]
    rows = [
        dict(zip(cols, (t(f"objectives.obj.{k}"), t(f"objectives.input.{k}"), t(f"objectives.where.{k}"),
                        f"{counts[k]}/{n} = {counts[k] / n:.0%}", f"{means[k]:.1%}", SOURCES[k]), strict=True))
        for k in objectives.OBJECTIVES
    ]  # fmt: skip
    st.table(rows, hide_index=True)
    st.caption(t("objectives.summary_caption", seeds_last=SEEDS - 1))
