"""The ELECTRA section with a published ELECTRA discriminator picked in the sidebar: the student replaces words
of the prompt, and the discriminator gives every token of the result P(replaced) (LiveModel.replaced_prob)."""

import streamlit as st

import viz
from models.teaching import replacements
from ui import charts, shell, state, url
from ui.i18n import t
from ui.objective_loaders import detector_run

MOST_WORDS = 64  # words offered to replace (a 10,000-character prompt)
MOST_BARS = 64  # tokens drawn in the probability chart (a 10,000-character prompt)


def detector_section(settings: state.Settings, text: str, scale: float) -> None:
    """settings.model is a published discriminator (config.detector_head); text is the prompt."""
    st.markdown(t("objectives.detector_intro", name=shell.code_span(settings.model)))
    words = replacements.pill_labels(replacements.words(text)[:MOST_WORDS])
    state.ensure("electra_words")
    state.ensure("electra_with")
    st.session_state["electra_words"] = [i for i in st.session_state["electra_words"] if i < len(words)]
    c1, c2 = st.columns([3, 1])
    c1.pills(t("objectives.detector_pick"), list(range(len(words))), selection_mode="multi",
             format_func=lambda i: words[i], key="electra_words")  # fmt: skip
    c2.text_input(t("objectives.detector_with"), key="electra_with", max_chars=url.MAX_WORD_CHARS)
    shell.track("electra_words", "electra_with")
    original = replacements.replace_words(text, [], "", most=MOST_WORDS)
    altered = replacements.replace_words(
        text, st.session_state["electra_words"], st.session_state["electra_with"] or "", most=MOST_WORDS
    )
    st.markdown(t("objectives.detector_reads", text=shell.code_span(altered)))
    run = detector_run(settings.model, settings.weights, original, altered)
    tokens, p, replaced = run["tokens"], run["p"], run["replaced"]
    replaced_bars(p, tokens, replaced, t("objectives.detector_bars_title"), "obj_detector_bars", scale)
    guess = p > 0.5
    right = sum(int(g == r) for g, r in zip(guess, replaced, strict=True))
    st.markdown(t("objectives.detector_readout", right=right, n=len(tokens), r=sum(replaced),
                  flagged=int(guess.sum()), baseline=len(tokens) - sum(replaced)))  # fmt: skip
    st.caption(t("objectives.detector_caption"))


def replaced_bars(p, labels, replaced, title: str, key: str, scale: float) -> None:
    """P(replaced) per token as bars, the tokens really replaced highlighted (the shipped pair and a published
    discriminator draw the same figure); at most MOST_BARS tokens."""
    shown = slice(0, min(len(labels), MOST_BARS))
    charts.plot(
        st,
        viz.bars(p[shown], list(labels[shown]), x_title=t("objectives.electra_x"), y_title=t("objectives.electra_y"),
                 title=title, highlight=[i for i, r in enumerate(replaced[shown]) if r] or None, text_fmt=".2f",
                 y_range=(0, 1.05), scale=scale),
        key=key,
    )  # fmt: skip
