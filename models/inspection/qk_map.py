"""The query/key map of one head (AttentionViz, Yeh et al. 2023): every query and key vector in one 2-D picture.

A head's weights come from q·k alone, so where queries sit among keys shows what the head matches. Two
changes that leave every softmax row as the model computed it make the cloud readable: queries are scaled by
c and keys by 1/c ((c q)·(k / c) = q·k), and keys are translated so their mean sits on the queries' mean
(k + t adds q·t to every score of row q: the same constant for every key of the row, which the softmax
ignores), with c chosen so that both clouds end with the same mean norm. Then PCA (numpy SVD) to 2-D.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..core import precision, readonly
from ..live import LiveModel, Trace
from . import probes

EXTRA_SEQS, EXTRA_SPAN = 4, 16  # repeated random sequences beside the prompt: 4 x (2 x 16) tokens


@dataclass(frozen=True)
class ProbeBatch:
    """Seeded sequences R R in the model's template and their residual stream, computed once per model."""

    ids: list[list[int]]
    tokens: list[list[str]]
    hidden: np.ndarray  # [L+1, B, T, d_model], the main self-attention stack's stream


@dataclass(frozen=True)
class QKMap:
    xy: np.ndarray  # [N, 2] PCA coordinates: the queries, then the keys
    is_key: np.ndarray  # [N] bool
    position: np.ndarray  # [N] position in its own sequence
    sequence: np.ndarray  # [N] 0 = the prompt, 1.. = the extra sequences
    tokens: list[str]  # [N]
    c: float  # queries x c, keys / c
    shift: np.ndarray  # [d_head] added to every key after its 1/c scaling
    explained: tuple[float, float]  # share of the variance along each of the two axes


def stream_key(kind: str) -> str:
    return kind.split(".")[0]  # "decoder.self" -> "decoder"


@torch.inference_mode()
def probe_batch(model: LiveModel, n_seqs: int = EXTRA_SEQS, span: int = EXTRA_SPAN, seed: int = 0) -> ProbeBatch:
    cfg, net = model.config, model.net
    seqs, _ = probes.repeated_sequences(model, n_seqs, span, seed)
    n = len(seqs[0])
    kind = probes.self_attention_key(model)
    blocks = net.decoder if kind == "decoder.self" else net.encoder
    mask = probes.batch_mask(model, n)
    _, _, stream = net.run_stack(blocks, torch.tensor(seqs, device=mask.device), mask, cfg.scale)
    hidden = torch.stack(stream).to(torch.float32).cpu().numpy()  # [L+1, B, T, d]
    return ProbeBatch(seqs, [model.tokenizer.token_strs(s) for s in seqs], hidden)


@torch.inference_mode()
def head_qk(model: LiveModel, x: np.ndarray, kind: str, layer: int, head: int) -> tuple[np.ndarray, np.ndarray]:
    """(queries, keys) [..., T, d_head] float64 of one head, from the input x [..., T, d_model] of block
    `layer` (Trace.hidden[stream][layer]): the attention sublayer's input is norm_self(x) in pre-norm models
    and x itself in post-norm ones; Qwen3's per-head norm and RoPE apply where the model uses them; under GQA
    the head reads the keys of its KV group."""
    net = model.net
    block = (net.decoder if kind == "decoder.self" else net.encoder)[layer]
    attn = block.self_attn
    dtype = precision.activations(next(attn.parameters()).dtype)  # float32 beside bfloat16 matrices
    h = readonly.tensor(np.asarray(x), dtype).to(next(attn.parameters()).device)  # to the model's (a GPU's)
    h = block.norm_self(h) if block.pre else h
    dh, group = attn.d_head, attn.n_heads // attn.n_kv_heads
    q = attn.project_q(h)[..., head * dh : (head + 1) * dh]  # OLMo 2's norm over the whole projection comes first
    kv = head // group
    k = attn.project_k(h)[..., kv * dh : (kv + 1) * dh]
    positions = torch.arange(h.shape[-2], device=h.device)
    q, k = attn.prepare_qk(q, k, positions)  # Qwen3's per-head q/k norm, then RoPE, as the model
    return q.to(torch.float64).cpu().numpy(), k.to(torch.float64).cpu().numpy()


def balance(q: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(c·q, k/c + t, t, c): queries scaled by c and keys by 1/c, then keys translated by t = mean(c·q) - mean(k/c),
    with c the one value (found by bisection) that gives both clouds the same mean norm; then they share one
    centre and one size. Every row's softmax is unchanged: (c q)·(k/c + t) = q·k + c q·t, and c q·t is the
    same for every key of row q. (Scaling after translating would move the two centres apart again.)"""
    mq, mk = q.mean(0), k.mean(0)
    spread = k - mk
    # |s/c + c·mq|² = |s|²/c² + 2 s·mq + c²|mq|²: the mean norm of the keys for any c from three precomputed terms
    ss, sm, mm = (spread**2).sum(1), spread @ mq, float(mq @ mq)
    q_norm = np.linalg.norm(q, axis=1).mean()

    def gap(log_c: float) -> float:
        c = np.exp(log_c)
        return c * q_norm - np.sqrt(np.maximum(ss / c**2 + 2 * sm + c**2 * mm, 0.0)).mean()

    lo, hi = -20.0, 20.0
    if gap(lo) >= 0 or gap(hi) <= 0:  # degenerate clouds (all queries or keys alike): no scaling
        lo = hi = 0.0
    for _ in range(50):  # the bracket shrinks 2^50-fold: log c to 4e-14
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) < 0 else (lo, mid)
    c = float(np.exp((lo + hi) / 2))
    t = c * mq - mk / c
    return q * c, k / c + t, t, c


def pca2(points: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """[N, 2] coordinates on the two directions of largest variance, and each one's share of it."""
    centred = points - points.mean(0)
    var, vecs = np.linalg.eigh(centred.T @ centred)  # [d, d]: far cheaper than the SVD of [N, d] for N >> d
    var, vecs = np.clip(var[::-1], 0, None), vecs[:, ::-1]  # largest first
    total = var.sum() or 1.0
    vt = vecs.T
    xy = centred @ vt[:2].T
    if xy.shape[1] < 2:  # d_head = 1
        xy = np.pad(xy, ((0, 0), (0, 2 - xy.shape[1])))
    share = [float(v / total) for v in var[:2]] + [0.0] * (2 - len(var[:2]))
    return xy, (share[0], share[1])


def qk_map(model: LiveModel, trace: Trace, layer: int, head: int, batch: ProbeBatch | None = None) -> QKMap:
    """The map of one head of the model's main self-attention (probes.self_attention_key) over the prompt's
    trace and the probe batch's sequences (probe_batch(model) when None)."""
    kind = probes.self_attention_key(model)
    batch = probe_batch(model) if batch is None else batch
    qs, ks, pos, seq, toks = [], [], [], [], []
    q, k = head_qk(model, trace.hidden[stream_key(kind)][layer], kind, layer, head)
    qs.append(q), ks.append(k), pos.append(np.arange(len(q))), seq.append(np.zeros(len(q), int))
    toks.append(list(trace.tokens))
    bq, bk = head_qk(model, batch.hidden[layer], kind, layer, head)  # [B, T, dh]
    for b in range(bq.shape[0]):
        qs.append(bq[b]), ks.append(bk[b]), pos.append(np.arange(bq.shape[1])), seq.append(np.full(bq.shape[1], b + 1))
        toks.append(batch.tokens[b])
    q_all, k_all = np.concatenate(qs), np.concatenate(ks)
    q2, k2, t, c = balance(q_all, k_all)
    xy, explained = pca2(np.concatenate([q2, k2]))
    n = len(q_all)
    position, sequence = np.concatenate(pos), np.concatenate(seq)
    tokens = [tok for group in toks for tok in group]
    return QKMap(
        xy=xy,
        is_key=np.arange(2 * n) >= n,
        position=np.concatenate([position, position]),
        sequence=np.concatenate([sequence, sequence]),
        tokens=tokens + tokens,
        c=c,
        shift=t,
        explained=explained,
    )
