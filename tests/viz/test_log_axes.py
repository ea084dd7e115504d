"""Every log axis spans at least two decades (issue 39): a narrow log axis invents differences."""

import math

import numpy as np
import pytest

import viz
from viz.axes import MIN_LOG_DECADES, log_range


def _span(axis: dict) -> float:
    lo, hi = axis["range"]
    return hi - lo


def test_translate_s_near_one_probabilities_stand_at_one_height():
    """The bars the teacher saw: 0.999997 ... 1.0000003, all labelled "1", drawn at wildly different heights."""
    p = np.array([0.999997, 1.0000003, 0.9999991, 0.99999])
    fig = viz.bars(p, ["a", "b", "c", "d"], x_title="x", y_title="p", log_y=True).to_dict()
    axis = fig["layout"]["yaxis"]
    assert axis["type"] == "log" and _span(axis) >= MIN_LOG_DECADES
    lo, hi = axis["range"]
    heights = (np.log10(p) - lo) / (hi - lo)  # each bar's height as a share of the plot
    assert heights.max() - heights.min() < 0.001  # equal to the eye, as their ratios (≤ 1.00001) are
    assert min(axis["tickvals"]) <= 10.0**-MIN_LOG_DECADES * 1.0001  # the ticks reach down the stretched axis


def test_a_wide_log_axis_keeps_its_own_span():
    p = np.array([0.9, 1e-7])
    lo, hi = log_range(p)
    assert lo < math.log10(1e-7) < math.log10(0.9) < hi
    assert hi - lo == pytest.approx((math.log10(0.9) + 7) * 1.1)


def test_line_charts_log_axes_follow_the_same_rule():
    s = viz.Series("s", np.array([1.0, 1.001, 1.002]))
    fig = viz.lines(np.array([1.0, 2.0, 3.0]), [s], x_title="x", y_title="y", log_y=True).to_dict()
    assert _span(fig["layout"]["yaxis"]) >= MIN_LOG_DECADES


def test_sweep_bands_are_the_mean_with_min_and_max_per_weights_and_mask() -> None:
    """The rank lesson's sweep: one band per (weights, mask), trained first, coloured by mask, dashed by weights."""
    import numpy as np

    from viz.lines import sweep_bands
    from viz.palette import MASK_KIND_COLORS, WEIGHT_DASH

    rng = np.random.default_rng(0)
    masks = ("causal", "bidirectional")
    runs = {w: {f"{k}.effective": rng.random((5, 3)) for k in masks} for w in ("random", "trained")}
    got = sweep_bands(runs, "effective", lambda k, w: f"{k}/{w}")
    assert [s.name for s in got] == ["causal/trained", "bidirectional/trained", "causal/random", "bidirectional/random"]
    for s in got:
        kind, w = s.name.split("/")
        v = runs[w][f"{kind}.effective"]
        np.testing.assert_array_equal(s.y, v.mean(-1))
        np.testing.assert_array_equal(s.low, v.min(-1))
        np.testing.assert_array_equal(s.high, v.max(-1))
        assert (s.color, s.dash) == (MASK_KIND_COLORS[kind], WEIGHT_DASH[w])
