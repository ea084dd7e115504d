"""The attention a page shows, as CSV and JSON for download (a spreadsheet or a notebook)."""

from __future__ import annotations

import csv
import io
import json

import numpy as np

from viz.check import check_attention


def attention_csv(weights: np.ndarray, query_tokens: list[str], key_tokens: list[str]) -> str:
    """One row per query token, one column per key token: the matrix exactly as drawn."""
    w = check_attention(weights, query_tokens, key_tokens)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["query \\ key", *(f"{i} {k}" for i, k in enumerate(key_tokens))])
    for i, (q, row) in enumerate(zip(query_tokens, w, strict=True)):
        writer.writerow([f"{i} {q}", *(f"{x:.6f}" for x in row)])
    return out.getvalue()


def attention_json(weights: np.ndarray, query_tokens: list[str], key_tokens: list[str], what: str) -> str:
    """Any-rank weights (one head [Tq, Tk] up to all heads [L, H, Tq, Tk]) with their tokens."""
    w = np.asarray(weights, dtype=np.float64)
    payload = {"what": what, "shape": list(w.shape), "query_tokens": query_tokens, "key_tokens": key_tokens,
               "weights": w.round(6).tolist()}  # fmt: skip
    return json.dumps(payload, ensure_ascii=False)
