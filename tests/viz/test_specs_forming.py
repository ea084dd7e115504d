"""forming_scores (heads forming during training, from a model's checkpoints) skips Plotly's validation like every
builder: its output must be exactly what a validating go.Figure holds. Plus what it promises to show."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz import ROLE_COLORS, forming_scores

STEPS = np.array([1, 1001, 3001, 143001])
RNG = np.random.default_rng(0)
PER_HEAD = {"previous_token": RNG.uniform(0, 0.6, (4, 2, 3)), "induction": RNG.uniform(0, 0.5, (4, 2, 3))}
THRESHOLDS = {"previous_token": 0.4, "induction": 0.3}
NAMES = {"previous_token": "previous <b>token</b>", "induction": "归纳"}
WORDS = dict(x_title="training step + 1", y_title="score")

CASES = {
    "forming_scores": lambda: forming_scores(STEPS, PER_HEAD, THRESHOLDS, NAMES, **WORDS),
    "forming_scores role names, head words": lambda: forming_scores(
        STEPS,
        PER_HEAD,
        THRESHOLDS,
        NAMES,
        role_names={"previous_token": "p", "induction": "i"},
        head_name="第 {layer} 层第 {head} 个头",
        **WORDS,
    ),
    "forming_scores best only, formed, scale 1.5": lambda: forming_scores(
        STEPS, PER_HEAD, THRESHOLDS, NAMES, every_head=False, formed=(3001, "forms"), title="t", scale=1.5, **WORDS
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_forming_builder_output_is_a_valid_figure(case):
    assert_valid(CASES[case]())


def test_best_lines_every_head_and_thresholds_in_role_colours():
    spec = forming_scores(STEPS, PER_HEAD, THRESHOLDS, NAMES, threshold_names={"previous_token": "p", "induction": "i"},
                          **WORDS)  # fmt: skip
    faint, best = spec.data[:12], spec.data[12:]
    assert len(spec.data) == 14 and not any(tr.get("showlegend", True) for tr in faint)
    for tr, role in zip(best, PER_HEAD, strict=True):
        np.testing.assert_allclose(tr["y"], PER_HEAD[role].reshape(4, -1).max(1))
        assert tr["line"]["color"] == ROLE_COLORS[role]
    assert "&lt;b&gt;" in best[0]["name"] and "<b>" not in str(spec.data)
    assert faint[-1]["name"].endswith(": L2 H3") and faint[-1]["line"]["color"] == ROLE_COLORS["induction"]
    shapes = spec.layout["shapes"]
    assert [s["y0"] for s in shapes] == [0.4, 0.3] and shapes[1]["line"]["color"] == ROLE_COLORS["induction"]
    assert [a["text"] for a in spec.layout["annotations"]] == ["p", "i"]
    assert spec.layout["xaxis"]["type"] == "log"


def test_rejects_scores_that_are_not_per_head():
    with pytest.raises(ValueError, match=r"\[S, L, H\]"):
        forming_scores(STEPS, {"induction": np.zeros((4, 6))}, THRESHOLDS, NAMES, **WORDS)
