"""Post-training the toy decoder: SFT on demonstrations, then DPO on comparisons; chosen vs rejected on held-out
pairs before and after (models/training/posttrain.py), trained once in a child process (models/posttrain_run.py)."""

import streamlit as st

from lessons.posttrain_margins import margins_section
from lessons.posttrain_results import answers_section, generations_section, results_section
from models import posttrain_run
from models.training import posttrain as P
from models.variants import cache_root
from ui import shell, slots, state
from ui.i18n import md, t
from ui.loaders import with_status
from ui.posttrain_loaders import posttrain_entry, posttrain_runner

POLL_SECONDS = 1.0

settings = state.current()
st.markdown(t("posttrain.intro"))
st.markdown(t("posttrain.honest"))
# The shipped decoder's margins at once, before any run, and before the data: on a 1366x768 projector the page opens
# on its figure (issue 39).
margins = margins_section(settings.figure_scale)

# ---------------------------------------------------------------- data
st.subheader(t("posttrain.data_title"))
sft_pairs, dpo_pairs, held = P.split()
st.markdown(t("posttrain.data_explain", n_sft=len(sft_pairs), n_dpo=len(dpo_pairs), n_held=len(held)))
rows = []
for name, pairs in (("sft", sft_pairs), ("dpo", dpo_pairs), ("held", held)):
    for p in pairs[:2]:
        rows.append({
            t("posttrain.col_set"): t(f"posttrain.set_{name}"), t("posttrain.col_prompt"): shell.code_span(p.prompt),
            t("posttrain.col_chosen"): shell.code_span(p.chosen),
            t("posttrain.col_rejected"): "" if name == "sft" else shell.code_span(p.rejected),
        })  # fmt: skip
st.table(rows, hide_index=True)

# ---------------------------------------------------------------- where this sits in RLHF
st.subheader(t("posttrain.rlhf_title"))
st.markdown(t("posttrain.rlhf_body"))

# ---------------------------------------------------------------- training (a child process)
st.subheader(t("posttrain.train_title"))
rec = P.RECIPE
steps = {"sft_steps": rec["sft_steps"], "dpo_steps": rec["dpo_steps"]}
st.markdown(t("posttrain.train_explain", **steps, beta=P.BETA, seed=P.SEED))
root = str(cache_root())
runner = posttrain_runner(root)
key = posttrain_run.entry_key()
job = runner.job if runner.job is not None and runner.job.key == key else None

if not runner.done(key):
    if job is not None and job.state == "running":

        @slots.fragment(run_every=POLL_SECONDS)
        def live() -> None:
            if job.state != "running":  # finished, failed or stopped: redraw the whole page once
                st.rerun(scope="app")
            stage = t(f"posttrain.stage_{job.stage}")
            text = t("posttrain.progress", stage=stage, step=job.step, steps=job.steps, loss=f"{job.loss:.3f}",
                     seconds=f"{job.seconds:.0f}")  # fmt: skip
            st.progress(job.progress, text=text)
            st.button(t("posttrain.stop"), key="pt_stop", icon=":material/stop_circle:", on_click=runner.cancel)

        live()
        shell.stop()
    if job is not None and job.state == "failed":
        st.error(t("posttrain.failed", error=md(job.error)))
    if job is not None and job.state == "cancelled":
        st.caption(t("posttrain.cancelled"))
    problem = posttrain_run.writable(cache_root())
    if problem is not None:
        st.error(t("posttrain.not_writable", error=md(problem)))
        shell.stop()
    st.button(t("posttrain.train"), key="pt_train", icon=":material/model_training:", on_click=runner.start,
              type="primary")  # fmt: skip
    st.info(t("posttrain.untrained"))
    shell.stop()

try:
    results, nets = with_status(t("posttrain.train_title"), posttrain_entry, root, key)
except posttrain_run.CorruptEntry as e:
    posttrain_entry.clear()
    st.warning(t("posttrain.corrupt", error=md(e)))
    shell.stop()

margins_section(settings.figure_scale, results, margins)  # the trained margins beside them, in the same place
results_section(results, settings.figure_scale)
generations_section(results, held)
answers_section(root, key, held[0].prompt)
