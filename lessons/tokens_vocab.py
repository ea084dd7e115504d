"""Tokenization page, section 2: BPE retrained at several vocabulary sizes; tokens per word against the size."""

import numpy as np
import streamlit as st

import viz
from models.teaching import token_stats
from models.tokenizer import SPECIALS
from ui import charts, state, token_loaders
from ui.i18n import t
from ui.loaders import with_status
from viz import Series

SHIPPED = 2048


def vocab_section(settings: state.Settings) -> None:
    st.subheader(t("tokens.vocab_title"))
    rows = with_status(t("tokens.computing"), token_loaders.vocab_sweep)
    en, zh = token_loaders.held_out()
    st.markdown(
        t(
            "tokens.vocab_explain",
            corpus=token_loaders.corpus_size(),
            k=len(rows),
            minimum=token_stats.BYTE_MIN,
            specials=len(SPECIALS),
            seconds=sum(r.seconds for r in rows),
            en=len(en),
            words=rows[0].en.words,
            zh=len(zh),
            chars=rows[0].zh.chars,
        )
    )
    reached = np.array([r.reached for r in rows], dtype=float)
    per_word = np.array([r.en.tokens / r.en.words for r in rows])
    per_char = np.array([r.zh.per_char for r in rows])
    c1, c2 = st.columns([3, 2])
    charts.plot(
        c1,
        viz.lines(
            reached,
            [Series(t("tokens.series_en"), per_word), Series(t("tokens.series_zh"), per_char, dash="dash")],
            x_title=t("tokens.x_vocab"),
            y_title=t("tokens.y_per"),
            title=t("tokens.vocab_chart"),
            log_x=True,
            vlines=[(SHIPPED, t("tokens.shipped_line", n=SHIPPED))],
            y_range=(0, float(max(per_word.max(), per_char.max())) * 1.08),
            scale=settings.figure_scale,
        ),
        key="tok_vocab",
    )
    st.dataframe(
        {
            t("tokens.col_requested"): [r.requested for r in rows],
            t("tokens.col_reached"): [r.reached for r in rows],
            t("tokens.col_merges"): [r.merges for r in rows],
            t("tokens.col_en"): [f"{v:.3f}" for v in per_word],
            t("tokens.col_zh"): [f"{v:.3f}" for v in per_char],
            t("tokens.col_seconds"): [f"{r.seconds:.2f}" for r in rows],
        },
        hide_index=True,
    )
    last = rows[-1]
    if last.reached < last.requested:
        flat = next(r.reached for r in rows if r.en.tokens == last.en.tokens)
        extra = last.en_non_word  # the held-out words are single tokens by now: the rest hold no letter
        stopped = dict(requested=last.requested, reached=last.reached, flat=flat, words=last.en.words)
        c2.markdown(
            t(
                "tokens.stopped",
                **stopped,
                total=per_word[-1],
                excess=per_word[-1] - 1,
                dots=extra.get(" .", 0),
                breaks=extra.get("\n", 0),
            )
        )
