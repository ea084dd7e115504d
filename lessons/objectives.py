"""Pretraining objectives side by side on the prompt: what the model sees and which tokens carry a loss."""

import streamlit as st

from lessons.objectives_electra import electra_section
from lessons.objectives_masking import masking_section
from lessons.objectives_more import causal_section, pairs_section, span_section, summary_section
from ui import shell, state
from ui.i18n import t

settings = state.current()
model = shell.model_or_stop(settings, "encoder", always="objectives.always_toy")  # the shipped tokenizer
text = shell.prompt_or_stop(settings, model)
intro, seed_box = st.columns([4, 1], vertical_alignment="center")  # one row: the first figure starts higher (issue 39)
intro.markdown(t("objectives.intro"))
state.ensure("obj_seed")
seed_box.number_input(t("objectives.seed"), 0, 9999, key="obj_seed", help=t("objectives.seed_help"))
shell.track("obj_seed")
seed = int(st.session_state["obj_seed"])
ids, _ = model.source_ids(text)  # [CLS] text [SEP]
tok = model.tokenizer
if not any(i not in tok.special_ids for i in ids):
    st.info(t("objectives.no_tokens"))
    shell.stop()
scale = settings.figure_scale

masking_section(model, ids, seed, scale)
electra_section(text, seed, scale, settings)
span_section(tok.token_strs(ids[1:-1]), seed, scale)
pairs_section(text, seed)
causal_section(tok.token_strs(ids[1:-1]), scale)
summary_section(tok.token_strs(ids[1:-1]), seed)
