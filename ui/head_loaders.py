"""Cached computations for the pages on what heads do (lessons/heads.py, lessons/lens.py): split from
ui/loaders.py, whose model and trace caches they reuse, to keep each file readable."""

from __future__ import annotations

import dataclasses

import numpy as np
import streamlit as st

import models
from models.inspection import heads, interventions, neuron_view, probes, qk_map, revisions

from .loaders import _remembered, get_model, trace
from .params import local_models

# ----------------------------------------------------------------- logit lens and knock-out (lessons/lens.py)


@st.cache_data(show_spinner=False, max_entries=32)
def logit_lens(name: str, weights: str, text: str) -> dict:
    """The logit lens of a decoder on text: top token and probabilities per layer and position, as strings."""
    model = get_model(name, weights)
    tr = trace(name, weights, text)
    lens = interventions.logit_lens(model, tr)
    strs = model.tokenizer.token_strs
    return {
        "tokens": tr.tokens,
        "top": [strs(int(i) for i in row) for row in lens.top_ids],
        "top_ids": lens.top_ids,
        "top_prob": lens.top_prob,
        "final": strs(int(i) for i in lens.final_ids),
        "final_prob": lens.final_prob,
    }


@st.cache_data(show_spinner=False, max_entries=64)
def knockout(name: str, weights: str, text: str, layer: int, heads: tuple[int, ...], mode: str) -> dict:
    """The unchanged decoder beside the same one with heads of a layer knocked out, on the prompt."""
    model = get_model(name, weights)
    ko = interventions.knockout(model, model.source_ids(text)[0], layer, heads, mode)
    return dataclasses.asdict(ko) | {"names": model.tokenizer.token_strs(int(i) for i in ko.top_ids)}


@st.cache_data(show_spinner=False, max_entries=64)
@_remembered
def copying(name: str, weights: str, layer: int | None, heads: tuple[int, ...], mode: str) -> float:
    """Copying accuracy on repeated random spans (interventions.copying_accuracy), with those heads knocked out
    (layer None: the unchanged model). 10 spans: the page's number, not the test's."""
    model = get_model(name, weights)
    ablate = None if layer is None else interventions.ablation(model, layer, heads, mode)
    return interventions.copying_accuracy(model, ablate, n_seqs=10)


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def induction(name: str, weights: str) -> np.ndarray:
    """[L, H] induction scores (probes.induction_scores, Olsson et al. 2022), to suggest heads to knock out."""
    return probes.induction_scores(get_model(name, weights), n_seqs=5)


# ----------------------------------------------------------------- what each head does


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def head_roles(name: str, weights: str = "trained") -> dict[str, np.ndarray]:
    """models.head_scores of a model: its own seeded inputs, so one entry per model (MiniLM ~1 s, once)."""
    return heads.head_scores(get_model(name, weights))


@st.cache_resource(show_spinner=False, max_entries=8)
def qk_probe_batch(name: str, weights: str = "trained") -> qk_map.ProbeBatch:
    """The random sequences beside the prompt on the query/key map, and their residual stream: once per model."""
    return qk_map.probe_batch(get_model(name, weights))


@st.cache_data(show_spinner=False, max_entries=64)
def qk_points(name: str, weights: str, text: str, layer: int, head: int) -> qk_map.QKMap:
    """One head's query/key map over the prompt's (cached) trace and the model's probe batch."""
    model = get_model(name, weights)
    return qk_map.qk_map(model, trace(name, weights, text), layer, head, qk_probe_batch(name, weights))


@st.cache_data(show_spinner=False, max_entries=64)
def neuron(name: str, weights: str, text: str, target: str | None, kind: str, layer: int, head: int, query: int,
           key: int) -> neuron_view.NeuronView:  # fmt: skip
    """The Explorer's neuron view of one query and key of one head (models/inspection/neuron_view.py) over the cached
    trace."""
    return neuron_view.neuron_view(get_model(name, weights), trace(name, weights, text, target), kind, layer, head,
                                   query, key)  # fmt: skip


# ----------------------------------------------------------------- heads forming during training (real checkpoints)


@st.cache_data(show_spinner=False, max_entries=512)
def revision_scores(name: str, digest: str) -> dict[str, np.ndarray]:
    """One checkpoint's previous-token and induction scores, once per weights (digest): loaded, scored and let go,
    so a replay of many checkpoints never keeps them in the model cache."""
    return revisions.scores(models.load(name))


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def revision_replay(repo: str, models_key: str) -> dict:
    """revisions.replay of the repo's cached checkpoints; models_key (params.models_key()) changes when the cache
    does, so a new download is replayed, and a rerun reads the result without hashing or loading anything."""
    entries = revisions.groups(local_models().values()).get(repo, [])
    return revisions.replay(entries, score=lambda entry, digest: revision_scores(entry.name, digest))
