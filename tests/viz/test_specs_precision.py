"""The bfloat16 section's per-layer figure (viz/precision.py) skips Plotly's validation: it must be exactly what a
validating go.Figure holds; and what it draws: max and mean |Δ| per 1-based layer on a log axis, ε as a line."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz.precision import FLOOR, precision_gaps

TOP = np.array([0.004, 0.0, 0.012])
MEAN = np.array([2e-4, 0.0, 5e-4])
WORDS = dict(max_name="max |Δ|", mean_name="mean <b>", eps_name="ε = 2⁻⁷", x_title="层", y_title="|Δ|")
CASES = {
    "precision_gaps": lambda: precision_gaps(TOP, MEAN, eps=2**-7, **WORDS),
    "precision_gaps one layer, scale 1.5": lambda: precision_gaps([0.01], [0.001], eps=2**-7, title="<i>",
                                                                  scale=1.5, **WORDS),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_layers_lines_and_epsilon():
    spec = precision_gaps(TOP, MEAN, eps=2**-7, **WORDS)
    top, mean = [tr for tr in spec.data if tr.get("mode", "").startswith("lines")][:2]
    np.testing.assert_array_equal(np.asarray(top["x"]), [1, 2, 3])
    np.testing.assert_allclose(np.asarray(top["y"]), [0.004, FLOOR, 0.012])  # a layer that did not move: the floor
    np.testing.assert_allclose(np.asarray(mean["y"]), [2e-4, FLOOR, 5e-4])
    assert spec.layout["yaxis"]["type"] == "log" and spec.layout["xaxis"]["dtick"] == 1
    assert any(s.get("y0") == 2**-7 for s in spec.layout.get("shapes", []))
    with pytest.raises(ValueError, match="eps"):
        precision_gaps(TOP, MEAN, eps=0, **WORDS)
