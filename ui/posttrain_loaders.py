"""Cached computations of the post-training page (lessons/posttrain.py) that need no training run: split from
ui/loaders.py, whose model cache they reuse."""

from __future__ import annotations

import streamlit as st
import torch

from models import posttrain

from .loaders import get_model


@st.cache_data(show_spinner=False, max_entries=2)
def shipped_held(weights: str = "trained") -> dict[str, list[float]]:
    """log π(chosen|x) and log π(rejected|x) of the shipped decoder on the held-out pairs (posttrain.measure: two
    batched forwards of 48 short sequences, a fraction of a second), computed once per process."""
    model = get_model("decoder", weights)
    with torch.no_grad():
        return posttrain.measure(model.net, model.tokenizer, posttrain.split()[2])
