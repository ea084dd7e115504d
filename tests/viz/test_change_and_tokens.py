"""change_bars colours and marks; token_strip draws one chip per token and wraps into rows."""

from __future__ import annotations

import numpy as np
import pytest

import viz
from viz.labels import axis_labels
from viz.palette import CHANGED, UNCHANGED
from viz.tokens import text_units

TOKENS = ["The", "␣cat", "<b>", "␣sat", "."]


def test_change_bars_colours_by_tol():
    delta = np.array([0.0, 1e-9, 0.4, 2e-6, 0.0])
    fig = viz.change_bars(delta, TOKENS, changed_position=2).figure()
    bars = fig.data[0]
    np.testing.assert_array_equal(bars.y, delta)
    assert list(bars.x) == axis_labels(TOKENS)
    assert list(bars.marker.color) == [UNCHANGED, UNCHANGED, CHANGED, CHANGED, UNCHANGED]
    assert list(bars.customdata) == ["unchanged", "unchanged", "changed", "changed", "unchanged"]
    strict = viz.change_bars(delta, TOKENS, changed_position=2, tol=1e-5).figure()
    assert list(strict.data[0].marker.color).count(CHANGED) == 1


def test_change_bars_zeros_visible_linear_axis_exact_hover():
    delta = np.array([0.0, 0.0, 0.4, 0.2, 0.1])
    fig = viz.change_bars(delta, TOKENS, changed_position=2).figure()
    dots = fig.data[1]
    assert list(dots.x) == ["0 The", "1 ␣cat"] and list(dots.y) == [0.0, 0.0]
    assert fig.layout.yaxis.type == "linear"
    assert "%{y:.6g}" in fig.data[0].hovertemplate and "max |Δ hidden|" in fig.data[0].hovertemplate


def test_change_bars_marks_changed_position():
    fig = viz.change_bars(np.zeros(5), TOKENS, changed_position=3).figure()
    (line,) = fig.layout.shapes
    assert line.x0 == line.x1 == 3 and line.line.dash == "dash"
    assert fig.layout.annotations[0].x == 3
    with pytest.raises(ValueError):
        viz.change_bars(np.zeros(5), TOKENS, changed_position=5).figure()


def test_change_bars_labels_translated():
    lab = viz.Labels(position="位置", change="最大变化", changed="已变", unchanged="未变")
    fig = viz.change_bars(np.array([0.0, 1.0]), ["a", "b"], changed_position=1, labels=lab).figure()
    assert fig.layout.xaxis.title.text == "位置" and fig.layout.yaxis.title.text == "最大变化"
    assert list(fig.data[0].customdata) == ["未变", "已变"]


def chips(fig) -> int:
    """Number of chip outlines: each is one NaN-terminated polygon in a filled trace."""
    return sum(int(np.isnan(np.asarray(t.x, float)).sum()) for t in fig.data if t.fill == "toself")


def rows(fig) -> int:
    return len(set(np.round(np.asarray(fig.data[-1].y), 3)))


def test_token_strip_one_chip_per_token_escaped_text_and_hover():
    fig = viz.token_strip(TOKENS).figure()
    assert chips(fig) == len(TOKENS)
    text = fig.data[-1]
    assert list(text.text) == ["The", "␣cat", "&lt;b&gt;", "␣sat", "."]
    assert text.hovertext[2] == "position 2<br>&lt;b&gt;"
    assert rows(fig) == 1
    assert fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False


def test_token_strip_wraps_long_input_and_grows():
    short = viz.token_strip(TOKENS).figure()
    long = viz.token_strip(["␣token"] * 120).figure()
    assert chips(long) == 120
    assert rows(long) > 3
    assert long.layout.height > short.layout.height
    x = np.asarray(long.data[-1].x)
    assert x.max() < long.layout.width  # nothing laid out past the right edge


def test_token_strip_cjk_counts_double():
    assert text_units("ab") == 2 and text_units("猫咪") == 4 and text_units("␣猫") == 3
    latin = viz.token_strip(["ab"] * 40).figure()
    cjk = viz.token_strip(["猫咪"] * 40).figure()
    assert rows(cjk) > rows(latin)


def test_token_strip_colours_chosen_positions():
    fig = viz.token_strip(TOKENS, colors={1: "#ffd8a8", 3: "#ffd8a8"}).figure()
    orange = [t for t in fig.data if t.fill == "toself" and t.fillcolor == "#ffd8a8"]
    assert len(orange) == 1 and chips(fig) == len(TOKENS)
    assert int(np.isnan(np.asarray(orange[0].x, float)).sum()) == 2
