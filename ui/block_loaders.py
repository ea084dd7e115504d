"""Cached computations of the norms-and-attention-scores page (lessons/block*.py): a prompt's norm comparison
and score patterns per text, the gradient experiment and the timings once per process."""

from __future__ import annotations

import numpy as np
import streamlit as st

from models.inspection import probes, qk_map
from models.teaching import additive, norms

from .loaders import _remembered, get_model, trace

DEPTHS = (2, 4, 8, 16)  # the sweep of the last layer's post/pre gradient ratio; 16 = norms.DEPTH's n_layers


@st.cache_data(show_spinner=False, max_entries=64)
def norm_comparison(text: str) -> norms.NormComparison:
    """The shipped decoder's first-layer input of the prompt in two batches, normalised three ways (~5 ms)."""
    return norms.compare(get_model("decoder", "trained"), text)


@st.cache_resource(show_spinner=False)
@_remembered
def depth_gradients() -> tuple[norms.DepthGradients, dict[int, float]]:
    """Pre- vs post-norm W2 gradients at init (norms.DEPTH) and the last layer's post/pre ratio per depth in
    DEPTHS: computed once per process (about a second), never on a rerun."""
    tok = get_model("decoder", "trained").tokenizer
    main = norms.depth_gradients(tokenizer=tok)
    sweep = {}
    for n in DEPTHS:
        g = main if n == norms.DEPTH["n_layers"] else norms.depth_gradients(tokenizer=tok, n_layers=n)
        sweep[n] = float(g.post.mean(0)[-1] / g.pre.mean(0)[-1])
    return main, sweep


@st.cache_data(show_spinner=False, max_entries=64)
def score_patterns(name: str, weights: str, text: str, layer: int, head: int) -> dict:
    """One head's q, k on the prompt (qk_map.head_qk), scored both ways and softmaxed under the model's mask."""
    model = get_model(name, weights)
    tr = trace(name, weights, text)
    kind = probes.self_attention_key(model)
    q, k = qk_map.head_qk(model, tr.hidden[qk_map.stream_key(kind)][layer], kind, layer, head)
    p = additive.additive_params(q.shape[-1])
    mask = np.asarray(tr.masks[kind])
    return {
        "tokens": tr.tokens,
        "kind": kind,
        "d_k": q.shape[-1],
        "d_a": p.v.shape[0],
        "n_params": p.n_params,
        "dot": additive.softmax_rows(additive.dot_scores(q, k), mask),
        "additive": additive.softmax_rows(additive.additive_scores(q, k, p), mask),
        "model": np.asarray(tr.attention[kind][layer, head], dtype=np.float64),
    }


@st.cache_resource(show_spinner=False, max_entries=8)
def wall_times(d_k: int, d_a: int) -> dict[str, list[float]]:
    """Measured once per process and shape."""
    return additive.wall_times(d_k, d_a)
