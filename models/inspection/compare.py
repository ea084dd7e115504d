"""Two models side by side on one prompt (issue 44): how alike their residual streams are, layer by layer (linear CKA),
and which head of one attends like which head of the other, over the character spans both tokenizers share.

Token spans and the shared spans are in compare_spans.py; everything a page needs is importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from .compare_spans import Shared, shared_spans, token_spans

__all__ = [
    "Comparison",
    "HeadMatch",
    "Shared",
    "cka_baseline",
    "cka_map",
    "compare",
    "head_similarity",
    "linear_cka",
    "match_heads",
    "shared_spans",
    "span_patterns",
    "token_spans",
]


def _gram(x: np.ndarray) -> np.ndarray:
    """The centred Gram matrix Xc Xcᵀ [n, n] in float64, flattened to Frobenius norm 1: linear CKA is the dot product
    of two of these. Zeros for a constant input (its centred rows are rounding noise against its size): CKA 0, not
    nan."""
    x = np.asarray(x, dtype=np.float64)
    xc = x - x.mean(axis=0, keepdims=True)
    if not np.linalg.norm(xc) > 1e-10 * np.linalg.norm(x):
        return np.zeros(len(x) * len(x))
    flat = (xc @ xc.T).ravel()
    return flat / np.linalg.norm(flat)


def linear_cka(x: np.ndarray, y: np.ndarray) -> float:
    """Linear CKA (Kornblith et al. 2019) of x [n, d1] and y [n, d2]: ‖Ycᵀ Xc‖²_F / (‖Xcᵀ Xc‖_F ‖Ycᵀ Yc‖_F), computed
    as the cosine of the centred Gram matrices (the same number, by ‖Ycᵀ Xc‖²_F = ⟨Xc Xcᵀ, Yc Ycᵀ⟩, and cheaper:
    n spans ≪ d). It ignores rotations and overall scale, so models of different widths and bases can be compared.
    0.0 when either input is constant."""
    if len(x) != len(y):
        raise ValueError(f"CKA needs the same rows in both: {len(x)} and {len(y)}")
    return float(np.clip(_gram(x) @ _gram(y), 0.0, 1.0))


def cka_map(hidden_a: np.ndarray, hidden_b: np.ndarray, rows_a: list[int], rows_b: list[int]) -> np.ndarray:
    """[La+1, Lb+1] linear CKA of every layer's residual stream of A against every layer's of B, at the positions
    rows_a / rows_b (Shared.last_a / last_b: one row per shared span), float64. Streams are read one layer at a time
    (a long trace's may be lazy); A's Gram matrices are kept, B's made one by one."""
    if len(rows_a) != len(rows_b):
        raise ValueError(f"rows_a and rows_b must pair up: {len(rows_a)} and {len(rows_b)}")
    rows_a, rows_b = list(rows_a), list(rows_b)
    grams_a = np.stack([_gram(np.asarray(hidden_a[i])[rows_a]) for i in range(len(hidden_a))])
    out = np.stack([grams_a @ _gram(np.asarray(hidden_b[j])[rows_b]) for j in range(len(hidden_b))], axis=1)
    return np.clip(out, 0.0, 1.0)


def cka_baseline(
    hidden_a: np.ndarray, hidden_b: np.ndarray, rows_a: list[int], rows_b: list[int], n_perm: int = 20, seed: int = 0
) -> float:
    """What CKA gives with these n spans and no correspondence: the mean linear CKA of A's last layer against B's last
    layer with B's rows shuffled, over n_perm random permutations (numpy default_rng(seed); a permutation may leave
    a few rows in place, as chance would). Linear CKA is biased upward when n is small against d, so a map value is
    only telling where it stands clearly above this number (with 2 or 3 spans every CKA is near 1)."""
    ka = _gram(np.asarray(hidden_a[len(hidden_a) - 1])[list(rows_a)])
    yb = np.asarray(hidden_b[len(hidden_b) - 1])[list(rows_b)]
    rng = np.random.default_rng(seed)
    values = [ka @ _gram(yb[rng.permutation(len(yb))]) for _ in range(n_perm)]
    return float(np.clip(np.mean(values), 0.0, 1.0)) if values else 0.0


def span_patterns(att, rows: list[int], members: list[list[int]]) -> np.ndarray:
    """[L, H, T, T] attention -> [L, H, S, S] over shared spans: row s is the attention of position rows[s] summed over
    the keys in each span's members, renormalised to sum 1 over the shared spans (a row with no weight on them stays 0).
    Renormalised because what lies outside the shared spans differs between tokenizers (BOS, CLS/SEP, an attention
    sink on a special token) and would otherwise make like heads look unlike. att may be a lazy per-layer object."""
    n_keys = np.asarray(att[0]).shape[-1] if len(att) else 0
    onto = np.zeros((n_keys, len(members)))
    for s, keys in enumerate(members):
        onto[list(keys), s] = 1.0
    out = (
        np.stack([np.asarray(att[layer], dtype=np.float64)[:, list(rows), :] @ onto for layer in range(len(att))])
        if len(att)
        else np.zeros((0, 0, len(rows), len(members)))
    )
    total = out.sum(axis=-1, keepdims=True)
    return np.divide(out, total, out=np.zeros_like(out), where=total > 1e-12)


def head_similarity(pat_a: np.ndarray, pat_b: np.ndarray) -> np.ndarray:
    """[La, Ha, S, S] and [Lb, Hb, S, S] -> [La*Ha, Lb*Hb]: the Pearson correlation of each pair of heads' flattened
    span patterns (1 for identical patterns, 0 where either is constant)."""

    def z(p):
        flat = np.asarray(p, dtype=np.float64).reshape(p.shape[0] * p.shape[1], -1)
        flat = flat - flat.mean(axis=1, keepdims=True)
        norm = np.linalg.norm(flat, axis=1, keepdims=True)
        return np.divide(flat, norm, out=np.zeros_like(flat), where=norm > 1e-12)

    return np.clip(z(pat_a) @ z(pat_b).T, -1.0, 1.0)


@dataclass(frozen=True)
class HeadMatch:
    """The one-to-one pairing of A's heads with B's that maximises total similarity."""

    similarity: np.ndarray  # [La*Ha, Lb*Hb], row la*Ha + ha
    pairs: list[tuple[int, int, int, int, float]]  # (layer_a, head_a, layer_b, head_b, similarity), by layer_a, head_a
    shape_a: tuple[int, int]  # (La, Ha): the rows of the patterns compared
    shape_b: tuple[int, int]
    layers_a: list[int] = field(default_factory=list)  # the model layer of each row (Qwen3.5 keeps softmax layers)
    layers_b: list[int] = field(default_factory=list)

    def partner_grid(self) -> tuple[np.ndarray, list[list[str]]]:
        """A's heads as [rows, heads]: the similarity to the partner the assignment gave each (nan: none, when B has
        fewer heads), and that partner's name ("L2H1", its model's layer and head, from 1)."""
        (rows, n_heads), layers = self.shape_a, self.layers_a or list(range(self.shape_a[0]))
        z = np.full((rows, n_heads), np.nan)
        names = [[""] * n_heads for _ in range(rows)]
        for la, ha, lb, hb, sim in self.pairs:
            z[layers.index(la), ha] = sim
            names[layers.index(la)][ha] = f"L{lb + 1}H{hb + 1}"
        return z, names


def match_heads(
    pat_a: np.ndarray, pat_b: np.ndarray, layers_a: list[int] | None = None, layers_b: list[int] | None = None
) -> HeadMatch:
    """Pair heads one to one (the Hungarian algorithm, scipy's linear_sum_assignment, maximising the summed similarity;
    min(La*Ha, Lb*Hb) pairs when the counts differ). layers_*: the model's layer number of each pattern row, as
    Trace.layers gives it; pairs carry those numbers (default: the row index)."""
    from scipy.optimize import linear_sum_assignment  # here: scipy.optimize is ~0.4 s of every process's start

    sim = head_similarity(pat_a, pat_b)
    (la, ha), (lb, hb) = pat_a.shape[:2], pat_b.shape[:2]
    layers_a = list(range(la)) if layers_a is None else list(layers_a)
    layers_b = list(range(lb)) if layers_b is None else list(layers_b)
    rows, cols = linear_sum_assignment(-sim) if sim.size else ([], [])
    pairs = sorted(
        (layers_a[r // ha], int(r % ha), layers_b[c // hb], int(c % hb), float(sim[r, c]))
        for r, c in zip(rows, cols, strict=True)
    )
    return HeadMatch(sim, pairs, (la, ha), (lb, hb), layers_a, layers_b)


@dataclass(frozen=True)
class Comparison:
    shared: Shared  # the spans compared: the last MAX_SPANS of those the two tokenizations share
    cka: np.ndarray  # [La+1, Lb+1]
    cka_baseline: float
    heads: HeadMatch
    kind_a: str  # "decoder.self" for a decoder; "encoder.self" for encoders and encoder-decoders (source side)
    kind_b: str
    n_shared: int = 0  # every span the two share (more than len(shared.spans) when a long prompt was cut to MAX_SPANS)


# The spans compared at most: a head's pattern over S spans is S² numbers and the CKA map's Gram matrices (L+1)·S² per
# model, so a 2,000-token prompt on a 24-layer, 14-head model would need gigabytes. The last spans are kept: there
# every token has read the most of the prompt (an induction head's second copy is there too).
MAX_SPANS = 256


def _side(model, trace, text: str) -> tuple[str, str, list]:
    """The attention key and stream this model is compared on, and its token spans (checked against the trace)."""
    decoder = model.config.arch == "decoder"
    kind, stream = ("decoder.self", "decoder") if decoder else ("encoder.self", "encoder")
    spans = token_spans(model, text)
    if list(trace.ids[: len(spans)]) != list(model.source_ids(text)[0]):
        raise ValueError("the trace was not run on this text: run the model on the prompt being compared")
    return kind, stream, spans


def compare(model_a, trace_a, model_b, trace_b, text: str) -> Comparison:
    """Everything the side-by-side page shows for two models run on `text`. Raises ValueError when the two
    tokenizations share fewer than 2 spans (there is nothing to correlate)."""
    kind_a, stream_a, spans_a = _side(model_a, trace_a, text)
    kind_b, stream_b, spans_b = _side(model_b, trace_b, text)
    shared = shared_spans(spans_a, spans_b, text)
    if len(shared.spans) < 2:
        raise ValueError(
            f"the two tokenizers share {len(shared.spans)} span(s) of this text; comparing needs at least 2: "
            "use a longer prompt"
        )
    n_shared = len(shared.spans)
    if n_shared > MAX_SPANS:
        keep = slice(n_shared - MAX_SPANS, n_shared)
        shared = Shared(*(getattr(shared, f.name)[keep] for f in fields(Shared)))
    ha, hb = trace_a.hidden[stream_a], trace_b.hidden[stream_b]
    cka = cka_map(ha, hb, shared.last_a, shared.last_b)
    base = cka_baseline(ha, hb, shared.last_a, shared.last_b)
    pat_a = span_patterns(trace_a.attention[kind_a], shared.last_a, shared.members_a)
    pat_b = span_patterns(trace_b.attention[kind_b], shared.last_b, shared.members_b)
    heads = match_heads(pat_a, pat_b, trace_a.layers.get(kind_a), trace_b.layers.get(kind_b))
    return Comparison(shared, cka, base, heads, kind_a, kind_b, n_shared)
