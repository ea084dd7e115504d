"""Norms and attention scores: BatchNorm vs LayerNorm vs RMSNorm on one padded batch, pre- vs post-norm gradients
at initialisation (Xiong et al. 2020), and additive (Bahdanau et al. 2015) vs scaled dot-product attention."""

import streamlit as st

from lessons.block_depth import depth_section
from lessons.block_norms import norms_section
from lessons.block_scores import scores_section
from ui import state
from ui.i18n import t

settings = state.current()
st.markdown(t("block.intro"))
norms_section(settings)
depth_section(settings)
scores_section(settings)
