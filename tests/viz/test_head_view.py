"""head_view: lines are exactly the weights >= min_weight, binned by opacity, coloured by head."""

from __future__ import annotations

import numpy as np
import pytest

import viz
from viz.head_view import OPACITY_BINS
from viz.palette import HEAD_COLORS

TOKENS = ["The", "␣cat", "<b>", "␣sat", "."]


def attention(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=shape).astype(np.float32) * 2
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def line_traces(fig):
    return [t for t in fig.data if t.mode == "lines" and t.showlegend is False]


def segments(fig) -> set[tuple[int, int, int]]:
    """(head, query, key) for every drawn line, read back from the NaN-separated traces."""
    out = set()
    for t in line_traces(fig):
        head = HEAD_COLORS.index(t.line.color)
        xs, ys = np.asarray(t.x).reshape(-1, 3), np.asarray(t.y).reshape(-1, 3)
        assert np.all(xs[:, 0] == 0) and np.all(xs[:, 1] == 1) and np.all(np.isnan(xs[:, 2]))
        assert np.all(np.isnan(ys[:, 2]))
        out |= {(head, int(q), int(k)) for q, k in ys[:, :2]}
    return out


def test_lines_are_exactly_weights_above_min_weight():
    a = attention((3, 5, 5))
    fig = viz.head_view(a, TOKENS, TOKENS, min_weight=0.1).figure()
    expected = {(int(h), int(q), int(k)) for h, q, k in zip(*np.nonzero(a >= 0.1), strict=True)}
    assert segments(fig) == expected
    assert len(segments(fig)) < a.size  # some weights were skipped


def test_trace_count_is_bounded_not_one_per_line():
    a = attention((4, 5, 5))
    fig = viz.head_view(a, TOKENS, TOKENS, min_weight=0.0).figure()
    # at most one trace per (head, bin), one legend entry per head, one token-text trace
    assert len(fig.data) <= 4 * OPACITY_BINS + 4 + 1
    assert len(line_traces(fig)) <= 4 * OPACITY_BINS
    assert len(segments(fig)) == a.size


def test_opacity_follows_weight_bin():
    a = attention((2, 5, 5))
    fig = viz.head_view(a, TOKENS, TOKENS, min_weight=0.0).figure()
    for t in line_traces(fig):
        head = HEAD_COLORS.index(t.line.color)
        ys = np.asarray(t.y).reshape(-1, 3)[:, :2].astype(int)
        w = a[head, ys[:, 0], ys[:, 1]]
        b = round(t.opacity * OPACITY_BINS - 0.5)
        assert np.all(w >= b / OPACITY_BINS - 1e-6) and np.all(w <= (b + 1) / OPACITY_BINS + 1e-6)
    opacities = {round(t.opacity, 3) for t in line_traces(fig)}
    widths = {t.opacity: t.line.width for t in line_traces(fig)}
    assert len(opacities) > 1
    assert [widths[o] for o in sorted(widths)] == sorted(widths[o] for o in widths)  # stronger = thicker too


def test_focus_draws_only_the_focused_query():
    a = attention((3, 5, 5))
    fig = viz.head_view(a, TOKENS, TOKENS, focus=3, min_weight=0.05).figure()
    drawn = segments(fig)
    assert drawn and {q for _, q, _ in drawn} == {3}
    assert drawn == {(int(h), 3, int(k)) for h, k in zip(*np.nonzero(a[:, 3] >= 0.05), strict=True)}
    text = fig.data[-1].text
    assert text[3] == "<b>␣sat</b>"
    assert fig.data[-1].textfont.color[3] != fig.data[-1].textfont.color[0]
    with pytest.raises(ValueError):
        viz.head_view(a, TOKENS, TOKENS, focus=5).figure()


def test_heads_subset_and_legend_groups():
    a = attention((4, 5, 5))
    fig = viz.head_view(a, TOKENS, TOKENS, heads=[1, 3], min_weight=0.0).figure()
    assert {h for h, _, _ in segments(fig)} == {1, 3}
    legend = [t for t in fig.data if t.showlegend is not False and t.mode == "lines"]
    assert [t.name for t in legend] == ["head 2", "head 4"]
    assert [t.legendgroup for t in legend] == ["head1", "head3"]
    assert {t.legendgroup for t in line_traces(fig)} == {"head1", "head3"}
    with pytest.raises(ValueError):
        viz.head_view(a, TOKENS, TOKENS, heads=[4]).figure()


def test_query_hover_lists_top_keys_per_head():
    a = np.full((2, 3, 3), 0.0, np.float32)
    a[:, :, 0] = 1.0
    a[0, 1] = [0.1, 0.6, 0.3]
    fig = viz.head_view(a, ["a", "b", "<c>"], ["a", "b", "<c>"], labels=viz.Labels(head="头")).figure()
    hover = fig.data[-1].hovertext[1]  # query 1
    assert "头 1: 1 b 0.60, 2 &lt;c&gt; 0.30, 0 a 0.10" in hover
    assert "头 2: 0 a 1.00" in hover
    assert fig.data[-1].hovertext[3 + 2] == "key: 2 &lt;c&gt;"  # keys follow the queries


def test_cross_attention_and_escaped_text():
    q, k = ["<q>", "b"], ["x", "y", "z"]
    a = attention((2, 2, 3))
    fig = viz.head_view(a, q, k).figure()
    text = fig.data[-1]
    assert list(text.text) == ["&lt;q&gt;", "b", "x", "y", "z"]
    assert list(text.x[:2]) == [text.x[0]] * 2 and text.x[0] < 0 < 1 < text.x[2]
    assert all(q < 2 and k < 3 for _, q, k in segments(fig))
