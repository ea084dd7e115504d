"""Gemma 2's soft-capping figure skips Plotly's validation: it must be exactly what a validating go.Figure holds;
and what it draws: the curve cap·tanh(s/cap), the line y = s, and the head's (before, after) points, masked left out."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import assert_valid
from viz import softcap_curve
from viz.spec import Spec

BEFORE = np.array([-12.0, -1.0, 0.5, 7.0, -np.inf])
AFTER = 5.0 * np.tanh(BEFORE / 5.0)
CASES = {
    "softcap_curve": lambda: softcap_curve(5.0, BEFORE, AFTER),
    "softcap_curve words, scale 1.5": lambda: softcap_curve(50.0, BEFORE, AFTER, title="软上限 <i>", x_title="分数",
                                                            points_name="这个<b>头", scale=1.5),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_curve_line_and_points():
    spec = softcap_curve(5.0, BEFORE, AFTER)
    assert isinstance(spec, Spec)
    curve, line, points = spec.data
    x, y = np.asarray(curve["x"]), np.asarray(curve["y"])
    np.testing.assert_allclose(y, 5.0 * np.tanh(x / 5.0))
    np.testing.assert_allclose(np.asarray(line["y"]), x)
    assert np.abs(x).max() >= 12.0  # reaches the largest score
    np.testing.assert_allclose(np.asarray(points["x"]), BEFORE[:4])  # the masked -inf pair is left out
    np.testing.assert_allclose(np.asarray(points["y"]), AFTER[:4])
    with pytest.raises(ValueError, match="cap"):
        softcap_curve(0.0, BEFORE, AFTER)
