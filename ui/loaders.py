"""Cached models and traces: the rerun path does no training, no disk I/O and no model rebuild.

Models are st.cache_resource (one shared, read-only instance for every session); traces are
st.cache_data keyed by everything that determines them (a published model's, bounded by bytes: ui/trace_cache.py).
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
import time
from collections.abc import Callable

import numpy as np
import streamlit as st
import torch

import models
from models import analysis, data, loading, variants
from models.inspection import experiments, probes
from models.inspection.experiments import self_key
from models.published import pretrained
from models.tokenizer import BPETokenizer
from models.training import mlm, snapshots

from . import precision_keys, trace_cache
from .compare_params import lab_change, lab_entry
from .params import MAX_NEW, local_models

# Sessions are the parallelism (one script thread per rerun): torch's intra-op threads only added a
# thread pool per running session on the same 2 cores. bench/load.py, 40 sessions without think time:
# 2 threads 14.6 reruns/s, p95 4.6 s, 36 server threads; 1 thread 15.0 reruns/s, p95 3.1 s, 18 threads.
torch.set_num_threads(1)

_computed: set[tuple] = set()  # (loader, arguments) that this process has computed: later calls are cache hits


def _call_key(fn: Callable, args: tuple, kwargs: dict) -> tuple:
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()  # get_model("x") and get_model("x", "trained") are the same entry
    return (fn.__qualname__, tuple(bound.arguments.items()))


def _remembered(fn: Callable) -> Callable:
    """Under a st.cache_* decorator: records each computed call, so a page can tell a cache hit
    (instant, nothing shown) from a first computation (shown with st.status, see with_status)."""

    @functools.wraps(fn)
    def inner(*args, **kwargs):
        out = fn(*args, **kwargs)
        _computed.add(_call_key(fn, args, kwargs))
        return out

    return inner


def computed(loader: Callable, *args, **kwargs) -> bool:
    """Whether loader(*args) already ran in this process (so the call is a cache hit, unless the
    entry was evicted since)."""
    return _call_key(inspect.unwrap(loader), args, kwargs) in _computed


def with_status(label: str, loader: Callable, *args, **kwargs):
    """loader(*args), instant when cached; a first computation (a model, a trained variant, a sweep)
    runs under an st.status saying what is happening, removed once done, so the page never looks frozen."""
    if computed(loader, *args, **kwargs):
        return loader(*args, **kwargs)
    box = st.empty()
    try:
        with box.status(label):
            return loader(*args, **kwargs)
    finally:
        box.empty()


@st.cache_resource(show_spinner=False)
def shipped_tokenizer() -> BPETokenizer:
    """The shipped tokenizer alone: the Architecture lab needs only it, so a damaged decoder.pt must not
    block the lab (models.WeightsError when the tokenizer file itself is missing or damaged)."""
    return loading.shipped_tokenizer()


@st.cache_resource(show_spinner=False)
@_remembered
def get_model(name: str, weights: str = "trained") -> models.LiveModel:
    """The shipped model, or a published one from $ATTENTION_LAB_MODELS; or a random-init one with the
    same config (seed 0) to compare against. weights "trained@bfloat16" / "trained@float32": a published
    model's (or MiniLM's) in that precision rather than the process's (ui/precision_keys.py); for a toy model
    the same entry as "trained" (they always run float32)."""
    base, dtype = precision_keys.split(weights)
    if (change := lab_change(name)) is not None:  # the Explorer's lab variant (issue 44): the lab's own cached model
        _, config_json, key = lab_entry(get_model("decoder").config, change)
        return lab_model(config_json, key if base == "trained" else None)
    entry = local_models().get(name)
    if dtype is not None and entry is None and name not in models.PRETRAINED:
        return get_model(name, base)  # a toy: one shared model whatever the session's precision
    at = {} if dtype is None else {"precision": dtype}  # None: the process's ($ATTENTION_LAB_PRECISION)
    if entry is None:
        trained = models.load(name, **at)
    elif entry.error is not None:
        raise models.WeightsError(f"{entry.name}: {entry.error}")
    else:
        trained = models.load(entry.path, **at)
        trained.meta["forward_ms"] = forward_ms(trained)
    return trained if base == "trained" else models.build(trained.config, trained.tokenizer)


FAST_MS = 150  # a 64-token forward slower than this: the prompt runs on Enter, not on every pause in typing


def forward_ms(model: models.LiveModel, n: int = 64) -> float:
    """One 64-token forward with its trace, measured once when a published model is loaded."""
    ids = [t % model.config.vocab_size for t in range(100, 100 + min(n, model.config.max_len))]
    t0 = time.perf_counter()
    model.run_ids(ids)
    return (time.perf_counter() - t0) * 1000


def types_live(model: models.LiveModel) -> bool:
    return model.meta.get("forward_ms", 0.0) <= FAST_MS


def _slim(tr: models.Trace) -> models.Trace:
    """Drop what these pages do not draw (pre-softmax scores, vocabulary logits): a 256-token trace
    falls from 6.8 to about 2.5 MB, and live typing adds one cache entry per pause."""
    return dataclasses.replace(tr, scores={}, logits=np.zeros((0, 0), np.float32))


@trace_cache.cached(max_entries=64)
def trace(
    name: str,
    weights: str,
    text: str,
    target: str | None = None,
    mask: str | None = None,
    prefix_len: int | None = None,
    pad: int = 0,
    window: int | None = None,
) -> models.Trace:
    model = get_model(name, weights)
    run = model.run(text, target=target, mask=mask, prefix_len=prefix_len, pad=pad, window=window, heads_only=True)
    return _slim(run)


@trace_cache.cached(max_entries=64)
def trace_ids(name: str, weights: str, ids: tuple[int, ...], mask: str | None = None) -> models.Trace:
    return _slim(get_model(name, weights).run_ids(list(ids), mask=mask, scores=False, keep_logits=False))


@st.cache_data(show_spinner=False, max_entries=64)
def greedy_target(name: str, weights: str, text: str) -> str:
    """The encoder-decoder's own translation of text (to pre-fill the target box)."""
    return get_model(name, weights).translate(text)


@st.cache_resource(show_spinner=False)
def get_variant(name: str, positional: str, weights: str = "trained") -> models.LiveModel:
    """A random-init model with the shipped model's config but another positional encoding (weights: whose config,
    the session's precision key, so no second copy of a published model is loaded for it)."""
    model = get_model(name, weights)
    cfg = model.config
    rope_only = {} if positional == "rope" else dict(rotary_dim=None, nope_layers=None, rope_local_base=None)
    if positional == "none" and cfg.layer_types:  # a sliding window carries position too: every layer sees all
        rope_only["layer_types"] = tuple("full_attention" if k == "sliding_attention" else k for k in cfg.layer_types)
    return models.build(dataclasses.replace(cfg, positional=positional, **rope_only), model.tokenizer)


def _self_attention_run(model: models.LiveModel, text: str, mask: str | None = None, attn_scale: float | None = None):
    """A run for the model's main self-attention: for the encoder-decoder the encoder side only (no translation)."""
    target = "" if model.config.arch == "encoder-decoder" else None
    return model.run(text, target=target, mask=mask, attn_scale=attn_scale)


@trace_cache.cached(max_entries=32)
def self_scores(name: str, weights: str, text: str, mask: str) -> tuple[list[str], np.ndarray]:
    """(tokens, scaled pre-softmax scores [L, H, T, T]) of the main self-attention under a mask."""
    tr = _self_attention_run(get_model(name, weights), text, mask)
    return tr.tokens, tr.scores[self_key(get_model(name, weights))]


@st.cache_data(show_spinner=False, max_entries=64)
def head_rank_report(
    name: str, weights: str, text: str, mask: str, layer: int, head: int, dtype: str, tol: float | None
) -> analysis.RankReport:
    """The RankReport of one head of a shipped model on text (analysis.rank_report of its cached
    scores): SVDs are computed for what is shown, then cached."""
    scores = self_scores(name, weights, text, mask)[1][layer, head]
    return analysis.rank_report(scores, np.dtype(dtype), tol)


@st.cache_data(show_spinner=False, max_entries=16)
@_remembered
def rank_sweep(name: str, weights: str, inputs: str, n_samples: int) -> dict[str, np.ndarray]:
    return experiments.rank_sweep(get_model(name, weights), n_samples=n_samples, inputs=inputs)


@st.cache_data(show_spinner=False, max_entries=32)
def shuffle_deltas(name: str, text: str, seed: int, weights: str = "trained") -> dict:
    """The shuffle test on the prompt: no-PE model (both masks) and the shipped trained model (weights: its key)."""
    trained, nope = get_model(name, weights), get_variant(name, "none", weights)
    ids = trained.source_ids(text)[0]
    order = experiments.shuffle_order(trained, ids, seed)
    return {
        "tokens": trained.tokenizer.token_strs(ids),
        "order": order,
        "none.bidirectional": experiments.shuffle_test(nope, ids, order, "bidirectional"),
        "none.causal": experiments.shuffle_test(nope, ids, order, "causal"),
        "trained": experiments.shuffle_test(trained, ids, order, trained.config.default_mask),
    }


@st.cache_data(show_spinner=False, max_entries=64)
def scaled_run(name: str, weights: str, text: str, attn_scale: float, top: int = 10) -> dict:
    """Attention, mean entropy per head and (decoder) the top next tokens at one attention scale."""
    model = get_model(name, weights)
    tr = _self_attention_run(model, text, attn_scale=attn_scale)
    att = tr.attention[self_key(model)]
    out = {"tokens": tr.tokens, "attention": att, "entropy": analysis.row_entropy(att).mean(-1)}
    if model.config.arch == "decoder":
        out["next"] = experiments.top_tokens(model, tr.logits[-1], top)
    return out


@st.cache_data(show_spinner=False, max_entries=64)
def mean_entropies(name: str, weights: str, text: str, attn_scales: tuple[float, ...]) -> list[float]:
    """Every head's mean attention entropy, averaged, at each scale: one cache entry for the Softmax page's
    curve instead of a lookup (and a copy of [L, H, T, T] weights) per scale on every rerun (issue 40)."""
    return [float(scaled_run(name, weights, text, s)["entropy"].mean()) for s in attn_scales]


@st.cache_data(show_spinner=False)
def learned_positions(name: str = "encoder", weights: str = "trained") -> np.ndarray:
    """The learned position-embedding table [max_len, d_model] of a model that has one (encoder, MiniLM)."""
    table = get_model(name, weights).net.pos_emb
    if table is None:
        raise ValueError(f"the {name} model has no learned position embeddings")
    return table.weight.detach().double().numpy()


# ----------------------------------------------------------------- generation, translation, masked tokens


@st.cache_data(show_spinner=False, max_entries=32)
def generation(
    weights: str,
    text: str,
    greedy: bool,
    temperature: float,
    top_k: int,
    top_p: float,
    seed: int,
    max_new: int,
    name: str = "decoder",
) -> list[models.Step]:
    """The decoder's continuation of text, every step kept (the page reveals them one by one): the
    same Steps as LiveModel.generate with these settings, computed once with the KV cache."""
    model = get_model(name, weights)
    steps = model.generate(text, max_new, greedy, temperature, top_k or None, top_p if top_p < 1 else None, seed)
    return list(steps)


@st.cache_data(show_spinner=False, max_entries=32)
def translation(weights: str, source: str, max_new: int = MAX_NEW, name: str = "encoder-decoder") -> list[models.Step]:
    """The encoder-decoder's greedy translation of source, step by step (name: a published one, e.g. Marian)."""
    return list(get_model(name, weights).generate(source, max_new))


@st.cache_data(show_spinner=False, max_entries=32)
def forced(weights: str, source: str, target: str, name: str = "encoder-decoder") -> dict:
    """Teacher forcing: the decoder reads the typed target; per-token probabilities and attention."""
    out = experiments.target_probabilities(get_model(name, weights), source, target)
    out["trace"] = _slim(out["trace"])
    return out


@st.cache_data(show_spinner=False, max_entries=64)
def masked_run(
    weights: str, ids: tuple[int, ...], top: int = 10, name: str = "encoder", hidden: tuple[int, ...] = ()
) -> dict:
    """The encoder on ids with [MASK]s: top tokens per masked position, and the attention; with hidden (the ids
    before masking), each hidden token's rank among the encoder's guesses and its probability, so that the page
    can say where it stands when it is not among the top (the default's ␣cats: plural nouns come first)."""
    model = get_model(name, weights)
    tr = model.run_ids(list(ids))
    masked = experiments.mask_positions(list(ids), model.tokenizer.mask_id)
    ranks = {}
    for p in masked if hidden else ():
        if hidden[p] != model.tokenizer.mask_id:
            probs = experiments.softmax(tr.logits[p])
            ranks[p] = (int((probs > probs[hidden[p]]).sum()) + 1, float(probs[hidden[p]]))
    return {
        "tokens": tr.tokens,
        "attention": tr.attention["encoder.self"],
        "top": {p: experiments.top_tokens(model, tr.logits[p], top) for p in masked},
        "hidden": ranks,
    }


@st.cache_data(show_spinner=False, max_entries=64)
def left_context(weights: str, ids: tuple[int, ...], pos: int, top: int = 5) -> tuple[list[str], np.ndarray]:
    """What the decoder-only model predicts at pos from the tokens left of it alone."""
    decoder = get_model("decoder", weights)
    return experiments.top_tokens(decoder, experiments.left_context_logits(decoder, list(ids), pos), top)


@st.cache_data(show_spinner=False, max_entries=16)
def recipe_counts(
    ids: tuple[int, ...], draws: int, seed: int, name: str = "encoder", exact: bool = False
) -> dict[str, np.ndarray]:
    model = get_model(name)
    counts = mlm.recipe_counts(list(ids), model.config.vocab_size, draws, seed, model.tokenizer.special_ids, exact)
    return {k: np.array(v) for k, v in counts.items()}


@st.cache_data(show_spinner=False)
def alignment_heads(weights: str, n: int = 40) -> tuple[np.ndarray, float]:
    """([L, H] share of target words whose strongest cross-attention falls on a source character
    they translate, chance level) over held-out numbers in both scripts."""
    held_out = data.split_numbers()[1][:n]
    pairs = [data.number_pair(k, script) for k in held_out for script in ("digits", "zh")]
    return probes.alignment_scores(get_model("encoder-decoder", weights), pairs)


@st.cache_data(show_spinner=False, max_entries=32)
def sentence_embeddings(sentences: tuple[str, ...]) -> dict[str, np.ndarray]:
    """MiniLM's mean-pooled (what it was trained for) and [CLS] vectors of each sentence, L2-normalised."""
    model = get_model("minilm")
    mean, cls = [], []
    for s in sentences:
        last = model.run(s).hidden["encoder"][-1]
        mean.append(pretrained.mean_pooled(last))
        cls.append(last[0] / np.linalg.norm(last[0]))
    return {"mean": np.array(mean), "cls": np.array(cls)}


# ----------------------------------------------------------------- architecture lab


@st.cache_resource(show_spinner=False)
def training_jobs() -> variants.Jobs:
    """One registry of training jobs per server, shared by every session (scans the cache once)."""
    return variants.Jobs()


@st.cache_resource(show_spinner=False, max_entries=24)
@_remembered
def lab_model(config_json: str, trained_key: str | None) -> models.LiveModel:
    """A lab configuration: random init from its seed, or the weights trained here (read from the
    cache once; variants.CorruptEntry when the entry is bad, which the page reports)."""
    cfg = models.ModelConfig.from_dict(json.loads(config_json))
    tok = shipped_tokenizer()
    if trained_key is None:
        return models.build(cfg, tok)
    jobs = training_jobs()  # a variant the cache could not take is read from the bytes the server kept
    return variants.load(variants.entry_path(trained_key, jobs.root), cfg, tok, jobs.kept.get(trained_key))


@st.cache_resource(show_spinner=False, max_entries=4)
def lab_snapshots(config_json: str, trained_key: str) -> list[tuple[int, models.LiveModel]]:
    """(step, model) of every snapshot kept while the variant trained; [] for an entry without any."""
    cfg = models.ModelConfig.from_dict(json.loads(config_json))
    tok = shipped_tokenizer()
    stored = snapshots.load(variants.entry_path(trained_key, training_jobs().root))
    return [(step, snapshots.replay(cfg, tok, state)) for step, state in stored]


@st.cache_data(show_spinner=False, max_entries=48)
def lab_snapshot_run(config_json: str, trained_key: str, index: int, text: str) -> tuple[list[str], np.ndarray]:
    """(tokens, main self-attention [L, H, T, T]) of one snapshot on the prompt."""
    model = lab_snapshots(config_json, trained_key)[index][1]
    tr = _self_attention_run(model, text)
    return tr.tokens, tr.attention[self_key(model)]


@st.cache_data(show_spinner=False, max_entries=48)
def lab_run(config_json: str, trained_key: str | None, text: str) -> dict:
    """What the lab shows of one configuration on the prompt: the main self-attention, mean entropy
    per head, the gaps between heads' keys (GQA), and the shuffle test's largest change."""
    model = lab_model(config_json, trained_key)
    tr = _slim(_self_attention_run(model, text))
    att = tr.attention[self_key(model)]
    order = experiments.shuffle_order(model, tr.ids)
    return {
        "tokens": tr.tokens,
        "attention": att,
        "entropy": analysis.row_entropy(att).mean(-1),  # [L, H]
        "uniform": float(np.log(tr.masks[self_key(model)].sum(-1)).mean()),  # the same, for uniform rows
        "key_gaps": experiments.key_gaps(experiments.head_keys(model, tr)),  # [L, H, H]
        "shuffle": float(experiments.shuffle_test(model, tr.ids, order, model.config.default_mask).max()),
        "shuffled": order != list(range(len(order))),
        "router": tr.router.get(self_key(model).split(".")[0]),  # MoE: router probabilities [L, T, n], else None
    }
