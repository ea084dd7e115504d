"""Statistics of attention weights [L, H, Tq, Tk]: row entropy, rollout, and attention sinks.

One rule says what a special token is (is_special), for both sink functions: a token written
[LIKE_THIS] (ours, BERT's) or <like_this> / <|like_this|> (GPT-2's, Llama's, Qwen's, Marian's).
"""

from __future__ import annotations

import numpy as np


def row_entropy(weights: np.ndarray) -> np.ndarray:
    """Shannon entropy (nats) of each attention row over its last axis; 0·log 0 counts as 0."""
    w = np.asarray(weights, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, w * np.log(w), 0.0)
    return -terms.sum(axis=-1)


def attention_rollout(attention: np.ndarray, residual: float = 0.5) -> np.ndarray:
    """Attention rollout (Abnar & Zuidema 2020): how much each input token flows into each position
    through all layers. Per layer, heads are averaged and the residual connection is modelled as
    residual·I + (1 - residual)·A (rows renormalised); layers are multiplied, first layer rightmost.

    attention: [L, H, T, T] self-attention -> [T, T]; rows sum to 1. It is an approximation (it
    ignores values, FFNs and norms), not what the model computes.
    """
    a = np.asarray(attention, dtype=np.float64).mean(axis=1)  # [L, T, T]
    eye = np.eye(a.shape[-1])
    out = eye
    for layer in a:
        step = residual * eye + (1 - residual) * layer
        step = step / step.sum(-1, keepdims=True)
        out = step @ out
    return out


# A head counts as a sink when its queries put at least this much weight, on average, on one key.
SINK_THRESHOLD = 0.5


def value_weighted(attention: np.ndarray, value_norms: np.ndarray) -> np.ndarray:
    """Each row of α_ij‖f(x_j)‖ (Kobayashi et al. 2020) divided by its sum: the share of the head's output
    norm each key contributes, so it compares with the weights (rows sum to 1; an all-zero row stays 0).

    attention [..., Tq, Tk], value_norms [..., Tk] -> [..., Tq, Tk]."""
    w = np.asarray(attention, dtype=np.float64) * np.asarray(value_norms, dtype=np.float64)[..., None, :]
    total = w.sum(-1, keepdims=True)
    return np.divide(w, total, out=np.zeros_like(w), where=total > 0)


def _query_rows(a: np.ndarray) -> np.ndarray:
    """Query rows from position 1 on: row 0 of a causal model has only itself to attend to."""
    return a[:, :, 1:, :] if a.shape[-2] > 1 else a


def attention_sinks(
    attention: np.ndarray, tokens: list[str], threshold: float = SINK_THRESHOLD, value_norms: np.ndarray | None = None
) -> list[dict]:
    """Heads whose queries (position 1 on) send on average >= threshold of their weight to one key
    that is the first token, a special token or punctuation: an attention sink (Xiao et al. 2023).

    attention: [L, H, T, T] -> [{"layer", "head", "key", "token", "weight"}], 0-based indices. With
    value_norms [L, H, T] each sink also gets "norm_share": the mean over the same query rows of
    α_i,key‖f(x_key)‖ ÷ Σ_j α_ij‖f(x_j)‖, the share of the head's output that comes from the sink."""
    a = np.asarray(attention, dtype=np.float64)
    if a.shape[-2] < 2:
        return []
    col = a[:, :, 1:, :].mean(axis=2)  # [L, H, T]: mean weight each key receives
    sinks = []
    for layer, head in np.ndindex(col.shape[:2]):
        key = int(col[layer, head].argmax())
        weight = float(col[layer, head, key])
        tok = tokens[key].replace("␣", "").strip()
        if weight >= threshold and (key == 0 or is_special(tok) or _is_punct(tok)):
            sinks.append({"layer": layer, "head": head, "key": key, "token": tokens[key], "weight": weight})
            if value_norms is not None:  # only the sink heads' rows: the rerun path stays cheap at 256 tokens
                rows = _query_rows(value_weighted(a[layer, head][None, None], value_norms[layer, head][None, None]))
                sinks[-1]["norm_share"] = float(rows[0, 0, :, key].mean())
    return sinks


def is_special(tok: str) -> bool:
    """A special token by its spelling: [CLS], [SEP], [BOS] (ours, BERT) or <s>, </s>, <|endoftext|> (byte-level
    and SentencePiece models). Both sink functions use this one rule."""
    tok = tok.strip()
    return len(tok) > 2 and ((tok[0], tok[-1]) == ("[", "]") or (tok[0], tok[-1]) == ("<", ">"))


def _is_punct(tok: str) -> bool:
    return bool(tok) and all(not ch.isalnum() for ch in tok)


SINK_GROUPS = {"start": ("[CLS]", "[BOS]"), "end": ("[SEP]", "[EOS]")}


def sink_shares(
    attention: np.ndarray, tokens: list[str], value_norms: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """[L, H] mean share of each head's attention (query rows 1..) that lands on the opening
    special token ([CLS] / [BOS]), the closing one ([SEP] / [EOS]) and on punctuation. Clark et al.
    (2019, "What does BERT look at?") found BERT heads parking attention on [SEP] and punctuation
    when they have nothing to do. With value_norms [L, H, T], the same shares of α_ij‖f(x_j)‖
    (value_weighted): how much of the head's output those tokens make, not just of its weight."""
    a = np.asarray(attention, dtype=np.float64)  # [L, H, T, T]
    if value_norms is not None:
        a = value_weighted(a, value_norms)
    per_key = _query_rows(a).mean(axis=2)  # from position 1 on, as attention_sinks. [L, H, T]
    where = {name: np.array([tok in group for tok in tokens]) for name, group in SINK_GROUPS.items()}
    where["punctuation"] = np.array([_is_punct(tok.replace("␣", "").strip()) and not is_special(tok) for tok in tokens])
    return {name: per_key[..., mask].sum(-1) for name, mask in where.items()}


def shown_weights(attention, value_norms, norm: bool, layer=slice(None), head=slice(None)) -> np.ndarray:
    """The Explorer's cells for these layers and heads: the weights α_ij as they are, or (norm) value-weighted, α_ij
    ‖f(x_j)‖ divided by its row's sum (value_weighted), in float32. attention may be a long trace's per-layer parts:
    only the layers asked for are read."""
    if not norm:
        return attention[layer, head]
    return value_weighted(attention[layer, head], value_norms[layer, head]).astype(np.float32)


def aggregated(attention, value_norms, norm: bool, agg: str, layer: int, head: int) -> np.ndarray:
    """One [Tq, Tk] matrix of shown_weights: one head ("head"), the mean of the layer's heads ("mean"), or the
    rollout of every layer's head mean ("rollout": layer by layer, never the whole [L, H, T, T] of a long prompt)."""
    if agg == "mean":
        return shown_weights(attention, value_norms, norm, layer).mean(axis=0)
    if agg == "rollout":
        n_layers = len(attention)
        means = np.stack([np.asarray(shown_weights(attention, value_norms, norm, n), np.float64).mean(0)
                          for n in range(n_layers)])  # fmt: skip
        return attention_rollout(means[:, None])
    return shown_weights(attention, value_norms, norm, layer, head)
