"""The post-training page's results: chosen vs rejected per stage (table, bars, live reading), the implicit
rewards, the loss curves, greedy answers to held-out prompts and to the student's own prompt."""

import numpy as np
import streamlit as st

import viz
from models.training import posttrain as P
from ui import charts, shell
from ui.i18n import t
from ui.posttrain_loaders import posttrain_answers

MAX_CHARS = 300  # the own-prompt box: a story and a question are far shorter


def _pct(x: float) -> str:
    return f"{x:.0%}"


def results_section(results: dict, fig_scale: float) -> None:
    st.subheader(t("posttrain.results_title"))
    n = len(results["held"]["base"]["chosen"])
    st.markdown(t("posttrain.results_explain", n=n))
    s = {stage: P.summary(results, stage) for stage in P.STAGES}
    stage_col = t("posttrain.col_stage")
    names = [t(f"posttrain.stage_{stage}") for stage in P.STAGES]
    rows = [
        {
            stage_col: name,
            t("posttrain.col_mean_chosen"): f"{v['chosen']:.2f}",
            t("posttrain.col_mean_rejected"): f"{v['rejected']:.2f}",
            t("posttrain.col_margin"): f"{v['margin']:+.2f}",
            t("posttrain.col_accuracy"): _pct(v["accuracy"]),
        }
        for name, v in zip(names, s.values(), strict=True)
    ]
    st.table(rows, hide_index=True)
    left, right = st.columns([3, 2])
    x = np.arange(len(P.STAGES), dtype=float)
    chart = viz.lines(
        x,
        [viz.Series(t("posttrain.col_chosen"), np.array([v["chosen"] for v in s.values()])),
         viz.Series(t("posttrain.col_rejected"), np.array([v["rejected"] for v in s.values()]), dash="dash")],
        x_title=stage_col,
        y_title=t("posttrain.chart_y"),
        title=t("posttrain.chart_title", n=n),
        height=360,
        scale=fig_scale,
    )  # fmt: skip
    charts.plot(left, chart.update_xaxes(tickvals=x.tolist(), ticktext=names), key="pt_dots")
    b, f, d = s["base"], s["sft"], s["dpo"]
    right.markdown(
        t("posttrain.reading", base_w=f"{b['chosen']:.2f}", sft_w=f"{f['chosen']:.2f}", base_acc=_pct(b["accuracy"]),
          sft_acc=_pct(f["accuracy"]), sft_m=f"{f['margin']:+.2f}", dpo_m=f"{d['margin']:+.2f}",
          dpo_acc=_pct(d["accuracy"]), dpo_w=f"{d['chosen']:.2f}", sft_l=f"{f['rejected']:.2f}",
          dpo_l=f"{d['rejected']:.2f}")
    )  # fmt: skip
    train = P.summary(results, "dpo", on="train_dpo")
    st.markdown(t("posttrain.reward_explain", train_acc=_pct(train["accuracy"]), held_acc=_pct(d["accuracy"])))
    rewards = [
        {
            stage_col: name,
            t("posttrain.col_reward_chosen"): f"{v['reward_chosen']:+.3f}",
            t("posttrain.col_reward_rejected"): f"{v['reward_rejected']:+.3f}",
            t("posttrain.col_reward_margin"): f"{v['reward_chosen'] - v['reward_rejected']:+.3f}",
        }
        for name, v in zip(names, s.values(), strict=True)
    ]
    st.table(rewards, hide_index=True)
    losses = results["losses"]
    n_sft, n_dpo = len(losses["sft"]), len(losses["dpo"])
    x = np.arange(1, n_sft + n_dpo + 1, dtype=float)
    sft_curve = np.concatenate([losses["sft"], np.full(n_dpo, np.nan)])
    dpo_curve = np.concatenate([np.full(n_sft, np.nan), losses["dpo"]])
    charts.plot(
        st,
        viz.lines(
            x,
            [
                viz.Series(t("posttrain.loss_sft"), sft_curve, markers=False),
                viz.Series(t("posttrain.loss_dpo"), dpo_curve, markers=False),
            ],
            x_title=t("posttrain.loss_x"),
            y_title=t("posttrain.loss_y"),
            title=t("posttrain.loss_title"),
            hlines=[(float(np.log(2)), t("posttrain.log2"))],
            log_y=True,
            height=300,
            scale=fig_scale,
        ),
        key="pt_loss",
    )


def generations_section(results: dict, held: list[P.Pair]) -> None:
    st.subheader(t("posttrain.gen_title"))
    st.markdown(t("posttrain.gen_explain"))
    gens = results["generations"]
    rows = [
        {
            t("posttrain.col_prompt"): shell.code_span(p.prompt),
            t("posttrain.col_correct"): shell.code_span(p.chosen),
            **{t(f"posttrain.stage_{stage}"): shell.code_span(gens[stage][i]) for stage in P.STAGES},
        }
        for i, p in enumerate(P.shown(held))
    ]
    st.table(rows, hide_index=True)


def answers_section(root: str, key: str, default: str) -> None:
    """The student's own story and question: each stage's greedy answer. Any text is accepted (it is
    only tokenized and run); an empty box says what to type; the box holds MAX_CHARS, a longer value is cut."""
    st.subheader(t("posttrain.own_title"))
    st.session_state.setdefault("pt_prompt", default)
    text = st.text_input(t("posttrain.own_label"), key="pt_prompt", max_chars=MAX_CHARS)
    if not text.strip():
        st.info(t("posttrain.own_empty"))
        return
    got = posttrain_answers(root, key, text)
    stage_col, answer_col = t("posttrain.col_stage"), t("posttrain.col_answer")
    rows = [{stage_col: t(f"posttrain.stage_{s}"), answer_col: shell.code_span(got[s])} for s in P.STAGES]
    st.table(rows, hide_index=True)
