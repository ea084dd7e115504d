"""A field guide to attention heads: what job each head of a model does, measured on inputs made for it.

head_scores() runs the model on seeded sequences "R R" (R = random ordinary tokens, repeated once, in the
model's own template) and scores every head on five patterns named in the literature. Random tokens carry
no meaning, so a head that still looks one token back, or at the earlier copy of its token, does so by
position and by matching, not because the words suggest it. label_heads() names each head's clearest role.
"""

from __future__ import annotations

import numpy as np

from ..live import LiveModel
from . import probes
from .attention_stats import row_entropy

ROLES = ("previous_token", "induction", "duplicate_token", "first_token", "diffuse")

# Each role's threshold, and why it sits there. A head is labelled with the role it exceeds by the largest
# margin; these are stated as strings too, because the page shows them beside the table.
ROLE_THRESHOLDS: dict[str, float] = {
    # 40% of every row's weight on the key just before it: in rows of ~40 keys that is 16x a uniform row's
    # share, and most rows' top key (Voita et al. 2019 call a head "positional" when the neighbour is its top key
    # in most rows). 0.5 missed the shipped decoder's three previous-token heads (0.42 to 0.49 on random tokens).
    "previous_token": 0.4,
    # Olsson et al. 2022 count a head as an induction head by its average attention to the token after the
    # earlier copy; at 0.3 that single key out of ~20-40 gets ~10x its uniform share.
    "induction": 0.3,
    # The same bar for the earlier copy of the query's own token (Wang et al. 2022's duplicate-token heads).
    "duplicate_token": 0.3,
    # Most of the weight parked on position 0 ([BOS]/[CLS]): an attention sink (Xiao et al. 2023), which moves
    # little because [CLS]'s value vector is small (Kobayashi et al. 2020). Higher than the others, because many
    # heads lean there a little.
    "first_token": 0.6,
    # Normalised entropy 0.9: the row is almost as spread as the uniform one (Clark et al. 2019's broad heads).
    "diffuse": 0.9,
}
THRESHOLD_REASONS: dict[str, str] = {
    "previous_token": "40% of each row on the token just before it: 16x a uniform row's share in rows of 40 keys",
    "induction": "the token after the earlier copy gets ~10x the weight a uniform row would give it",
    "duplicate_token": "the earlier copy of the same token gets ~10x the weight a uniform row would give it",
    "first_token": "most of the weight parked on position 0; many heads lean there a little, so the bar is higher",
    "diffuse": "the rows are nearly as spread out as a uniform row (normalised entropy near 1)",
}

# Seeded inputs: small models read 20 sequences of 2 x 20 tokens (as the training report's induction probe);
# above SMALL_PARAMS parameters, 4 of 2 x 16 tokens, so a 0.5B model takes seconds, not a minute.
SMALL_PARAMS = 40_000_000
SMALL_INPUTS = (20, 20)
LARGE_INPUTS = (4, 16)


def probe_size(model: LiveModel) -> tuple[int, int]:
    """(sequences, tokens per copy) head_scores reads by default for this model."""
    n_params = sum(p.numel() for p in model.net.parameters())
    n, span = SMALL_INPUTS if n_params <= SMALL_PARAMS else LARGE_INPUTS
    before, after = model.template
    return n, max(2, min(span, (model.config.max_len - len(before) - len(after)) // 2))


def head_scores(
    model: LiveModel, seed: int = probes.HELD_OUT_SEED, n_seqs: int | None = None, span: int | None = None
) -> dict[str, np.ndarray]:
    """{role: [L, H] score in [0, 1]} of the model's main self-attention (probes.self_attention_key: the
    encoder's for an encoder-decoder) on n_seqs seeded sequences R R (span tokens each copy):

    previous_token  mean weight of row i on key i-1 (every row i >= 1)
    induction       mean weight of R[j] in the second copy on R[j+1] in the first (Olsson et al. 2022)
    duplicate_token mean weight of R[j] in the second copy on R[j] in the first
    first_token     mean weight of rows i >= 1 on position 0
    diffuse         mean row entropy / log(visible keys), over rows that see at least two keys
    """
    auto_n, auto_span = probe_size(model)
    seqs, start = probes.repeated_sequences(model, n_seqs or auto_n, span or auto_span, seed)
    before, after = model.template
    span = (len(seqs[0]) - len(before) - len(after)) // 2
    att, mask = probes.batch_attention(model, seqs)  # [B, L, H, T, T], [T, T]
    q = np.arange(start + span, start + 2 * span)
    duplicate = att[..., q, q - span].mean(-1).mean(0)
    first = att[..., 1:, 0].mean(-1).mean(0)
    visible = mask.sum(-1)  # keys each row may see
    rows = visible >= 2
    entropy = row_entropy(att[..., rows, :])  # [B, L, H, rows]
    diffuse = (entropy / np.log(visible[rows])).mean(-1).mean(0)
    out = {
        "previous_token": probes.previous_token_pattern(att),
        "induction": probes.induction_pattern(att, start, span),
        "duplicate_token": duplicate,
        "first_token": first,
        "diffuse": diffuse,
    }
    return {k: np.clip(v, 0.0, 1.0).astype(np.float64) for k, v in out.items()}


def label_heads(scores: dict[str, np.ndarray]) -> np.ndarray:
    """[L, H] object array: per head the role whose score exceeds its threshold by the largest margin, or ""."""
    roles = [r for r in ROLES if r in scores]
    margins = np.stack([scores[r] - ROLE_THRESHOLDS[r] for r in roles])  # [roles, L, H]
    best = margins.argmax(0)
    names = np.array(roles, dtype=object)[best]
    return np.where(margins.max(0) > 0, names, "").astype(object)
