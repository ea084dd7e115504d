"""Cached computations of the post-training page (lessons/posttrain.py): split from ui/loaders.py, whose model
cache they reuse. The held-out margins need no training run; a run's job registry, its networks (read once) and
each stage's greedy answers come after."""

from __future__ import annotations

from pathlib import Path

import streamlit as st
import torch

import models
from models import posttrain_run
from models.training import posttrain

from .loaders import get_model


@st.cache_data(show_spinner=False, max_entries=2)
def shipped_held(weights: str = "trained") -> dict[str, list[float]]:
    """log π(chosen|x) and log π(rejected|x) of the shipped decoder on the held-out pairs (posttrain.measure: two
    batched forwards of 48 short sequences, a fraction of a second), computed once per process."""
    model = get_model("decoder", weights)
    with torch.no_grad():
        return posttrain.measure(model.net, model.tokenizer, posttrain.split()[2])


@st.cache_resource(show_spinner=False, max_entries=4)
def posttrain_runner(root: str) -> posttrain_run.Runner:
    """One post-training job registry per server and cache folder, shared by every session."""
    return posttrain_run.Runner(Path(root))


@st.cache_resource(show_spinner=False, max_entries=2)
def posttrain_entry(root: str, key: str) -> tuple[dict, dict]:
    """(results, {"sft": net, "dpo": net}) of a finished run, read once (posttrain_run.CorruptEntry if bad)."""
    base = models.load("decoder")  # its own copy: the page compares against the untouched shipped weights
    results, nets = posttrain_run.load_entry(posttrain_run.entry_path(key, Path(root)), base.net)
    return results, {"base": base.net.eval(), **nets}


@st.cache_data(show_spinner=False, max_entries=64)
def posttrain_answers(root: str, key: str, prompt: str) -> dict[str, str]:
    """Each stage's greedy answer to a prompt (a few forward passes of the tiny decoder)."""
    _, nets = posttrain_entry(root, key)
    tok = get_model("decoder").tokenizer
    with torch.no_grad():
        return {stage: posttrain.greedy(net, tok, prompt) for stage, net in nets.items()}
