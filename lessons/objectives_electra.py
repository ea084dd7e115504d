"""ELECTRA's replaced-token detection on the prompt, with the shipped small generator and discriminator."""

import numpy as np
import streamlit as st

import models
import viz
from lessons.objectives_detector import detector_section, replaced_bars
from lessons.objectives_more import strip
from models import electra
from ui import shell, state
from ui.i18n import t
from ui.objective_loaders import electra_detect, get_electra

MASKED_COLOR, REPLACED_COLOR = viz.HEAD_COLORS[3], viz.HEAD_COLORS[1]


def published_detector(settings: state.Settings | None) -> bool:
    """Whether the sidebar shows a published ELECTRA discriminator (config.detector_head) that loads."""
    name = shell.published_or(settings, "encoder", "") if settings is not None else ""
    if not name:  # not a published encoder that loads (published_or skips one with an error, e.g. too large)
        return False
    try:
        return shell.load(name, settings.weights).config.detector_head
    except models.WeightsError:
        return False


def electra_section(text: str, seed: int, scale: float, settings: state.Settings | None = None) -> None:
    st.header(t("objectives.electra_title"))
    st.markdown(t("objectives.electra_explain", lam=f"{electra.LAMBDA:g}"))
    if published_detector(settings):
        detector_section(settings, text, scale)
        return
    st.markdown(t("objectives.electra_toy"))
    try:
        _, meta = get_electra()
    except models.WeightsError as e:
        st.error(t("objectives.electra_missing", error=shell.code_span(str(e))))
        return
    d = electra_detect(text, seed)
    tokens, corrupted, masked, replaced = d["tokens"], d["corrupted"], d["masked"], d["replaced"]
    p = np.asarray(d["p_replaced"])
    c1, c2 = st.columns(2)
    c1.caption(t("objectives.electra_masked"))
    strip(c1, tokens, dict.fromkeys(masked, MASKED_COLOR), scale, "obj_electra_masked")
    c2.caption(t("objectives.electra_corrupted"))
    colors = {i: REPLACED_COLOR for i, r in enumerate(replaced) if r}
    strip(c2, corrupted, colors, scale, "obj_electra_corrupted")
    same = [i for i in masked if not replaced[i]]
    n_rep = sum(replaced)
    st.markdown(
        t(
            "objectives.electra_counts",
            m=len(masked),
            r=n_rep,
            same=len(same),
            n=len(tokens),
            gen=", ".join(f"{shell.code_span(tokens[i])} → {shell.code_span(corrupted[i])}" for i in masked),
        )
    )
    labels = [f"{c}" for c in corrupted]
    replaced_bars(p, labels, replaced, t("objectives.electra_bars_title"), "obj_electra_bars", scale)
    inner = slice(1, len(tokens) - 1)  # [CLS] and [SEP] are never replaced
    guess = p[inner] > 0.5
    truth = np.asarray(replaced[inner], bool)
    held = meta.get("held_out", {})
    st.markdown(
        t(
            "objectives.electra_readout",
            right=int((guess == truth).sum()),
            n=int(truth.size),
            baseline=int((~truth).sum()),
            auc=f"{held.get('auc', float('nan')):.3f}",
            acc=f"{held.get('accuracy', float('nan')):.3f}",
            acc0=f"{held.get('all_original_accuracy', float('nan')):.3f}",
            recall=f"{held.get('replaced_recall', float('nan')):.2f}",
            tokens=held.get("tokens", 0),
            steps=meta.get("steps", 0),
        )
    )
    st.caption(t("objectives.electra_caption"))
