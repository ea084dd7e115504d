"""Activation patching (issue 42): how much of the answer one head's activation carries from one prompt to another.

The metric is logit[answer] - logit[wrong] at the last position. Denoising runs the corrupted prompt with one head's
activation taken from the clean run; noising runs the clean prompt with it taken from the corrupted run (1 - R reads
as "necessary"); zero, mean and resample ablation run the clean prompt with it zeroed, averaged over other prompts,
or taken from each of them. recovered = (patched - corrupted) / (clean - corrupted) in every mode.

Exact and fast: each prompt runs once, keeping the residual stream at every layer; layer l's heads then run as one
batch (batch item i = head i patched) from block l's input onward, and the metric reads the last position's two
unembedding rows. The naive loop (fast=False: one whole forward with [T, V] logits per head, as TransformerLens's
get_act_patch_* run) gives the same numbers; bench/patching_speed.py times both. Attribution patching (`estimate`)
and the per-head direct effect (attribution.direct) live beside this.

Qwen3.5's Gated DeltaNet layers: "out" patches each value head's output before out_proj; they have no softmax pattern
and no q/k/v heads of that kind, so those maps' rows are NaN there, and every result lists the linear layers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from .patch_hooks import (
    AGREE_BELOW,
    NAME,
    WHAT,
    Capture,
    Cells,
    Leaves,
    Setup,
    as_ids,
    full_metric,
    heads_first,
    metric,
    pair,
    run_blocks,
    stream_of,
    tapped,
    token,
)

MODES = ("denoise", "noise", "zero", "mean", "resample")
BATCH_TOKENS = 4096  # tokens per batched run from layer l on (heads × T): bounds the FFN's activations in memory


@dataclass(frozen=True)
class Patching:
    """One patching map. Shapes: [L, H] (k, v: [L, H_kv]; by position [L, H, T]; the residual map [L, T]).
    Cells a layer lacks (a linear layer's q, k, v and pattern; heads past its count) are NaN."""

    clean: float  # the metric on the clean prompt
    corrupted: float  # ... on the corrupted prompt
    patched: np.ndarray  # the metric with that activation patched
    recovered: np.ndarray  # (patched - corrupted) / (clean - corrupted); NaN where the prompts agree
    unchanged: np.ndarray  # bool: the patched-in activation equalled the one it replaced (the patch did nothing)
    what: str  # out | q | k | v | pattern | resid
    mode: str  # denoise | noise | zero | mean | resample
    by_position: bool
    disagree: bool  # |clean - corrupted| >= 0.1: the prompts disagree about the answer, so `recovered` means something
    message: str | None  # why not, in English (the page says it in its language)
    linear_layers: tuple[int, ...]  # Qwen3.5's Gated DeltaNet layers: "out" patches each value head; others NaN
    answer_id: int
    wrong_id: int
    cancelled: bool = False  # cancel() said stop: the layers after the last one done are NaN


def recovered_share(patched: np.ndarray, clean: float, corrupted: float) -> tuple[np.ndarray, bool, str | None]:
    """(recovered, disagree, message): dividing by an almost-zero difference would draw noise as a finding."""
    gap = clean - corrupted
    if abs(gap) < AGREE_BELOW:
        msg = (
            f"the two prompts nearly agree about the answer (logit difference {clean:.3f} clean, {corrupted:.3f} "
            f"corrupted: less than {AGREE_BELOW} apart), so no share of it can be recovered"
        )
        return np.full_like(patched, np.nan), False, msg
    return (patched - corrupted) / gap, True, None


def _checked(what: str, mode: str, prompts) -> None:
    if what not in (*WHAT, "resid"):
        raise ValueError(f"what={what!r} is not one of {', '.join(WHAT)} or resid")
    if mode not in MODES:
        raise ValueError(f"mode={mode!r} is not one of {', '.join(MODES)}")
    if mode in ("mean", "resample") and not prompts:
        raise ValueError(f"mode={mode!r} needs prompts= (the prompts to average over or resample from)")


def _acts(s: Setup, ids: list[int], name: str | None) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """(residual stream [L+1] of (1, T, d), per layer the heads-first activation `name`; the stream itself for
    the residual map, name None)."""
    cap = Capture(s, [name] if name else [])
    stream = stream_of(s, ids, cap)
    return stream, (cap.acts[name] if name else stream[:-1])


def _sources(s, mode, name, clean_acts, corr_acts, prompts, n_tokens) -> list[list[torch.Tensor | None]]:
    """What is patched in, per layer; several for resample (their metrics are averaged)."""
    if mode == "denoise":
        return [clean_acts]
    if mode == "noise":
        return [corr_acts]
    if mode == "zero":
        return [[None if a is None else torch.zeros_like(a) for a in clean_acts]]
    others = []
    for i, p in enumerate(prompts):
        ids = as_ids(p, f"prompts[{i}]", s.cfg.vocab_size)
        if len(ids) != n_tokens:
            raise ValueError(f"prompts[{i}] has {len(ids)} tokens; every prompt needs the clean prompt's {n_tokens}")
        others.append(_acts(s, ids, name)[1])
    if mode == "resample":
        return others
    return [[None if a[0] is None else torch.stack(a).mean(0) for a in zip(*others, strict=True)]]


def _changed(source: torch.Tensor, base: torch.Tensor, by_position: bool) -> np.ndarray:
    """[H] or [H, T] (resid: [T]): where the source differs from the activation it would replace."""
    diff = (source[0].to(base.dtype) != base[0]).cpu()
    if base.dim() == 3:  # the residual stream (1, T, d)
        return diff.any(-1).numpy()
    per_pos = diff.flatten(2).any(-1)  # (H, T)
    return (per_pos if by_position else per_pos.any(-1)).numpy()


def _cells(s: Setup, what: str, layer: int, by_position: bool, n_tokens: int) -> list[tuple[int | None, int | None]]:
    """(head, position) of every cell of a layer's row; a residual row's cells are positions."""
    if what == "resid":
        return [(None, p) for p in range(n_tokens)]
    pos = range(n_tokens) if by_position else [None]
    return [(h, p) for h in range(s.heads(layer, what)) for p in pos]


def _index(cell, by_position):
    h, p = cell
    if h is None:
        return (p,)
    return (h, p) if by_position else (h,)


def _run_cells(s, what, layer, chunk, base_stream, base_ids, source, answer, wrong, fast) -> list[float]:
    """The metric with each cell of `chunk` patched: one batch from block `layer` on (fast), or one whole forward
    with [T, V] logits each (the naive loop)."""
    name = NAME.get(what)
    heads = [h for h, _ in chunk]
    pos = None if chunk[0][1] is None else [p for _, p in chunk]
    if not fast:
        return [_naive(s, what, layer, cell, base_ids, source, answer, wrong) for cell in chunk]
    x = base_stream[layer].expand(len(chunk), -1, -1)
    tap = None
    if what == "resid":
        x = x.clone()
        b = torch.arange(len(chunk), device=x.device)
        x[b, torch.tensor(pos, device=x.device)] = source[0, pos].to(x.dtype)
    else:
        tap = Cells(s.attn[layer], name, source, heads, pos)
    x = run_blocks(s, x, layer, tap)
    return metric(s, x[:, -1], answer, wrong).double().cpu().tolist()


def _naive(s, what, layer, cell, base_ids, source, answer, wrong) -> float:
    """One whole forward of the base prompt with one cell patched, read from the full logits."""
    h, p = cell
    src = torch.tensor([base_ids], dtype=torch.long, device=s.device)
    if what != "resid":
        tap = Cells(s.attn[layer], NAME[what], source, [h], None if p is None else [p])
        with tapped(tap):
            x, _, _ = s.net.run_stack(s.net.decoder, src, s.mask, s.scale)
        return full_metric(s, x, answer, wrong)
    x = s.net.embed(src, s.positions(len(base_ids)))
    for i, block in enumerate(s.net.decoder):
        if i == layer:
            x = x.clone()
            x[0, p] = source[0, p].to(x.dtype)
        x, _ = block(x, s.mask, s.scale, s.positions(len(base_ids)))
    return full_metric(s, x, answer, wrong)


def _row(s, what, layer, by_position, changed, base_stream, base_ids, source, answer, wrong, fast, base_metric,
         shape) -> np.ndarray:  # fmt: skip
    """One layer's row of the map for one source. A cell whose activation is the same in both runs keeps the base
    metric without a run (fast); the naive loop runs every cell, as TransformerLens does."""
    row = np.zeros(shape)
    cells = _cells(s, what, layer, by_position, len(base_ids))
    todo = [c for c in cells if changed[_index(c, by_position)] or not fast]
    size = max(1, BATCH_TOKENS // len(base_ids))
    for a in range(0, len(todo), size):
        chunk = todo[a : a + size]
        vals = _run_cells(s, what, layer, chunk, base_stream, base_ids, source, answer, wrong, fast)
        for c, v in zip(chunk, vals, strict=True):
            row[_index(c, by_position)] = v
    for c in cells:
        if fast and not changed[_index(c, by_position)]:
            row[_index(c, by_position)] = base_metric  # nothing patched: the base run's metric
    return row


def _sweep(model, clean_ids, corrupted_ids, answer_id, wrong_id, what, by_position, mode, prompts, fast, on_layer,
           cancel) -> Patching:  # fmt: skip
    _checked(what, mode, prompts)
    s, clean, corrupted = pair(model, clean_ids, corrupted_ids)
    vocab = s.cfg.vocab_size
    answer, wrong = token(answer_id, "answer_id", vocab), token(wrong_id, "wrong_id", vocab)
    n, name = len(clean), NAME.get(what)
    with torch.inference_mode():
        clean_stream, clean_acts = _acts(s, clean, name)
        corr_stream, corr_acts = _acts(s, corrupted, name)
        m_clean = float(metric(s, clean_stream[-1][:, -1], answer, wrong)[0])
        m_corr = float(metric(s, corr_stream[-1][:, -1], answer, wrong)[0])
        corr_run, clean_run = (corrupted, corr_stream, corr_acts, m_corr), (clean, clean_stream, clean_acts, m_clean)
        base_ids, base_stream, base_acts, base_metric = corr_run if mode == "denoise" else clean_run  # the run patched
        sources = _sources(s, mode, name, clean_acts, corr_acts, prompts, n)
        rows = s.n_layers
        shape = (rows, n) if what == "resid" else (rows, s.width(what), n) if by_position else (rows, s.width(what))
        total, unchanged = np.full(shape, np.nan), np.zeros(shape, bool)
        cancelled = False
        for layer in range(rows):
            if _cells(s, what, layer, by_position, n):
                row, same = np.zeros(shape[1:]), np.ones(shape[1:], bool)
                for source in sources:
                    changed = _changed(source[layer], base_acts[layer], by_position)
                    same[: changed.shape[0]] &= ~changed
                    row += _row(s, what, layer, by_position, changed, base_stream, base_ids, source[layer], answer,
                                wrong, fast, base_metric, shape[1:])  # fmt: skip
                width = row.shape[0] if what == "resid" else s.heads(layer, what)
                total[layer, :width] = row[:width] / len(sources)
                unchanged[layer, :width] = same[:width]
            if on_layer is not None:
                on_layer(layer, total.copy())
            if cancel is not None and cancel() and layer < rows - 1:
                cancelled = True
                break
    recovered, disagree, message = recovered_share(total, m_clean, m_corr)
    return Patching(m_clean, m_corr, total, recovered, unchanged, what, mode, by_position, disagree, message,
                    tuple(s.linear), answer, wrong, cancelled)  # fmt: skip


Progress = Callable[[int, np.ndarray], None] | None
Cancel = Callable[[], bool] | None


def heads(model, clean_ids, corrupted_ids, answer_id, wrong_id, *, what: str = "out", by_position: bool = False,
          mode: str = "denoise", prompts=None, fast: bool = True, on_layer: Progress = None,
          cancel: Cancel = None) -> Patching:  # fmt: skip
    """Every head's map: the metric with head (l, h)'s `what` (out = z, q, k, v, pattern) patched at every
    position ([L, H]; k and v per K/V head, [L, H_kv]) or at each position alone (by_position: [L, H, T]; a
    pattern's query row). mode: denoise | noise | zero | mean | resample (prompts=: same-length id lists).
    fast=False runs the naive loop. on_layer(l, map so far) after each layer; cancel() -> True stops early."""
    return _sweep(model, clean_ids, corrupted_ids, answer_id, wrong_id, what, by_position, mode, prompts, fast,
                  on_layer, cancel)  # fmt: skip


def naive_heads(model, clean_ids, corrupted_ids, answer_id, wrong_id, **kw) -> Patching:
    """heads(..., fast=False): one whole forward per head, the loop TransformerLens runs (tests, the bench)."""
    return heads(model, clean_ids, corrupted_ids, answer_id, wrong_id, fast=False, **kw)


def metrics(model, clean_ids, corrupted_ids, answer_id, wrong_id) -> tuple[float, float]:
    """(clean, corrupted): the metric on each prompt, two forwards; a page drawing a map as it fills (on_layer gives
    patched metrics) turns them into recovered shares with these, as `heads` does at the end."""
    s, clean, corrupted = pair(model, clean_ids, corrupted_ids)
    answer, wrong = token(answer_id, "answer_id", s.cfg.vocab_size), token(wrong_id, "wrong_id", s.cfg.vocab_size)
    with torch.inference_mode():
        m = [float(metric(s, stream_of(s, ids)[-1][:, -1], answer, wrong)[0]) for ids in (clean, corrupted)]
    return m[0], m[1]


def residual(model, clean_ids, corrupted_ids, answer_id, wrong_id, *, mode: str = "denoise", prompts=None,
             fast: bool = True, on_layer: Progress = None, cancel: Cancel = None) -> Patching:  # fmt: skip
    """[L, T]: the metric with block l's input at position t taken from the other run (TransformerLens's
    get_act_patch_resid_pre)."""
    return _sweep(model, clean_ids, corrupted_ids, answer_id, wrong_id, "resid", False, mode, prompts, fast,
                  on_layer, cancel)  # fmt: skip


def every(model, clean_ids, corrupted_ids, answer_id, wrong_id, *, by_position: bool = False, **kw) -> dict:
    """The five maps {out, q, k, v, pattern} (TransformerLens's get_act_patch_attn_head_*_every)."""
    return {w: heads(model, clean_ids, corrupted_ids, answer_id, wrong_id, what=w, by_position=by_position, **kw)
            for w in WHAT}  # fmt: skip


# ---------------------------------------------------------------- attribution patching


@dataclass(frozen=True)
class Estimate:
    """Attribution patching: effect = Σ (source - base) · ∂metric/∂activation on the base run, a first-order
    estimate of patched - base; patched and recovered as Patching's (NaN rows: layers without that activation)."""

    clean: float
    corrupted: float
    effect: np.ndarray  # [L, H] (by position [L, H, T])
    patched: np.ndarray  # base metric + effect
    recovered: np.ndarray
    what: str
    mode: str
    by_position: bool
    disagree: bool
    message: str | None
    linear_layers: tuple[int, ...]
    answer_id: int
    wrong_id: int


def estimate(model, clean_ids, corrupted_ids, answer_id, wrong_id, *, what: str = "out", by_position: bool = False,
             mode: str = "denoise") -> Estimate:  # fmt: skip
    """Attribution patching (Nanda 2023; Kramár et al. 2024): two forwards and one backward for every head at
    once. mode denoise: the gradient on the corrupted run, the difference clean - corrupted; noise: the reverse."""
    _checked(what, mode, None)
    if mode not in ("denoise", "noise"):
        raise ValueError("attribution patching estimates denoise or noise, not an ablation")
    s, clean, corrupted = pair(model, clean_ids, corrupted_ids)
    answer, wrong = token(answer_id, "answer_id", s.cfg.vocab_size), token(wrong_id, "wrong_id", s.cfg.vocab_size)
    name = NAME[what]
    src_ids, base_ids = (clean, corrupted) if mode == "denoise" else (corrupted, clean)
    with torch.no_grad():
        cap = Capture(s, [name])
        src_stream = stream_of(s, src_ids, cap)
        m_src = float(metric(s, src_stream[-1][:, -1], answer, wrong)[0])
    with torch.enable_grad():
        leaves = Leaves(s, [name])
        m = metric(s, stream_of(s, base_ids, leaves)[-1][:, -1], answer, wrong)[0]
        used = [(i, leaf) for i, leaf in enumerate(leaves.leaves[name]) if leaf is not None]
        grads = torch.autograd.grad(m, [leaf for _, leaf in used])
    n = len(clean)
    shape = (s.n_layers, s.width(what), n) if by_position else (s.n_layers, s.width(what))
    effect = np.full(shape, np.nan)
    for (i, _), g in zip(used, grads, strict=True):
        d = cap.acts[name][i] - leaves.acts[name][i]  # heads-first (1, H, T, ...)
        per = (d * heads_first(g, name)).flatten(3).sum(-1)[0].double().cpu().numpy()  # (H, T): summed within a cell
        effect[i, : per.shape[0]] = per if by_position else per.sum(-1)
    m_base = float(m.detach())
    m_clean, m_corr = (m_src, m_base) if mode == "denoise" else (m_base, m_src)
    patched = m_base + effect
    recovered, disagree, message = recovered_share(patched, m_clean, m_corr)
    return Estimate(m_clean, m_corr, effect, patched, recovered, what, mode, by_position, disagree, message,
                    tuple(s.linear), answer, wrong)  # fmt: skip
