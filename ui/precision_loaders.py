"""Cached computation for the Softmax page's bfloat16 section (lessons/softmax_bf16.py): one model's attention with
float32 and with bfloat16 matmuls, both models from get_model (each precision loaded once, shared by every session)."""

from __future__ import annotations

import streamlit as st

from models.inspection import precision_gap

from . import precision_keys
from .loaders import _remembered, get_model
from .params import local_models


def keys(name: str) -> dict[str, str]:
    """{"float32": weights key, "bfloat16": weights key} of name's trained weights (ui/precision_keys.py)."""
    return {dtype: precision_keys.key(name, "trained", dtype) for dtype in ("float32", "bfloat16")}


def bf16_gap(name: str, text: str) -> dict:
    """precision_gap.compare of name's two precisions on text (cached: gap below, keyed by the folder too)."""
    entry = local_models().get(name)
    k = keys(name)
    return gap(name, "" if entry is None else str(entry.path), k["float32"], k["bfloat16"], text)


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def gap(name: str, folder: str, f32: str, bf16: str, text: str) -> dict:
    """What bf16_gap returns; folder: the published model's (another folder may reuse a name), "" for MiniLM."""
    return precision_gap.compare(get_model(name, f32), get_model(name, bf16), text)
