"""Tokenization: the shipped BPE replayed merge by merge on the prompt, vocabulary size against length,
tokens per character in English and Chinese, and the ~3/4 word per token rule measured."""

import streamlit as st

from lessons.tokens_ratios import ratios_section, rule_section
from lessons.tokens_replay import replay_section
from lessons.tokens_vocab import vocab_section
from models import WeightsError
from models.loading import shipped_tokenizer
from ui import shell, state
from ui.i18n import md, t

settings = state.current()
st.markdown(t("tokens.intro"))
try:
    tokenizer = shipped_tokenizer()
except WeightsError as e:
    st.error(t("tokens.error", error=md(e)))
    shell.stop()
text = settings.prompt
if not text.strip():
    st.info(t("prompt.empty"))
    shell.stop()

replay_section(settings, tokenizer, text)
vocab_section(settings)
ratios_section(settings, text)
rule_section(settings)
st.caption(t("tokens.sources"))
