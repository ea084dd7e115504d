"""The patching figures (viz/patching.py) skip Plotly's validation: each must equal the figure a validating go.Figure
holds; and what they draw is what they were given (the fixed −1…1 scale, raw values in the hover, names escaped)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.viz.test_specs import TOKENS, assert_valid
from viz.patching import estimate_scatter, head_names, interval_bars, signed_cells, token_cells

REC = np.array([[0.1, -0.4, np.nan], [1.7, 0.5, 0.0]])
RAW = np.array([[2.0, -1.0, np.nan], [9.0, 3.0, 1.0]])
ROWS, COLS = head_names(2, 3)
NAMES = ["L1H1", "L1H2", "L1H3", "L2H1", "L2H2", "<b>L2H3</b>"]

CASES = {
    "signed_cells recovered": lambda: signed_cells(
        REC,
        ROWS,
        COLS,
        title="t",
        x_title="head",
        y_title="layer",
        value_name="recovered",
        extra=RAW,
        extra_name="metric",
        note="clean 3 · corrupted −1",
    ),
    "signed_cells auto, square, 1.5": lambda: signed_cells(
        RAW, ROWS, COLS, title="直接", x_title="头", y_title="层", value_name="<i>", limit=None, square=True, scale=1.5
    ),
    "signed_cells wide": lambda: signed_cells(
        np.zeros((24, 20)), *head_names(24, 20), title="", x_title="h", y_title="l", value_name="v"
    ),
    "token_cells": lambda: token_cells(
        np.zeros((3, 4)), ROWS + ["x"], TOKENS, title="t", x_title="p", y_title="h", value_name="v"
    ),
    "token_cells wide": lambda: token_cells(
        np.ones((2, 40)), ROWS, ["w"] * 40, title="t", x_title="p", y_title="l", value_name="v", scale=1.5
    ),
    "estimate_scatter": lambda: estimate_scatter(
        REC.ravel(),
        REC.ravel() * 0.5,
        NAMES,
        flagged=[False, True, False, True, False, False],
        title="t",
        x_title="exact",
        y_title="estimate",
        line_name="y = x",
        flagged_name="disagree",
        others_name="agree",
    ),
    "estimate_scatter none flagged": lambda: estimate_scatter(
        [0, 1],
        [0, 1],
        ["a", "b"],
        flagged=[False, False],
        title="",
        x_title="x",
        y_title="y",
        line_name="l",
        flagged_name="f",
        others_name="o",
    ),
    "interval_bars": lambda: interval_bars(
        [0.5, 0.1], [0.2, -0.1], [0.8, 0.3], ["L2H3", "<b>"], title="t", x_title="share", value_name="mean"
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_spec_equals_validated_figure(case):
    assert_valid(CASES[case]())


def test_recovered_map_has_a_fixed_scale_and_the_raw_metric_in_the_hover():
    (tr,) = CASES["signed_cells recovered"]().data
    assert (tr["zmin"], tr["zmax"]) == (-1.0, 1.0)  # fixed, though a cell is 1.7
    assert tr["y"] == ["L1", "L2"] and tr["x"] == ["H1", "H2", "H3"]
    assert tr["customdata"][1][0] == ["1.700", "9.000"]
    assert tr["text"][1][0] == "1.70" and tr["text"][0][2] == ""  # above 1 keeps its number; NaN is blank
    assert "clean 3" in tr["hovertemplate"] and "metric" in tr["hovertemplate"]


def test_direct_map_scale_is_symmetric_around_zero_and_names_are_escaped():
    (tr,) = CASES["signed_cells auto, square, 1.5"]().data
    assert (tr["zmin"], tr["zmax"]) == (-9.0, 9.0)
    assert "&lt;i&gt;" in tr["hovertemplate"]
    assert "text" not in CASES["signed_cells wide"]().data[0]  # 24 × 20: hover only


def test_token_maps_label_positions_and_the_scatter_names_only_flagged_heads():
    (tr,) = CASES["token_cells"]().data
    assert tr["x"] == ["0 a", "1 &lt;b&gt;", "2 c &amp; d", "3 猫"]
    _line, agree, flagged = CASES["estimate_scatter"]().data
    assert flagged["text"] == ["L1H2", "L2H1"] and "text" not in agree
    assert "&lt;b&gt;L2H3&lt;/b&gt;" in agree["customdata"]


def test_bad_shapes_raise():
    with pytest.raises(ValueError, match="row names"):
        signed_cells(REC, ROWS[:1], COLS, title="", x_title="", y_title="", value_name="")
    with pytest.raises(ValueError, match="tokens"):
        token_cells(np.zeros((2, 3)), ROWS, TOKENS, title="", x_title="", y_title="", value_name="")
