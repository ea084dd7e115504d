"""Cached computations of the "Circuits between heads" page (lessons/circuits.py): one entry per (model, weights,
prompt, head, cell), shared by every session, so a rerun of the page runs no model. Bad input comes back as
{"error": key, ...fields} for the page to say in its language, never as an exception."""

from __future__ import annotations

import numpy as np
import streamlit as st

from models import circuits

from . import patch_pairs
from .head_loaders import head_roles
from .loaders import _remembered, get_model
from .patch_loaders import MAX_TOKENS, _prepare

TOKEN_VOCAB_MAX = 60_000  # the OV and QK circuits in tokens scan the whole vocabulary: GPT-2's 50k takes seconds


def _ids(name: str, weights: str, text: str) -> dict:
    model = get_model(name, weights)
    if model.config.arch != "decoder":
        return {"error": "not_decoder"}
    if not text.strip():
        return {"error": "empty"}
    ids, cut = model.source_ids(text)
    if cut or len(ids) > MAX_TOKENS:
        return {"error": "too_long", "n": len(model.tokenizer.encode(text)), "most": MAX_TOKENS}
    return {"ids": ids, "tokens": model.tokenizer.token_strs(ids)}


@st.cache_data(show_spinner=False, max_entries=64)
@_remembered
def prompt_tokens(name: str, weights: str, text: str) -> dict:
    """The prompt's ids and tokens, or {"error": ...}."""
    return _ids(name, weights, text)


@st.cache_data(show_spinner=False, max_entries=64)
@_remembered
def parts_run(name: str, weights: str, text: str, layer: int, head: int, query: int, key: int) -> dict:
    """circuits.score_parts of one cell, and the head's attention row at the query (for context)."""
    prep = _ids(name, weights, text)
    if "error" in prep:
        return prep
    model = get_model(name, weights)
    try:
        p = circuits.score_parts(model, prep["ids"], layer, head, query, key)
    except ValueError as e:
        return {"error": "model", "detail": str(e)}
    try:
        row = circuits.knock_out(model, prep["ids"], []).pattern_before[layer, head, query]
    except ValueError:  # linear layers elsewhere: no row to show, the split still stands
        row = None
    return {"values": p.values, "total": p.total, "query_labels": p.query_labels, "key_labels": p.key_labels,
            "model_score": p.model_score, "masked": p.masked, "softcap": p.softcap, "largest": p.largest(3),
            "row": row, "tokens": prep["tokens"]}  # fmt: skip


@st.cache_data(show_spinner=False, max_entries=16)
def role_scores(name: str, weights: str) -> dict[str, np.ndarray] | None:
    """The field guide's scores (ui/head_loaders.head_roles), or None for a model it cannot score (Qwen3.5's linear
    layers have no attention weights): the page then labels heads by number only."""
    try:
        return head_roles(name, weights)
    except (KeyError, ValueError, RuntimeError):
        return None


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def composition_run(name: str, weights: str) -> dict:
    """The three composition maps [L, H, L, H], their random baselines and the field guide's roles."""
    model = get_model(name, weights)
    try:
        maps = {k: circuits.composition(model, k) for k in circuits.KINDS}
        base = {k: circuits.composition_baseline(model, k) for k in circuits.KINDS}
    except ValueError as e:
        return {"error": "model", "detail": str(e)}
    from models.inspection.heads import label_heads

    scores = role_scores(name, weights)
    cfg = model.config
    roles = label_heads(scores) if scores is not None else np.full((cfg.n_layers, cfg.n_heads), "", dtype=object)
    return {"maps": maps, "baselines": base, "roles": roles}


def _patched(fn, model, prep: dict, *args, **kwargs):
    """fn(model, the pair's ids, answer, wrong, *args): its result, or the page's {"error": ...} (the prompts', or the
    model layer's ValueError for a family it cannot patch)."""
    if "error" in prep:
        return prep
    try:
        return fn(model, prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"], *args, **kwargs)
    except ValueError as e:
        return {"error": "model", "detail": str(e)}


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def path_run(name: str, weights: str, clean: str, corrupted: str, answer: str, wrong: str, sender: tuple[int, int],
             receiver_input: str) -> dict:  # fmt: skip
    """circuits.path_patch from one sender into every later head's q, k or v input."""
    model = get_model(name, weights)
    prep = _prepare(model, clean, corrupted, answer, wrong)
    r = _patched(circuits.path_patch, model, prep, sender=sender, receiver_input=receiver_input)
    if isinstance(r, dict):
        return r
    strs = model.tokenizer.token_strs
    return {"patched": r.patched, "recovered": r.recovered, "clean": r.clean, "corrupted": r.corrupted,
            "disagree": r.disagree, "answer": strs([prep["answer_id"]])[0],
            "wrong": strs([prep["wrong_id"]])[0]}  # fmt: skip


@st.cache_data(show_spinner=False, max_entries=32)
def entry_run(name: str, weights: str, clean: str, corrupted: str, answer: str, wrong: str, layer: int, head: int,
              query: int, key: int) -> dict:  # fmt: skip
    """circuits.patch_entry: the corrupted run with only head (layer, head)'s weight of key for query taken from the
    clean run (pattern patching of one edge)."""
    model = get_model(name, weights)
    e = _patched(circuits.patch_entry, model, _prepare(model, clean, corrupted, answer, wrong), layer, head, query, key)
    if isinstance(e, dict):
        return e
    return {"patched": e.patched, "clean": e.clean, "corrupted": e.corrupted, "recovered": e.recovered,
            "clean_weight": e.clean_weight, "corrupted_weight": e.corrupted_weight,
            "agree": e.message is not None}  # fmt: skip


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def token_circuits(name: str, weights: str, layer: int, head: int, k: int = 10) -> dict:
    """A head's OV and QK circuits in tokens (top pairs as token strings), copying score and OV's singular values;
    {"error": "vocab"} for a vocabulary too large to scan on a page."""
    model = get_model(name, weights)
    if model.config.vocab_size > TOKEN_VOCAB_MAX:
        return {"error": "vocab", "n": model.config.vocab_size, "most": TOKEN_VOCAB_MAX}
    try:
        ov, qk = circuits.ov_circuit(model, layer, head, k), circuits.qk_circuit(model, layer, head, k)
    except ValueError as e:
        return {"error": "model", "detail": str(e)}
    strs = model.tokenizer.token_strs

    def pairs(c):
        return [(strs([a])[0], strs([b])[0], v) for a, b, v in c.pairs]

    return {"ov": pairs(ov), "qk": pairs(qk), "copying": ov.copying, "qk_copying": qk.copying,
            "singular": np.asarray(ov.singular_values), "rank": ov.effective_rank}  # fmt: skip


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def knock_run(name: str, weights: str, text: str, answer: str, wrong: str, edges: tuple[tuple[int, int], ...],
              layers: tuple[int, ...], heads: tuple[int, ...]) -> dict:  # fmt: skip
    """circuits.knock_out of some (query, key) edges in some layers and heads; the answer's probability and the
    metric (logit[answer] − logit[wrong]) before and after. A row with every key knocked out: {"error": "row"}."""
    prep = _ids(name, weights, text)
    if "error" in prep:
        return prep
    model = get_model(name, weights)
    encode = model.tokenizer.encode
    a_ids, w_ids = (patch_pairs.continuation(encode, text, word) for word in (answer, wrong))
    a_id = a_ids[0] if a_ids else None
    w_id = w_ids[0] if w_ids and (a_id is None or w_ids[0] != a_id) else None
    try:
        k = circuits.knock_out(model, prep["ids"], list(edges), list(layers), list(heads), answer_id=a_id,
                               wrong_id=w_id if a_id is not None else None)  # fmt: skip
    except ValueError as e:
        msg = str(e)
        return {"error": "row", "detail": msg} if "every key" in msg else {"error": "model", "detail": msg}
    strs = model.tokenizer.token_strs
    return {"prob_before": k.prob_before, "prob_after": k.prob_after, "prob_change": k.prob_change,
            "metric_before": k.metric_before, "metric_after": k.metric_after, "metric_change": k.metric_change,
            "before": k.pattern_before, "after": k.pattern_after, "applied": k.edges, "answer": strs([k.answer_id])[0],
            "wrong": None if k.wrong_id is None else strs([k.wrong_id])[0], "tokens": prep["tokens"]}  # fmt: skip
