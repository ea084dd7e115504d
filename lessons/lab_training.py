"""The lab's training: Train / progress / Stop for one side (the run is a child process, see
models.variants), its live loss curve, and loading a side's trained weights."""

import numpy as np
import streamlit as st

import models
import viz
from models import variants
from ui import charts, precision_keys, shell, slots
from ui.i18n import md, t
from ui.loaders import lab_model, with_status

POLL_SECONDS = 1.0  # the live loss curve's refresh while a variant trains


def progress_text(h: variants.History, steps: int) -> str:
    step = h.step[-1] if h.step else 0
    loss = h.loss[-1] if h.loss else float("nan")
    val = h.val[-1] if h.val else float("nan")
    eta = h.seconds * (steps - step) / step if step else float("nan")  # the pace so far
    return t("lab.progress", step=step, steps=steps, loss=f"{loss:.3f}", val=f"{val:.3f}", seconds=f"{h.seconds:.0f}",
             eta=f"{eta:.0f}")  # fmt: skip


def curve(h: variants.History, steps: int, name: str, vocab_size: int, fig_scale: float):
    """The live loss curve of one training run: training loss (smoothed) and held-out loss."""
    x = np.arange(0, steps + 1, variants.REPORT_EVERY, dtype=float)
    train = np.interp(x, h.step, h.loss, left=np.nan, right=np.nan) if h.step else np.full(x.size, np.nan)
    held = np.interp(x, h.val_step, h.val, left=np.nan, right=np.nan) if h.val else np.full(x.size, np.nan)
    held[x > (h.val_step[-1] if h.val_step else -1)] = np.nan
    return viz.lines(
        x, [viz.Series(t("lab.train_loss"), train, markers=False, dash="dot"),
            viz.Series(t("lab.held_loss"), held, markers=False)],
        x_title=t("lab.step"), y_title=t("lab.loss"), title=name, hlines=[(float(np.log(vocab_size)),
        t("lab.uniform"))], height=300, scale=fig_scale,
    )  # fmt: skip


def training_panel(
    jobs: variants.Jobs, side: str, cfg: models.ModelConfig, key: str, fig_scale: float, recipe: str = "default"
) -> None:
    """Train / progress / stop for one side. Training runs in a child process (models.variants)."""
    job = jobs.jobs.get(key)
    if key in jobs.trained:
        return
    if job is not None and job.state == "running":

        @slots.fragment(run_every=POLL_SECONDS)
        def live() -> None:
            if job.state != "running":  # finished, failed or stopped: redraw the whole page once
                st.rerun(scope="app")
            if job.elsewhere:  # a shared cache: the variant is trained once, by whichever replica began first
                st.caption(t("lab.elsewhere"))
            st.progress(job.progress, text=progress_text(job.history, job.steps))
            charts.plot(st, curve(job.history, job.steps, "", cfg.vocab_size, fig_scale), key=f"{side}_live")
            st.button(t("lab.stop"), key=f"{side}_stop", icon=":material/stop_circle:", on_click=jobs.cancel,
                      args=(key,))  # fmt: skip

        live()
        return
    if job is not None and job.state == "failed":
        st.error(t("lab.failed", error=md(job.error)))
    if job is not None and job.state == "cancelled":
        st.caption(t("lab.cancelled"))
    elif job is None and key in jobs.unfinished:  # e.g. the server restarted during the run
        st.caption(t("lab.unfinished"))
    if jobs.unwritable:  # said before training, not after a wasted minute
        st.warning(t("lab.cache_unwritable", folder=shell.code_span(str(jobs.root)), reason=md(jobs.unwritable),
                     env=variants.CACHE_ENV))  # fmt: skip
    busy = jobs.running()
    st.button(t("lab.train", steps=variants.recipe_of(cfg, recipe)["steps"]), key=f"{side}_train",
              icon=":material/model_training:", on_click=jobs.start, args=(cfg, cfg.seed, None, recipe),
              disabled=busy is not None,
              help=t("lab.train_help"))  # fmt: skip
    if busy is not None:
        st.caption(t("lab.busy"))


def side_model(
    jobs: variants.Jobs, weights: str, side: str, cfg_json: str, key: str
) -> tuple[models.LiveModel, str | None, dict | None]:
    """(model, trained key or None, training history or None); a corrupt cache entry is reported,
    deleted and the side falls back to its random initialisation."""
    trained = key if key in jobs.trained and precision_keys.base(weights) == "trained" else None
    if trained is not None:
        try:
            model = with_status(t("lab.loading_trained", side=t(f"lab.side.{side}")), lab_model, cfg_json, trained)
            if trained in jobs.kept:
                job = jobs.jobs.get(trained)
                st.info(t("lab.kept_in_memory", folder=shell.code_span(str(jobs.root)),
                          reason=md(job.unsaved if job else "?"), env=variants.CACHE_ENV))  # fmt: skip
            return model, trained, model.meta["history"]
        except variants.CorruptEntry as e:
            jobs.forget(key)
            st.warning(t("lab.corrupt" if e.kind == "damaged" else "lab.mismatch", file=shell.code_span(str(e.path))))
    return lab_model(cfg_json, None), None, None
