"""The Translate page with a published T5: T5 picks its task from a text prefix ("translate English to German: ")."""

import streamlit as st

from models import ModelConfig
from ui import shell, state
from ui.i18n import t
from ui.params import T5_TASKS


def t5_source(cfg: ModelConfig, source: str) -> str:
    """The text the model reads: for a T5 (positional == "relative") the chosen task prefix + source, else source."""
    if cfg.positional != "relative":
        return source
    state.ensure("t5_task")
    st.selectbox(t("translate.t5_task"), list(T5_TASKS), key="t5_task",
                 format_func=lambda k: T5_TASKS[k] or t("translate.t5_none"))  # fmt: skip
    shell.track("t5_task")
    prefix = T5_TASKS[st.session_state["t5_task"]]
    if any(source.startswith(p) for p in T5_TASKS.values() if p):
        prefix = ""  # typed with a prefix already: as typed
    text = prefix + source
    st.markdown(t("translate.t5_reads", text=shell.code_span(text)))
    st.caption(t("translate.t5_random"))
    return text
