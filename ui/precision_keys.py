"""A session's precision for published models (issue 30), carried in the weights key every loader already takes.

Loaders and caches are keyed by (name, weights): a published model's trained weights in the precision that is not
the process's default are asked for as "trained@bfloat16" or "trained@float32", so get_model, the byte-bounded trace
cache and every st.cache_data loader keep one entry per precision, shared by the sessions that run it. The process's
own precision stays plain "trained" (so a session on the default shares what every hard-coded "trained" loads), and
so do the toy models (always float32) and random-init weights (built float32 from the config).
"""

from __future__ import annotations

import os

import streamlit as st
import torch

import models
from models.core import device, precision

from .params import local_models

SEP = "@"
KEY = "precision"  # the sidebar toggle's widget key and URL parameter


def default_choice() -> str:
    """A new session's setting: $ATTENTION_LAB_PRECISION, or auto when unset or not a precision."""
    try:
        return precision.choice(os.environ.get(precision.ENV) or None)
    except ValueError:
        return precision.DEFAULT


def dtype_name(choice: str | None) -> str:
    """ "float32" or "bfloat16": what `choice` runs on this machine (auto resolved); a bad word reads float32."""
    try:
        gpu = device.on_gpu(device.resolve())  # auto: bfloat16 where a GPU runs published models
        return "bfloat16" if precision.resolve(choice, gpu) == torch.bfloat16 else "float32"
    except ValueError:
        return "float32"


def process_dtype() -> str | None:
    """What plain "trained" loads (models.load with precision=None), or None when $ATTENTION_LAB_PRECISION is bad."""
    try:
        precision.choice()
    except ValueError:
        return None
    return dtype_name(None)


def published(name: str) -> bool:
    """A model whose matmuls the precision applies to: a published folder or Hub snapshot, or MiniLM."""
    return name in models.PRETRAINED or name in local_models()


def session_choice() -> str:
    """This session's toggle (auto | float32 | bfloat16), else the default."""
    value = st.session_state.get(KEY)
    return value if value in precision.CHOICES else default_choice()


def key(name: str, weights: str, choice: str | None = None) -> str:
    """The weights key a loader takes for `name` run in `choice` (None: this session's): "trained@<dtype>" only for
    a published model's trained weights in a dtype other than the process's."""
    base = split(weights)[0]
    if base != "trained" or not published(name):
        return base
    dtype = dtype_name(choice or session_choice())
    return base if dtype == process_dtype() else f"{base}{SEP}{dtype}"


def trained(name: str) -> str:
    """key(name, "trained"): what a page that always shows trained weights passes for the session's model."""
    return key(name, "trained")


def split(weights: str) -> tuple[str, str | None]:
    """ "trained@bfloat16" -> ("trained", "bfloat16"); "trained" -> ("trained", None): the process's precision."""
    base, _, dtype = weights.partition(SEP)
    return base, (dtype or None)


def base(weights: str) -> str:
    """The weights without the precision ("trained" or "random"), for labels and checks."""
    return split(weights)[0]
