"""Cached computations for the pretraining-objectives page (lessons/objectives.py): the shipped ELECTRA pair
is loaded once per process, and its detection on a (prompt, seed) is cached like a trace."""

from __future__ import annotations

import dataclasses

import streamlit as st

from models import electra
from models.teaching import replacements
from models.training import objectives

from .loaders import get_model


@st.cache_resource(show_spinner=False)
def get_electra() -> tuple[electra.Electra, dict]:
    """The shipped generator and discriminator (models/weights/electra.pt) and their training report."""
    return electra.load_electra()


@st.cache_data(show_spinner=False, max_entries=64)
def electra_detect(text: str, seed: int) -> dict:
    """Mask with the seed, let the generator sample, let the discriminator label every token."""
    model, _ = get_electra()
    return dataclasses.asdict(electra.detect(model, get_model("encoder").tokenizer, text, seed))


@st.cache_data(show_spinner=False, max_entries=64)
def detector_run(name: str, weights: str, original: str, altered: str) -> dict:
    """A published ELECTRA discriminator on the altered sentence: its tokens, P(replaced) per token
    (LiveModel.replaced_prob) and which tokens really differ from the original sentence's."""
    model = get_model(name, weights)
    tr = model.run(altered)
    before = model.tokenizer.token_strs(model.source_ids(original)[0])
    return {
        "tokens": tr.tokens,
        "p": model.replaced_prob(tr),
        "replaced": replacements.replaced_flags(before, tr.tokens),
        "truncated": tr.truncated,
    }


@st.cache_data(show_spinner=False, max_entries=64)
def mean_fractions(n: int, seeds: int) -> dict[str, float]:
    return objectives.mean_fractions(n, seeds)
