"""What each head does, continued: heads forming during training in a real model. With two or more training
checkpoints of one Hub model in the cache (Pythia's step1000, step3000, ...), every head's previous-token and
induction score at each checkpoint (models/inspection/revisions.py), in one figure with the field guide's thresholds;
checkpoints with identical weights (Pythia issues #195, #205) are named, not drawn as a flat line."""

import numpy as np
import streamlit as st

import viz
from models import WeightsError
from models.inspection import revisions
from models.inspection.heads import ROLE_THRESHOLDS
from ui import shell
from ui.head_loaders import revision_replay
from ui.i18n import in_run_language, md, t
from ui.loaders import with_status
from ui.params import local_models, models_key

KEY = "heads_rev_repo"


def _commands() -> str:
    repo = revisions.RECOMMENDED[0]
    lines = [f"python -m models.fetch {repo} --revision {step}" for step in revisions.SUGGESTED_STEPS]
    return "```\n" + "\n".join(lines) + "\n```"


def _reading(result: dict, threshold: float) -> str:
    formed = revisions.forming(result, "induction", threshold)
    if formed is not None:
        step, layer, head = formed
        return t("heads.rev_formed", threshold=f"{threshold:.2f}", step=step, layer=layer + 1, head=head + 1)
    shown = revisions.plotted(result)
    best = [float(np.max(r["scores"]["induction"])) for r in shown]
    k = int(np.argmax(best))
    return t("heads.rev_not_formed", threshold=f"{threshold:.2f}", best=f"{best[k]:.2f}", step=shown[k]["step"])


def _notes(result: dict) -> None:
    """Duplicates: a warning for a step branch that serves another's weights, a caption for main = last step."""
    odd = revisions.suspicious(result)
    if odd:
        pairs = "; ".join(t("heads.rev_same", name=md(n), twin=md(twin)) for n, twin in odd.items())
        st.warning(t("heads.rev_duplicates", pairs=pairs), icon=":material/content_copy:")
    for name, twin in result["duplicates"].items():
        if name not in odd:
            st.caption(t("heads.rev_main_last", name=md(name), twin=md(twin)))
    unplaced = [r["name"] for r in result["revisions"] if r["step"] is None]
    if unplaced:
        st.caption(t("heads.rev_unplaced", names=", ".join(md(n) for n in unplaced)))


def section(scale: float) -> None:
    """The section's subheader, then the figure and its reading, or how to get checkpoints."""
    st.subheader(t("heads.rev_title"))
    found = revisions.groups(local_models().values())
    if not found:
        st.info(t("heads.rev_none", commands=_commands()), icon=":material/download:")
        return
    st.markdown(t("heads.rev_intro"))
    repos = list(found)
    if st.session_state.get(KEY) not in repos:
        st.session_state[KEY] = repos[0]
    tr = in_run_language()
    repo = st.selectbox(t("heads.rev_repo"), repos, key=KEY,
                        format_func=lambda r: tr("heads.rev_option", repo=r, n=len(found[r])))  # fmt: skip
    label = t("heads.rev_computing", n=len(found[repo]), repo=md(repo))
    try:
        result = with_status(label, revision_replay, repo, models_key())
    except WeightsError as e:
        st.error(t("heads.rev_error", error=md(e)))
        return
    shown = revisions.plotted(result)
    roles = revisions.ROLES
    role_names = {r: t(f"heads.role.{r}") for r in roles}
    threshold = ROLE_THRESHOLDS["induction"]
    formed = revisions.forming(result, "induction", threshold)
    thresholds = {r: t("heads.rev_threshold", role=role_names[r], value=f"{ROLE_THRESHOLDS[r]:.2f}") for r in roles}
    if shown:
        x = np.array([r["step"] for r in shown], float) + 1  # a log axis has no 0: the step + 1
        fig = viz.forming_scores(
            x,
            {r: revisions.per_head(shown, r) for r in roles},
            {r: ROLE_THRESHOLDS[r] for r in roles},
            {r: t(f"heads.rev_best.{r}") for r in roles},
            threshold_names=thresholds,
            role_names=role_names,
            head_name=t("heads.rev_head", layer="{layer}", head="{head}"),
            x_title=t("heads.rev_x"),
            y_title=t("heads.rev_y"),
            title=t("heads.rev_fig"),
            formed=(formed[0] + 1, t("heads.rev_formed_line", threshold=f"{threshold:.2f}")) if formed else None,
            scale=scale,
        )
        shell.plot(fig, "heads_revisions")
        st.markdown(_reading(result, threshold))
    _notes(result)
    st.caption(t("heads.rev_caption", prev=f"{ROLE_THRESHOLDS['previous_token']:.2f}", ind=f"{threshold:.2f}"))
