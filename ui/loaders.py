"""Cached models and traces: the rerun path does no training, no disk I/O and no model rebuild.

Models are st.cache_resource (one shared, read-only instance for every session); traces are
st.cache_data keyed by everything that determines them.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

import models


@st.cache_resource(show_spinner=False)
def get_model(name: str, weights: str = "trained") -> models.LiveModel:
    """The shipped model, or a random-init one with the same config (seed 0) to compare against."""
    trained = models.load(name)
    return trained if weights == "trained" else models.build(trained.config)


def _slim(tr: models.Trace) -> models.Trace:
    """Drop what these pages do not draw (pre-softmax scores, vocabulary logits): a 256-token trace
    falls from 6.8 to about 2.5 MB, and live typing adds one cache entry per pause."""
    return dataclasses.replace(tr, scores={}, logits=np.zeros((0, 0), np.float32))


@st.cache_data(show_spinner=False, max_entries=64)
def trace(
    name: str,
    weights: str,
    text: str,
    target: str | None = None,
    mask: str | None = None,
    prefix_len: int | None = None,
    pad: int = 0,
) -> models.Trace:
    return _slim(get_model(name, weights).run(text, target=target, mask=mask, prefix_len=prefix_len, pad=pad))


@st.cache_data(show_spinner=False, max_entries=64)
def trace_ids(name: str, weights: str, ids: tuple[int, ...], mask: str | None = None) -> models.Trace:
    return _slim(get_model(name, weights).run_ids(list(ids), mask=mask))


@st.cache_data(show_spinner=False, max_entries=64)
def greedy_target(name: str, weights: str, text: str) -> str:
    """The encoder-decoder's own translation of text (to pre-fill the target box)."""
    return get_model(name, weights).translate(text)
