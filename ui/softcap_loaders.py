"""Cached computation for the Softmax page's soft-capping section (lessons/softmax_softcap.py): one head's scores
before and after Gemma 2's cap, from the cached trace (its layer inputs) and the cached capped scores."""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

from models.inspection import softcap

from .loaders import get_model, self_scores, trace


@st.cache_data(show_spinner=False, max_entries=64)
def softcap_head(name: str, weights: str, text: str, layer: int, head: int) -> dict[str, np.ndarray | list[str]]:
    """{"tokens", "before", "after" [T, T]}: q·k·scale and the trace's capped scores of one decoder head."""
    model = get_model(name, weights)
    tokens, scores = self_scores(name, weights, text, model.config.default_mask)  # [L, H, T, T], capped
    tr = dataclasses.replace(trace(name, weights, text), scores={"decoder.self": scores})
    before, after = softcap.head_scores(model, tr, layer, head)
    return {"tokens": tokens, "before": before, "after": after}
