"""What bfloat16 matmuls change in a published model's attention (issue 30, the Softmax page's section): the same
checkpoint loaded twice (models.load(..., precision="float32") and precision="bfloat16"), run on one text.

bfloat16 (Google Brain's format; Kalamkar et al. 2019, "A Study of BFLOAT16 for Deep Learning Training") keeps
float32's 8 exponent bits and 8 bits of significand precision (7 stored, 1 implicit): machine epsilon 2^-7 ≈ 0.0078,
2-3 significant decimal digits. Only the matmuls' inputs are rounded to it (models/core/precision.py); softmax, the
attention weights and norms' statistics run float32 in both models, so every difference measured here comes from the
rounded q, k, v and the layers' outputs feeding the next layer.
"""

from __future__ import annotations

import numpy as np

from ..live import LiveModel
from .experiments import self_key

BF16_EPS = 2.0**-7  # spacing of bfloat16 numbers just above 1 (8 significant bits)
FP32_EPS = 2.0**-23  # float32's (24 significant bits)


def predicts(model: LiveModel) -> bool:
    """Whether the model's logits are token predictions at every position: a decoder's next token, an MLM head's
    filled-in token (not MiniLM, which ships no head, nor an encoder-decoder's encoder run alone)."""
    return model.config.arch == "decoder" or (model.config.arch == "encoder" and bool(model.config.mlm_head))


def compare(f32: LiveModel, bf16: LiveModel, text: str) -> dict:
    """The main self-attention of both runs on text, and how far apart they are.

    Returns tokens; head_max [L, H] = max |Δ| of the attention weights over every (query, key) cell; layer_max [L]
    and layer_mean [L] (the mean over the cells the mask lets attend); worst = (layer, head) of the largest |Δ| and
    diff [T, T] = bfloat16 - float32 weights of that head; hidden_rel = max |Δ| of the last layer's vectors over their
    largest |value|; and, where the logits are predictions (predicts()), argmax_f32 / argmax_bf16 per position and
    their agreement (the share of positions where both pick the same token)."""
    key = self_key(f32)
    target = "" if f32.config.arch == "encoder-decoder" else None  # the encoder side only (no translation)
    ta, tb = f32.run(text, target=target), bf16.run(text, target=target)
    a = np.asarray(ta.attention[key], dtype=np.float64)
    b = np.asarray(tb.attention[key], dtype=np.float64)
    d = b - a
    gap = np.abs(d)
    head_max = gap.max(axis=(-1, -2))  # [L, H]
    allowed = np.asarray(ta.masks[key], dtype=bool)  # [T, T]: the cells a weight can be non-zero in
    layer_mean = gap[..., allowed].mean(axis=(1, 2)) if allowed.any() else np.zeros(len(head_max))
    layer, head = np.unravel_index(int(head_max.argmax()), head_max.shape)
    stack = key.split(".")[0]
    ha, hb = np.asarray(ta.hidden[stack][-1], np.float64), np.asarray(tb.hidden[stack][-1], np.float64)
    out = {
        "tokens": list(ta.tokens),
        "head_max": head_max,
        "layer_max": head_max.max(axis=1),
        "layer_mean": layer_mean,
        "worst": (int(layer), int(head)),
        "diff": d[layer, head],
        "hidden_rel": float(np.abs(hb - ha).max() / max(np.abs(ha).max(), 1e-30)),
        "predicts": predicts(f32),
    }
    if out["predicts"]:
        pa, pb = np.asarray(ta.logits).argmax(-1), np.asarray(tb.logits).argmax(-1)
        out |= {
            "argmax_f32": [f32.tokenizer.token_str(int(i)) for i in pa],
            "argmax_bf16": [f32.tokenizer.token_str(int(i)) for i in pb],
            "agreement": float((pa == pb).mean()),
        }
    return out
