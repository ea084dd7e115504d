"""Cached computations of the "What a head causes" page (lessons/patch.py): one entry per (model, weights, the two
prompts, answer, wrong), shared by every session, so a class of forty on one template runs the model once and a rerun
of the page runs none. Kept apart from ui/loaders.py, whose model cache it reuses.

Bad input comes back as {"error": key, ...fields} for the page to say in its language, never as an exception.
"""

from __future__ import annotations

import threading

import numpy as np
import streamlit as st

import models
from models import attribution, patching

from . import patch_pairs
from .loaders import _remembered, get_model

MAX_TOKENS = 64  # a patching prompt is a sentence: longer ones are refused (every head × every position is run)
BOOTSTRAP = 1000  # resamples of the batch's pairs for the 95% interval (Efron's percentile bootstrap)


def _prepare(model: models.LiveModel, clean: str, corrupted: str, answer: str, wrong: str) -> dict:
    """Ids of both prompts, answer and wrong tokens; or {"error": ...}. Answers that share their first tokens (小明 and
    小红 are 小 明 and 小 红 to the toy tokenizer) have the shared tokens appended to both prompts, so the metric
    compares the first token where they differ; the page says so."""
    if model.config.arch != "decoder":
        return {"error": "not_decoder"}
    if not clean.strip() or not corrupted.strip():
        return {"error": "empty"}
    (c, c_cut), (k, k_cut) = model.source_ids(clean), model.source_ids(corrupted)
    if c_cut or k_cut or max(len(c), len(k)) > MAX_TOKENS:
        n = max(len(model.tokenizer.encode(clean)), len(model.tokenizer.encode(corrupted)))
        return {"error": "too_long", "n": n, "most": MAX_TOKENS}
    if len(c) != len(k):
        return {"error": "lengths", "n_clean": len(c), "n_corrupted": len(k)}
    encode = model.tokenizer.encode
    a_ids, w_ids = patch_pairs.continuation(encode, clean, answer), patch_pairs.continuation(encode, clean, wrong)
    if not a_ids or not w_ids:
        return {"error": "no_word"}
    same = 0
    while same < min(len(a_ids), len(w_ids)) and a_ids[same] == w_ids[same]:
        same += 1
    if same == min(len(a_ids), len(w_ids)):
        return {"error": "same_tokens"}
    if len(c) + same > MAX_TOKENS:
        return {"error": "too_long", "n": len(c) + same, "most": MAX_TOKENS}
    strs = model.tokenizer.token_strs
    return {
        "clean_ids": [*c, *a_ids[:same]],
        "corrupted_ids": [*k, *a_ids[:same]],
        "answer_id": a_ids[same],
        "wrong_id": w_ids[same],
        "shared": strs(a_ids[:same]),
        "answer_tokens": strs(a_ids),
        "wrong_tokens": strs(w_ids),
    }


# Head maps a page drew as they filled (ui/patch_jobs.py), for patch_run to take instead of running them again.
_DRAWN: dict[tuple, patching.Patching] = {}
_DRAWN_MAX = 8  # one per (model, weights, prompts, words) until patch_run takes it; the oldest out first
_DRAWN_LOCK = threading.Lock()


def keep_drawn(key: tuple, r: patching.Patching) -> None:
    with _DRAWN_LOCK:
        _DRAWN[key] = r
        while len(_DRAWN) > _DRAWN_MAX:
            _DRAWN.pop(next(iter(_DRAWN)))


def drawn(key: tuple) -> bool:
    with _DRAWN_LOCK:
        return key in _DRAWN


def prepared(name: str, weights: str, clean: str, corrupted: str, answer: str, wrong: str) -> dict:
    """The ids and words patch_run would use, or {"error": ...}: checked before a map is drawn as it fills."""
    return _prepare(get_model(name, weights), clean, corrupted, answer, wrong)


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def patch_run(name: str, weights: str, clean: str, corrupted: str, answer: str, wrong: str) -> dict:
    """Every head's exact map, the residual-stream map, direct attribution on the clean prompt and the attribution-
    patching estimate: the page's figures, from one cache entry."""
    model = get_model(name, weights)
    prep = _prepare(model, clean, corrupted, answer, wrong)
    if "error" in prep:
        return prep
    args = (prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"])
    try:
        with _DRAWN_LOCK:
            r = _DRAWN.pop((name, weights, clean, corrupted, answer, wrong), None)
        r = r if r is not None else patching.heads(model, *args)
        res = patching.residual(model, *args)
        est = patching.estimate(model, *args)
        direct = attribution.direct(model, args[0], *args[2:])
    except ValueError as e:  # a family the model layer cannot patch
        return {"error": "model", "detail": str(e)}
    strs = model.tokenizer.token_strs
    return prep | {
        "tokens": strs(prep["clean_ids"]),
        "corrupted_tokens": strs(prep["corrupted_ids"]),
        "answer": strs([prep["answer_id"]])[0],
        "wrong": strs([prep["wrong_id"]])[0],
        "clean": r.clean,
        "corrupted": r.corrupted,
        "disagree": r.disagree,
        "patched": r.patched,
        "recovered": r.recovered,
        "unchanged": r.unchanged,
        "linear_layers": r.linear_layers,
        "resid_patched": res.patched,
        "resid_recovered": res.recovered,
        "est_patched": est.patched,
        "est_recovered": est.recovered,
        "direct": direct.heads,
        "direct_exists": direct.exists,
        "direct_total": direct.total,
        "direct_rest": direct.rest,
        "direct_embed": direct.embed,
        "direct_mlps": direct.mlps,
        "softcapped": direct.softcapped,
    }


@st.cache_data(show_spinner=False, max_entries=32)
@_remembered
def patch_positions(name: str, weights: str, clean: str, corrupted: str, answer: str, wrong: str) -> np.ndarray:
    """[L, H, T] recovered share with one head patched at one position: where in the prompt a head's effect lives."""
    model = get_model(name, weights)
    prep = _prepare(model, clean, corrupted, answer, wrong)
    args = (prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"])
    return patching.heads(model, *args, by_position=True).recovered


def bootstrap(shares: np.ndarray, n: int = BOOTSTRAP, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean over pairs (axis 0) and the percentile bootstrap's 95% interval, resampling whole pairs."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(shares), size=(n, len(shares)))  # [n, pairs]
    means = np.nanmean(shares[idx], axis=1)  # [n, ...]
    return np.nanmean(shares, axis=0), np.nanpercentile(means, 2.5, axis=0), np.nanpercentile(means, 97.5, axis=0)


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def patch_batch(name: str, weights: str, kind: str) -> dict:
    """Eight pairs of a template (names or spans drawn with a fixed seed), each head's recovered share on each, and
    the mean with its bootstrap interval. Pairs whose prompts do not disagree are left out and counted."""
    model = get_model(name, weights)
    toy = name in models.SHIPPED
    pairs = patch_pairs.batch(kind, toy, lambda s: len(model.source_ids(s)[0]))
    shares, used = [], []
    for p in pairs:
        prep = _prepare(model, p.clean, p.corrupted, p.answer, p.wrong)
        if "error" in prep:
            continue
        r = patching.heads(model, prep["clean_ids"], prep["corrupted_ids"], prep["answer_id"], prep["wrong_id"])
        if r.disagree:
            shares.append(r.recovered)
            used.append(p)
    if not shares:
        return {"n": 0, "tried": len(pairs)}
    mean, low, high = bootstrap(np.stack(shares))
    return {"n": len(shares), "tried": len(pairs), "mean": mean, "low": low, "high": high,
            "pairs": [(p.clean, p.corrupted, p.answer, p.wrong) for p in used]}  # fmt: skip
