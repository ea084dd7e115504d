"""Interventions on one wire (issue 43): path patching from one head into later heads' q, k or v, and knocking out
one edge (query, key) of an attention pattern. Both reuse activation patching's taps (patch_hooks.py): nothing is
written to the shared model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import torch

from .patch_hooks import (
    Capture,
    Cells,
    as_ids,
    metric,
    pair,
    run_blocks,
    setup,
    stream_of,
    tapped,
    token,
)
from .patching import recovered_share

INPUTS = ("q", "k", "v")


@dataclass(frozen=True)
class PathPatch:
    """The metric (logit[answer] − logit[wrong], last position) on the corrupted prompt when only the sender's
    clean-minus-corrupted write reaches receiver (l, h)'s `receiver_input`; every other reader still sees the
    corrupted write (TransformerLens's get_act_patch_direct_path). [L, H] (k, v: [L, H_kv], one K/V head serves its
    group); rows at or before the sender's layer, and linear layers, are NaN: not measured."""

    patched: np.ndarray
    recovered: np.ndarray  # (patched − corrupted) / (clean − corrupted); NaN where the prompts agree
    clean: float
    corrupted: float
    sender: tuple[int, int]
    receiver_input: str
    disagree: bool
    message: str | None
    answer_id: int
    wrong_id: int


def _writes_directly(s, layer: int) -> None:
    cfg = s.cfg
    if cfg.norm_position in ("post", "post_sub", "sandwich"):
        raise ValueError(
            f"path patching needs each head's write to reach the stream as z·W_O; this model ({cfg.norm_position!r} "
            f"norms) normalises what a sublayer writes, so one head's write is not separable"
        )
    if layer in s.linear:
        raise ValueError(f"layer {layer} is a linear-attention layer: it has no softmax head to send from")


def path_patch(model, clean_ids, corrupted_ids, answer_id, wrong_id, sender: tuple[int, int],
               receiver_input: str = "q") -> PathPatch:  # fmt: skip
    """Direct path patching (Wang et al. 2022) from head `sender` = (layer, head) into every later head's q, k or v:
    the sender's write difference (z_clean − z_corr)·W_O,h at every position is added to the receiver's own copy of
    its layer's input (before the norm), and the rest of the run is the corrupted one."""
    if receiver_input not in INPUTS:
        raise ValueError(f"receiver_input={receiver_input!r} is not one of q, k, v")
    s, clean, corrupted = pair(model, clean_ids, corrupted_ids)
    vocab = s.cfg.vocab_size
    answer, wrong = token(answer_id, "answer_id", vocab), token(wrong_id, "wrong_id", vocab)
    l1, h1 = int(sender[0]), int(sender[1])
    if not (0 <= l1 < s.n_layers and 0 <= h1 < s.cfg.n_heads):
        raise ValueError(f"sender {sender} is not a head of this model ({s.n_layers} layers, {s.cfg.n_heads} heads)")
    _writes_directly(s, l1)
    dh = s.cfg.d_head
    with torch.inference_mode():
        cap_c, cap_x = Capture(s, ["z"]), Capture(s, ["z"])
        clean_stream, corr_stream = stream_of(s, clean, cap_c), stream_of(s, corrupted, cap_x)
        m_clean = float(metric(s, clean_stream[-1][:, -1], answer, wrong)[0])
        m_corr = float(metric(s, corr_stream[-1][:, -1], answer, wrong)[0])
        dz = cap_c.acts["z"][l1][0, h1] - cap_x.acts["z"][l1][0, h1]  # heads-first (1, H, T, dh) -> (T, dh)
        w_o = s.attn[l1].o.weight[:, h1 * dh : (h1 + 1) * dh]  # (d, dh)
        delta = (dz.to(w_o.dtype) @ w_o.T).to(corr_stream[0].dtype)  # (T, d); W_O's bias cancels
        if s.net.decoder[l1].residual_scale is not None:  # Granite: x + s·attn
            delta = delta * s.net.decoder[l1].residual_scale
        width = s.width(receiver_input)
        patched = np.full((s.n_layers, width), np.nan)
        pos = s.positions(len(clean))
        for l2 in range(l1 + 1, s.n_layers):
            n = s.heads(l2, receiver_input)
            if n == 0:
                continue
            block, attn = s.net.decoder[l2], s.attn[l2]
            x = corr_stream[l2]
            h_in = block._sublayer_input(x + delta, block.norm_self, block.post_self)
            q = attn._split(attn.project_q(h_in), attn.n_heads)
            k = attn._split(attn.project_k(h_in), attn.n_kv_heads)
            q, k = attn.prepare_qk(q, k, pos)
            src = {"q": q, "k": k, "v": attn._split(attn.v(h_in), attn.n_kv_heads)}[receiver_input]
            out = run_blocks(s, x.expand(n, -1, -1), l2, Cells(attn, receiver_input, src, range(n)))
            patched[l2, :n] = metric(s, out[:, -1], answer, wrong).double().cpu().numpy()
    recovered, disagree, message = recovered_share(patched, m_clean, m_corr)
    return PathPatch(patched, recovered, m_clean, m_corr, (l1, h1), receiver_input, disagree, message, answer, wrong)


# ---------------------------------------------------------------- knocking out edges


@dataclass(frozen=True)
class KnockOut:
    """The run with score(i, j) = −∞ before the softmax for the knocked-out (query, key) edges in the chosen layers
    and heads (each touched row renormalises over its other keys; Geva et al. 2023). Patterns [L, H, T, T]."""

    prob_before: float  # the answer's probability at the last position, unmodified run
    prob_after: float
    prob_change: float  # after − before
    metric_before: float | None  # logit[answer] − logit[wrong] (None without wrong_id)
    metric_after: float | None
    metric_change: float | None
    pattern_before: np.ndarray
    pattern_after: np.ndarray
    edges: tuple[tuple[int, int], ...]  # the edges that existed (the mask had not already hidden them)
    layers: tuple[int, ...]
    heads: tuple[int, ...]
    answer_id: int
    wrong_id: int | None


class _Knock:
    """The tap: in the chosen layers' chosen heads, the touched rows lose the knocked keys and renormalise; every
    layer's pattern (as used) is kept."""

    def __init__(self, s, cut: dict[int, torch.Tensor], heads: list[int]):
        self.index = {id(a): i for i, a in enumerate(s.attn)}
        self.cut, self.heads = cut, heads
        self.patterns: dict[int, torch.Tensor] = {}

    def __call__(self, module, name, t):
        layer = self.index.get(id(module))
        if name != "pattern" or layer is None:
            return t
        cut = self.cut.get(layer)
        if cut is not None and bool(cut.any()):
            t = t.clone()
            rows = cut.any(-1)  # (T,) queries with a knocked key
            for h in self.heads:
                w = t[:, h, rows] * (~cut[rows]).to(t.dtype)  # (B, R, T): a softmax over the remaining keys
                t[:, h, rows] = w / w.sum(-1, keepdim=True)
        self.patterns[layer] = t[0].detach()
        return t


def _run_knocked(s, src, cut, heads):
    tap = _Knock(s, cut, heads)
    with tapped(tap):
        x, _, _ = s.net.run_stack(s.net.decoder, src, s.mask, s.scale, need_weights=False)
        logits = s.net.logits(s.net.dec_norm(x[:, -1:]))[0, -1].double()
    pattern = torch.stack([tap.patterns[i] for i in range(s.n_layers)]).double().cpu().numpy()
    return logits, pattern


def knock_out(model, ids, edges: Iterable[tuple[int, int]], layers=None, heads=None, answer_id=None,
              wrong_id=None) -> KnockOut:  # fmt: skip
    """Knock the (query, key) `edges` out of the chosen layers and heads (None: all). answer_id: the token whose
    probability is followed (None: the model's own top prediction); wrong_id gives the metric too. A row whose every
    visible key is knocked out is a ValueError (a softmax over no keys is undefined), not NaN."""
    s0 = setup(model, 1)
    ids = as_ids(ids, "ids", s0.cfg.vocab_size)
    s = setup(model, len(ids))
    n = len(ids)
    if s.linear:
        raise ValueError("knocking out an edge needs softmax attention in every layer; this model has linear layers")
    layers = list(range(s.n_layers)) if layers is None else [int(i) for i in np.atleast_1d(layers)]
    heads = list(range(s.cfg.n_heads)) if heads is None else [int(h) for h in np.atleast_1d(heads)]
    if any(not 0 <= i < s.n_layers for i in layers) or any(not 0 <= h < s.cfg.n_heads for h in heads):
        raise ValueError(f"layers must be in 0..{s.n_layers - 1} and heads in 0..{s.cfg.n_heads - 1}")
    asked = torch.zeros(n, n, dtype=torch.bool, device=s.device)
    for q, k in edges:
        if not (0 <= int(q) < n and 0 <= int(k) < n):
            raise ValueError(f"edge ({q}, {k}) is outside the prompt's {n} positions")
        asked[int(q), int(k)] = True
    pos = s.positions(n)
    cut, kept = {}, set()
    for i in layers:
        block = s.net.decoder[i]
        seen = s.mask if block.window is None else block.windowed(s.mask, pos, n)  # Gemma's sliding layers
        c = asked & seen
        dead = (seen.any(-1) & ~(seen & ~c).any(-1)).nonzero().flatten().tolist()
        if dead:
            raise ValueError(
                f"query position {dead[0]} has every key it can see knocked out in layer {i}: a softmax over no keys "
                f"is undefined, so keep at least one of its keys"
            )
        cut[i] = c
        kept.update(map(tuple, c.nonzero().tolist()))
    src = torch.tensor([ids], dtype=torch.long, device=s.device)
    with torch.inference_mode():
        before, p_before = _run_knocked(s, src, {}, heads)
        after, p_after = _run_knocked(s, src, cut, heads)
    answer = int(before.argmax()) if answer_id is None else token(answer_id, "answer_id", s.cfg.vocab_size)
    wrong = None if wrong_id is None else token(wrong_id, "wrong_id", s.cfg.vocab_size)
    pb, pa = float(torch.softmax(before, -1)[answer]), float(torch.softmax(after, -1)[answer])
    mb = None if wrong is None else float(before[answer] - before[wrong])
    ma = None if wrong is None else float(after[answer] - after[wrong])
    return KnockOut(pb, pa, pa - pb, mb, ma, None if wrong is None else ma - mb, p_before, p_after,
                    tuple(sorted(kept)), tuple(layers), tuple(heads), answer, wrong)  # fmt: skip


# ---------------------------------------------------------------- one clean pattern entry


@dataclass(frozen=True)
class EntryPatch:
    """The corrupted run with one attention entry (query, key) of one head taken from the clean run."""

    patched: float  # the metric with the entry patched
    clean: float
    corrupted: float
    recovered: float  # (patched − corrupted) / (clean − corrupted); NaN where the prompts agree
    clean_weight: float  # the entry in the clean run's pattern
    corrupted_weight: float  # ... in the corrupted run's
    message: str | None


class _Entry:
    """The tap: at one attention, row `query` of `head` gets w_clean at `key` and its other entries rescaled by
    (1 − w_clean) / (1 − w_corr), so the row still sums to 1 and keeps its other proportions."""

    def __init__(self, module, head: int, query: int, key: int, value: float | None):
        self.module, self.head, self.query, self.key, self.value = module, head, query, key, value
        self.seen: float | None = None

    def __call__(self, module, name, t):
        if module is not self.module or name != "pattern":
            return t
        row = t[0, self.head, self.query]
        self.seen = float(row[self.key])
        if self.value is None:
            return t
        t = t.clone()
        rest = 1.0 - float(row[self.key])
        new = row * ((1.0 - self.value) / rest) if rest > 0 else torch.zeros_like(row)
        new[self.key] = self.value
        t[0, self.head, self.query] = new
        return t


def patch_entry(model, clean_ids, corrupted_ids, answer_id, wrong_id, layer: int, head: int, query: int,
                key: int) -> EntryPatch:  # fmt: skip
    """Pattern patching of a single edge: how much of the answer comes back when only head (layer, head)'s weight
    of `key` for `query` is the clean run's (activation patching's "pattern" map patches a whole row)."""
    s, clean, corrupted = pair(model, clean_ids, corrupted_ids)
    vocab = s.cfg.vocab_size
    answer, wrong = token(answer_id, "answer_id", vocab), token(wrong_id, "wrong_id", vocab)
    if not 0 <= layer < s.n_layers or layer in s.linear or not 0 <= head < s.cfg.n_heads:
        raise ValueError(f"({layer}, {head}) is not a softmax attention head of this model")
    if not 0 <= key <= query < len(clean):
        raise ValueError(f"query {query} and key {key} must be positions with key <= query < {len(clean)}")
    attn = s.attn[layer]
    with torch.inference_mode():
        read_clean, read_corr = _Entry(attn, head, query, key, None), _Entry(attn, head, query, key, None)
        m_clean = float(metric(s, stream_of(s, clean, read_clean)[-1][:, -1], answer, wrong)[0])
        m_corr = float(metric(s, stream_of(s, corrupted, read_corr)[-1][:, -1], answer, wrong)[0])
        tap = _Entry(attn, head, query, key, read_clean.seen)
        m = float(metric(s, stream_of(s, corrupted, tap)[-1][:, -1], answer, wrong)[0])
    rec, _, message = recovered_share(np.array(m), m_clean, m_corr)
    return EntryPatch(m, m_clean, m_corr, float(rec), read_clean.seen, read_corr.seen, message)
