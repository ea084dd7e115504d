"""forming_scores(): heads forming during training, from a model's checkpoints.

The best head's score of each role at every checkpoint (a bold line per role), every head as a faint line of
its role's colour behind it, and each role's threshold as a dashed line of that colour. Built on lines(); numbers
and already-translated words only.
"""

from __future__ import annotations

import numpy as np

from viz.lines import Series, lines
from viz.roles import ROLE_COLORS
from viz.spec import Spec

FAINT_ALPHA = 0.3  # every head is context; the best head is the answer


def forming_scores(
    x,
    per_head: dict[str, np.ndarray],
    thresholds: dict[str, float],
    names: dict[str, str],
    *,
    threshold_names: dict[str, str] | None = None,
    role_names: dict[str, str] | None = None,
    head_name: str = "L{layer} H{head}",
    x_title: str,
    y_title: str,
    title: str = "",
    log_x: bool = True,
    every_head: bool = True,
    formed: tuple[float, str] | None = None,
    scale: float = 1.0,
) -> Spec:
    """x [S] (training steps, +1 on a log axis), per_head {role: [S, L, H] scores in 0..1}, thresholds {role: value}
    and names {role: legend name of its best head}. threshold_names {role: label} labels the dashed lines (default:
    "name ≥ value"); a faint line's name is role_names[role] (default: names) and head_name formatted with 1-based
    layer and head; formed (x, label) marks a step with a vertical line. Roles are drawn in the order of per_head."""
    colors = {r: ROLE_COLORS.get(r, "#7f7f7f") for r in per_head}
    arrays = {r: np.asarray(v, float) for r, v in per_head.items()}
    for role, a in arrays.items():
        if a.ndim != 3:
            raise ValueError(f"{role}: per_head needs [S, L, H] scores, got shape {a.shape}")
    faint: list[Series] = []
    if every_head:
        for role, a in arrays.items():
            for layer in range(a.shape[1]):
                for head in range(a.shape[2]):
                    name = f"{(role_names or names)[role]}: {head_name.format(layer=layer + 1, head=head + 1)}"
                    faint.append(Series(name, a[:, layer, head], color=colors[role], markers=False))
    best = [Series(names[r], a.reshape(len(a), -1).max(1), color=colors[r]) for r, a in arrays.items()]
    labels = threshold_names or {r: f"{names[r]} ≥ {thresholds[r]:.2f}" for r in arrays}
    spec = lines(
        x,
        [*faint, *best],
        x_title=x_title,
        y_title=y_title,
        title=title,
        log_x=log_x,
        hlines=[(thresholds[r], labels[r]) for r in arrays],
        vlines=[formed] if formed else (),
        y_range=(0, 1.05),
        scale=scale,
    )
    for trace in spec.data[: len(faint)]:
        trace.update(showlegend=False, opacity=FAINT_ALPHA, line={**trace["line"], "width": 1 * scale})
    # the thresholds in their role's colour (lines() draws reference lines grey), after any vline
    first = 1 if formed else 0
    for k, role in enumerate(arrays):
        spec.layout["shapes"][first + k]["line"] = {**spec.layout["shapes"][first + k]["line"], "color": colors[role]}
        spec.layout["annotations"][first + k]["font"] = {**spec.layout["annotations"][first + k]["font"],
                                                         "color": colors[role]}  # fmt: skip
    return spec
