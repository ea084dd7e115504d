"""The lab's training recipe and "heads forming during training": a step slider replays a trained
variant's snapshots (models.snapshots) on the prompt, beside its induction / previous-token scores."""

import numpy as np
import streamlit as st

import viz
from models import snapshots, variants
from ui import shell, state
from ui.i18n import names, t, viz_labels
from ui.loaders import lab_snapshot_run, lab_snapshots
from ui.params import SIDES

THRESHOLD = 0.5  # a head whose mean attention to the copied token's successor is at least this copies


def recipe_control() -> str:
    """Default or induction-forming: one recipe for both sides, so their losses stay comparable."""
    state.ensure("lab_recipe")
    st.segmented_control(t("lab.recipe"), list(variants.RECIPES), format_func=names("lab.recipe"), key="lab_recipe",
                         required=True, help=t("lab.recipe_help"))  # fmt: skip
    shell.track("lab_recipe")
    return st.session_state["lab_recipe"]


def _snap_index(side: str, steps: list[int]) -> int:
    """The slider's step (the last one unless the URL or the student chose another), as an index."""
    key = f"{side}_snap"
    if st.session_state.get(key) not in steps:
        st.session_state[key] = steps[-1]
    st.select_slider(t("lab.snap_step"), steps, key=key, help=t("lab.snap_help"))
    shell.track(key)
    return steps.index(st.session_state[key])


def _scores_figure(scores: dict, step: int, head: tuple[int, int], formed: int | None, fig_scale: float):
    x = np.asarray(scores["step"], float) + 1  # a log axis has no 0: the step + 1
    li, hi = head
    series = [viz.Series(t(f"lab.series.{role}"), np.array(snapshots.best(scores[role])))
              for role in ("induction", "previous_token") if role in scores]  # fmt: skip
    if "induction" in scores:
        mine = np.array([s[li][hi] for s in scores["induction"]])
        series.append(viz.Series(t("lab.series.head", layer=li + 1, head=hi + 1), mine, dash="dot"))
    vlines = [(formed + 1, t("lab.formed_line"))] if formed is not None else []
    return viz.lines(x, series, x_title=t("lab.scores_x"), y_title=t("lab.score"), title=t("lab.scores_fig"),
                     log_x=True, vlines=vlines, current=step + 1, y_range=(0, 1), height=320,
                     scale=fig_scale)  # fmt: skip


def _explain(scores: dict, history: dict, recipe: dict) -> str:
    drop = snapshots.steepest_drop(history["step"], history["loss"], until=recipe.get("repeat_steps"))
    fall = t("lab.loss_falls", start=drop[0], end=drop[1]) if drop else ""
    if "induction" not in scores:
        return t("lab.forming_encoder", prev=f"{snapshots.best(scores['previous_token'])[-1]:.2f}")
    best = snapshots.best(scores["induction"])
    formed = snapshots.forming_step(scores["step"], scores["induction"], THRESHOLD)
    if formed is None:
        return t("lab.forming_none", best=f"{best[-1]:.2f}", threshold=THRESHOLD)
    last = np.array(scores["induction"][-1])
    li, hi = np.unravel_index(int(last.argmax()), last.shape)
    return t("lab.forming_at", step=formed, threshold=THRESHOLD, layer=li + 1, head=hi + 1,
             best=f"{best[-1]:.2f}", first=f"{best[0]:.2f}") + " " + fall  # fmt: skip


def forming(configs, sides, cfg_jsons, text: str, layer: int, head: int, fig_scale: float, recipe: dict) -> None:
    """Per trained side: the step slider, the selected head at that step, and the scores over training."""
    st.header(t("lab.forming_title"))
    st.markdown(t("lab.forming_intro"))
    cols = st.columns(2, gap="large")
    for side, col in zip(SIDES, cols, strict=True):
        cfg, (_, trained, history) = configs[side], sides[side]
        with col:
            st.subheader(t(f"lab.side.{side}"))
            kept = lab_snapshots(cfg_jsons[side], trained) if trained is not None else []
            scores = (history or {}).get("snapshots") or {}
            if not kept or not scores:
                st.info(t("lab.forming_untrained" if trained is None else "lab.forming_old"))
                continue
            steps = [s for s, _ in kept]
            i = _snap_index(side, steps)
            li, hi = min(layer, cfg.n_layers - 1), min(head, cfg.n_heads - 1)
            tokens, att = lab_snapshot_run(cfg_jsons[side], trained, i, text)
            attn = names("attn")("decoder.self" if cfg.arch == "decoder" else "encoder.self")
            title = t("lab.snap_heat_title", attn=attn, layer=li + 1, head=hi + 1, step=steps[i])
            fig = viz.heatmap(att[li, hi], tokens, tokens, title=title, scale=fig_scale, labels=viz_labels())
            shell.plot(fig, f"{side}_snap_heat", att[li, hi], tokens, tokens)
            formed = snapshots.forming_step(scores["step"], scores["induction"], THRESHOLD) if (
                "induction" in scores) else None  # fmt: skip
            fig = _scores_figure(scores, steps[i], (li, hi), formed, fig_scale)
            shell.plot(fig, f"{side}_snap_scores")
            st.markdown(_explain(scores, history, variants.recipe_of(cfg, recipe)))
    st.caption(t("lab.forming_source"))
