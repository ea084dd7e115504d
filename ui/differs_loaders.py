"""Cached computations of "What differs, measured" (issue 44, lessons/explorer_differs.py): two models on one prompt.

They reuse ui/loaders.py's model and trace caches (the Explorer's two columns already ran both models on the prompt),
so the section adds no forward pass of its own, and a rerun reads everything from these bounded caches.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st
import torch

import models
from models.core import device, precision, readonly
from models.inspection import compare, interventions

from .loaders import _remembered, get_model, trace

TOP_K = 5  # next tokens listed per model


def compared_trace(name: str, weights: str, text: str) -> tuple[models.LiveModel, models.Trace]:
    """The model and its cached trace on text; an encoder-decoder's source side only (target "": no translation is
    generated, as the comparison reads its encoder)."""
    model = get_model(name, weights)
    target = "" if model.config.arch == "encoder-decoder" else None
    return model, trace(name, weights, text, target)


@st.cache_data(show_spinner=False, max_entries=32)
def lined_up(name_a: str, weights_a: str, name_b: str, weights_b: str, text: str) -> dict:
    """Both tokenizations of text with each position's character span (compare.token_spans), how many tokens each made
    from the text (n_text) and the template tokens around them (specials: [BOS]; [CLS] … [SEP]), and the spans both
    cut the same way (compare.shared_spans)."""
    out = {}
    for side, name, weights in (("a", name_a, weights_a), ("b", name_b, weights_b)):
        model = get_model(name, weights)
        ids = model.source_ids(text)[0]
        before, after = model.template
        tokens = model.tokenizer.token_strs(ids)
        out[side] = dict(
            tokens=tokens,
            specials=tokens[: len(before)] + tokens[len(ids) - len(after) :],
            spans=compare.token_spans(model, text),
            n_text=len(ids) - len(before) - len(after),
            arch=model.config.arch,
        )
    out["shared"] = compare.shared_spans(out["a"]["spans"], out["b"]["spans"], text)
    return out


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def comparison(name_a: str, weights_a: str, name_b: str, weights_b: str, text: str) -> compare.Comparison:
    """compare.compare of the two cached traces: CKA per layer pair, its shuffled baseline, heads matched. Raises
    ValueError (not cached) when the two share fewer than 2 spans: the page checks lined_up first."""
    model_a, trace_a = compared_trace(name_a, weights_a, text)
    model_b, trace_b = compared_trace(name_b, weights_b, text)
    return compare.compare(model_a, trace_a, model_b, trace_b, text)


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def next_tokens(name: str, weights: str, text: str, k: int = TOP_K) -> dict | None:
    """A decoder's k most likely next tokens after the prompt's last position and their probabilities: its last
    layer's residual stream (cached trace) through the final norm and output head, as the forward pass does. None for
    an encoder or encoder-decoder (they do not predict the prompt's next token)."""
    if get_model(name, weights).config.arch != "decoder":
        return None
    model, tr = compared_trace(name, weights, text)
    net = model.net
    with torch.inference_mode():
        last = readonly.tensor(np.asarray(tr.hidden["decoder"][-1])[-1:], precision.activations(net.head.weight.dtype))
        last = last.to(device.of(net))  # the model's device (a GPU's); the probabilities come back to the CPU
        logp = torch.log_softmax(net.logits(net.dec_norm(last))[0].double().cpu(), -1)
    top = torch.topk(logp, min(k, logp.numel()))
    ids = [int(i) for i in top.indices]
    return dict(ids=ids, tokens=model.tokenizer.token_strs(ids), probs=top.values.exp().numpy())


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def lens_tail(name: str, weights: str, text: str, n: int) -> dict:
    """A decoder's logit lens at the prompt's last n positions only (each position's lens is its own row of the
    residual stream through the final norm and head, so the rows are those of the whole lens): on a 2,000-token prompt
    the whole lens of a 152K-token vocabulary was minutes of CPU for 12 rows shown. Keys as head_loaders.logit_lens's,
    with `start`, the first position's index."""
    model, tr = compared_trace(name, weights, text)
    hidden = np.asarray(tr.hidden["decoder"])
    start = max(0, hidden.shape[1] - n)
    lens = interventions.logit_lens(model, dataclasses.replace(tr, hidden={"decoder": hidden[:, start:]}))
    strs = model.tokenizer.token_strs
    return {
        "start": start,
        "tokens": list(tr.tokens)[start:],
        "top": [strs(int(i) for i in row) for row in lens.top_ids],
        "top_prob": lens.top_prob,
    }
