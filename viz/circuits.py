"""Circuits between heads (issue 43): the composition maps [L·H × L·H] with the field guide's roles on the axes, and
the names of a head's stream parts, as pure figures from arrays (they reuse viz/patching.py's signed map)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from viz.patching import signed_cells
from viz.spec import Spec


def head_labels(roles: np.ndarray, role_names: Mapping[str, str]) -> list[str]:
    """ "L1H1 · previous token" for every head, layer by layer (numbered from 1); a head without a role: "L1H4"."""
    n_layers, n_heads = roles.shape
    out = []
    for layer in range(n_layers):
        for head in range(n_heads):
            role = roles[layer, head]
            name = f"L{layer + 1}H{head + 1}"
            out.append(f"{name} · {role_names.get(role, role)}" if role else name)
    return out


def composition_grid(scores: np.ndarray) -> np.ndarray:
    """[L, H, L, H] -> [L·H, L·H] (sender rows, receiver columns), blank (NaN) where the sender is not in an earlier
    layer than the receiver: no wire can run there."""
    scores = np.asarray(scores, dtype=np.float64)
    n_layers, n_heads = scores.shape[:2]
    later = np.arange(n_layers)[:, None, None, None] < np.arange(n_layers)[None, None, :, None]
    later = np.broadcast_to(later, scores.shape)
    return np.where(later, scores, np.nan).reshape(n_layers * n_heads, n_layers * n_heads)


def composition_map(scores: np.ndarray, labels: list[str], *, title: str, sender: str, receiver: str,
                    value_name: str, baseline: float, baseline_name: str, limit: float | None = None,
                    scale: float = 1.0) -> Spec:  # fmt: skip
    """One kind's composition map: senders down, receivers across, the random baseline in every hover. limit: the
    colour scale's top (the three kinds share one, so a K cell and a Q cell of the same colour are the same score)."""
    grid = composition_grid(scores)
    if limit is None:
        limit = float(np.nanmax(grid)) if np.isfinite(grid).any() else 1.0
    return signed_cells(grid, labels, labels, title=title, x_title=receiver, y_title=sender, value_name=value_name,
                        limit=max(float(limit), 1e-9), note=f"{baseline_name}: {baseline:.3f}",
                        scale=scale)  # fmt: skip


def part_name(label: str, names: Mapping[str, str]) -> str:
    """A stream part's name as models.circuits gives it (0-based: "L0H1", "L0 MLP", "L0 block") numbered from 1, the
    words in the page's language (`names`: embedding, positions, biases, MLP, block)."""
    if label in names:
        return names[label]
    head, _, rest = label.partition(" ")
    if head.startswith("L") and "H" in head:
        layer, h = head[1:].split("H")
        return f"L{int(layer) + 1}H{int(h) + 1}"
    if head.startswith("L") and head[1:].isdigit():
        return f"L{int(head[1:]) + 1} {names.get(rest, rest)}"
    return label
