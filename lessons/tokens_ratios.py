"""Tokenization page, sections 3 and 4: English vs Chinese tokens per character, and the ~3/4 word per token
rule measured, for the shipped BPE, MiniLM's WordPiece and every published model's tokenizer."""

import numpy as np
import streamlit as st

import viz
from models.lexicon import COMMON_EN
from ui import charts, state, token_loaders
from ui.i18n import t

RULE = 0.75  # OpenAI Help Center: 1 token ≈ ¾ of a word (English)


def _name(key: str) -> str:
    return t(f"tokens.name.{key}") if key in ("bpe", "minilm") else key


def ratios_section(settings: state.Settings, text: str) -> None:
    st.subheader(t("tokens.chars_title"))
    lesson = token_loaders.lesson_text()
    toks = token_loaders.tokenizers()
    en = {k: token_loaders.counts(k, lesson["en"]) for k in toks}
    zh = {k: token_loaders.counts(k, lesson["zh"]) for k in toks}
    mine = {k: token_loaders.counts(k, text) for k in toks}
    first = next(iter(en.values()))
    st.markdown(
        t("tokens.chars_explain", en_chars=first.chars, en_words=first.words, zh_chars=next(iter(zh.values())).chars)
    )
    st.dataframe(
        {
            t("tokens.col_tokenizer"): [_name(k) for k in toks],
            t("tokens.col_vocab"): [f"{tok.vocab_size:,}" for tok in toks.values()],
            t("tokens.col_en_char"): [f"{en[k].per_char:.3f}" for k in toks],
            t("tokens.col_zh_char"): [f"{zh[k].per_char:.3f}" for k in toks],
            t("tokens.col_unk"): [f"{zh[k].unknown / zh[k].tokens:.1%}" if zh[k].tokens else "–" for k in toks],
            t("tokens.col_prompt"): [f"{mine[k].per_char:.3f}" for k in toks],
        },
        hide_index=True,
    )
    if "minilm" in toks:
        st.caption(t("tokens.unk_note"))
    if len(toks) <= 2:
        st.caption(t("tokens.more_models"))


def rule_section(settings: state.Settings) -> None:
    st.subheader(t("tokens.rule_title"))
    st.markdown(t("tokens.rule_explain"))
    toks = token_loaders.tokenizers()
    toy = "\n".join(token_loaders.held_out()[0])
    app = token_loaders.lesson_text()["en"]
    on_toy = {k: token_loaders.counts(k, toy) for k in toks}
    on_app = {k: token_loaders.counts(k, app) for k in toks}
    c1, c2 = st.columns([1, 1])
    wpt = np.array([on_app[k].words_per_token for k in toks])
    charts.plot(
        c1,
        viz.bars(
            wpt,
            [_name(k) for k in toks],
            x_title=t("tokens.col_tokenizer"),
            y_title=t("tokens.y_wpt"),
            title=t("tokens.rule_chart"),
            text_fmt=".2f",
            reference=np.full(len(toks), RULE),
            names_shown=(t("tokens.y_wpt"), t("tokens.rule_line")),
            y_range=(0, max(1.0, float(wpt.max()) * 1.15)),
            scale=settings.figure_scale,
        ),
        key="tok_rule",
    )
    st.dataframe(
        {
            t("tokens.col_tokenizer"): [_name(k) for k in toks],
            t("tokens.col_toy_wpt"): [f"{on_toy[k].words_per_token:.3f}" for k in toks],
            t("tokens.col_app_wpt"): [f"{on_app[k].words_per_token:.3f}" for k in toks],
            t("tokens.col_app_cpt"): [f"{on_app[k].chars_per_token:.2f}" for k in toks],
        },
        hide_index=True,
    )
    others = "".join(t("tokens.rule_other", name=_name(k), value=on_app[k].words_per_token) for k in toks if k != "bpe")
    c2.markdown(t("tokens.rule_result", bpe=on_app["bpe"].words_per_token, common=len(COMMON_EN), others=others))
