"""param_treemap, short_count and scaling_contours (viz/anatomy.py)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import viz
from viz.anatomy import ScalingLabels, param_treemap, scaling_contours, short_count
from viz.palette import font_size

EVIL = "<b>bold</b>"
EVIL_ESCAPED = "&lt;b&gt;bold&lt;/b&gt;"

PARTS = {
    "embeddings": 131072,
    "attention.q": 32768,
    "attention.k": 8192,
    "attention.v": 8192,
    "attention.o": 32768,
    "ffn": 98304,
    "norms": 640,
    "head": 0,
}
TOTAL = sum(PARTS.values())  # 311 936


def strings(obj) -> list[str]:
    """Every string in a figure's JSON (text, names, titles, ticks, hover templates)."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in strings(v)]
    return []


def no_raw_markup(fig) -> None:
    found = strings(json.loads(fig.to_json()))
    assert not any("<b>bold" in s for s in found)
    assert any(EVIL_ESCAPED in s for s in found)


def test_exported_from_viz():
    for name in ("param_treemap", "scaling_contours", "short_count", "ScalingLabels"):
        assert name in viz.__all__ and getattr(viz, name) is not None


# ---------------------------------------------------------------- short_count


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (0, "0"),
        (999, "999"),
        (1000, "1K"),
        (1234, "1.23K"),
        (131072, "131K"),
        (32768, "32.8K"),
        (1_500_000, "1.5M"),
        (999_600, "1M"),  # rounded before the unit is chosen: not "1000K"
        (8_030_261_248, "8.03B"),
        (175_000_000_000, "175B"),
        (1_400_000_000_000, "1.4T"),
        (15_000_000_000_000_000, "15000T"),
        (-2500, "-2.5K"),
    ],
)
def test_short_count_three_significant_digits(n, text):
    assert short_count(n) == text


# ---------------------------------------------------------------- param_treemap


def tree(fig) -> dict[str, tuple[str, str, int, str]]:
    """id -> (parent, label, value, text) of the one treemap trace."""
    t = fig.data[0]
    return {i: (p, lab, v, tx) for i, p, lab, v, tx in zip(t.ids, t.parents, t.labels, t.values, t.text, strict=True)}


def test_treemap_root_is_the_sum_and_parents_sum_their_children():
    fig = param_treemap(PARTS, {})
    assert fig.data[0].type == "treemap" and fig.data[0].branchvalues == "total"
    nodes = tree(fig)
    assert nodes["root"][2] == TOTAL and nodes["root"][0] == ""
    assert nodes["attention"][2] == 32768 + 8192 + 8192 + 32768
    assert nodes["attention"][0] == "root" and nodes["attention.k"][0] == "attention"
    for node, (_, _, value, _) in nodes.items():
        kids = [v for p, _, v, _ in nodes.values() if p == node]
        if kids:
            assert sum(kids) == value, node
    leaves = [v for i, (_, _, v, _) in nodes.items() if i not in {p for p, *_ in nodes.values()}]
    assert sum(leaves) == TOTAL


def test_treemap_drops_zero_parts_and_empty_parents():
    nodes = tree(param_treemap({**PARTS, "extra.a": 0, "extra.b": 0}, {}))
    assert "head" not in nodes and "extra" not in nodes and "extra.a" not in nodes
    assert set(nodes) == {"root", "embeddings", "attention", *(f"attention.{x}" for x in "qkvo"), "ffn", "norms"}


def test_treemap_text_shows_short_count_and_percentage():
    nodes = tree(param_treemap(PARTS, {}))
    text = nodes["embeddings"][3]
    assert "131K" in text and "42.0%" in text  # 131 072 of 311 936
    assert "0.2%" in nodes["norms"][3]
    assert "100.0%" in nodes["root"][3]
    t = param_treemap(PARTS, {}).data[0]
    exact = {i: c[1] for i, c in zip(t.ids, t.customdata, strict=True)}
    assert exact["embeddings"] == "131,072" and exact["root"] == f"{TOTAL:,}"
    assert "%{customdata[1]}" in t.hovertemplate
    # Plotly's header of a parent tile shows only its label: the numbers are in it
    assert nodes["attention"][1] == "attention · 81.9K · 26.3%"
    assert nodes["root"][1] == "root · 312K · 100.0%"


def test_treemap_percentages_add_up():
    nodes = tree(param_treemap(PARTS, {}))
    pcts = {i: float(tx.split("%")[0].split()[-1].split(">")[-1]) for i, (_, _, _, tx) in nodes.items()}
    top = [pcts[i] for i, (p, *_) in nodes.items() if p == "root"]
    assert sum(top) == pytest.approx(100, abs=0.3)
    assert pcts["attention"] == pytest.approx(100 * 81920 / TOTAL, abs=0.05)


def test_treemap_labels_from_names_with_fallbacks_and_escaped():
    names = {"root": "Gesamt", "attention": EVIL, "attention.q": "Abfrage", "k": "Schlüssel"}
    fig = param_treemap(PARTS, names)
    nodes = tree(fig)
    assert nodes["root"][1].startswith("Gesamt · ")
    assert nodes["attention"][1].startswith(EVIL_ESCAPED + " · ")
    hover_names = dict(zip(fig.data[0].ids, (c[0] for c in fig.data[0].customdata), strict=True))
    assert hover_names["attention"] == EVIL_ESCAPED and hover_names["root"] == "Gesamt"
    assert nodes["attention.q"][1] == "Abfrage"  # full id
    assert nodes["attention.k"][1] == "Schlüssel"  # last segment
    assert nodes["attention.v"][1] == "v"  # neither: the segment itself
    assert nodes["ffn"][1] == "ffn"
    no_raw_markup(fig)
    no_raw_markup(param_treemap({EVIL: 5}, {}))  # an id without a name is escaped too
    no_raw_markup(param_treemap(PARTS, {}, title=EVIL))


def test_treemap_colours_follow_the_top_level_components():
    t = param_treemap(PARTS, {}).data[0]
    color = dict(zip(t.ids, t.marker.colors, strict=True))
    top = [color[i] for i in ("embeddings", "attention", "ffn", "norms")]
    assert len(set(top)) == 4
    kids = [color[f"attention.{x}"] for x in "qkvo"]
    assert len(set(kids)) == 4 and color["attention"] not in kids
    # tied head (0 parameters) keeps its slot: the colours do not shift when it is left out
    with_head = param_treemap({**PARTS, "head": 10}, {}).data[0]
    assert dict(zip(with_head.ids, with_head.marker.colors, strict=True))["norms"] == color["norms"]
    assert set(t.textfont.color) <= {"white", "#222222"}


def test_treemap_size_scales():
    small, big = param_treemap(PARTS, {}), param_treemap(PARTS, {}, scale=1.5)
    assert small.layout.height == 380 and big.layout.height == 570
    assert small.data[0].textfont.size == font_size(1.0) and big.data[0].textfont.size == font_size(1.5)
    assert small.layout.margin.l <= 10 and small.layout.margin.t <= 10  # no title: no room for one
    assert param_treemap(PARTS, {}, title="Parameter").layout.margin.t >= 30


@pytest.mark.parametrize(
    "parts",
    [
        {"a.b.c": 1},
        {".q": 1},
        {"root": 1},
        {"attention": 5, "attention.q": 3},
        {"ffn": -1},
        {"ffn": 0},
    ],
)
def test_treemap_rejects_bad_parts(parts):
    with pytest.raises(ValueError):
        param_treemap(parts, {})


# ---------------------------------------------------------------- scaling_contours

N = np.logspace(7, 12, 26)  # 10M .. 1T parameters
D = np.logspace(9, 14, 21)  # 1B .. 100T tokens


def chinchilla_loss(n, d):
    """Hoffmann et al. 2022, eq. 10 with their fitted constants (approach 3)."""
    return 1.69 + 406.4 / n**0.34 + 410.7 / d**0.28


LOSS = chinchilla_loss(N[None, :], D[:, None])  # [ny, nx]


def figure(**kw):
    args = dict(
        n_values=N,
        d_values=D,
        loss=LOSS,
        levels=[2.0, 2.2, 2.4, 2.6],
        points=[("GPT-3 175B", 175e9, 300e9), ("Chinchilla 70B", 70e9, 1.4e12)],
        frontier=(np.logspace(8, 12, 9), 20 * np.logspace(8, 12, 9)),
        compute_lines=[("C = 1e21 FLOPs", 1e21), ("C = 1e23 FLOPs", 1e23)],
        labels=ScalingLabels(),
    )
    args.update(kw)
    return scaling_contours(**args)


def contour_levels(fig) -> list[float]:
    out = []
    for t in fig.data:
        if t.type == "contour":
            c = t.contours
            k = round((c.end - c.start) / c.size)
            out += [c.start + i * c.size for i in range(k + 1)]
    return out


def test_contour_levels_even_in_one_trace():
    fig = figure()
    contours = [t for t in fig.data if t.type == "contour"]
    assert len(contours) == 1
    c = contours[0]
    assert c.autocontour is False and c.contours.showlabels
    assert contour_levels(fig) == pytest.approx([2.0, 2.2, 2.4, 2.6])
    assert np.allclose(c.x, np.log10(N)) and np.allclose(c.y, np.log10(D))
    assert np.asarray(c.z).shape == (D.size, N.size)


def test_contour_levels_uneven_one_trace_each_sorted():
    fig = figure(levels=[2.5, 1.95, 2.1])
    assert contour_levels(fig) == pytest.approx([1.95, 2.1, 2.5])
    assert sum(bool(t.showlegend) for t in fig.data if t.type == "contour") == 1  # one legend entry


def test_heatmap_hover_shows_counts_and_loss():
    heat = next(t for t in figure().data if t.type == "heatmap")
    assert "%{z:.3f}" in heat.hovertemplate
    assert heat.customdata[0][0] == ["10M", "1B"]
    assert heat.customdata[-1][-1] == ["1T", "100T"]
    assert "parameters N" in heat.hovertemplate and "training tokens D" in heat.hovertemplate


def test_ticks_read_as_counts():
    fig = figure()
    assert list(fig.layout.xaxis.tickvals) == [7, 8, 9, 10, 11, 12]
    assert list(fig.layout.xaxis.ticktext) == ["10M", "100M", "1B", "10B", "100B", "1T"]
    assert fig.layout.yaxis.ticktext[0] == "1B" and fig.layout.yaxis.ticktext[-1] == "100T"
    n = np.logspace(8, 9, 5)
    narrow = figure(n_values=n, loss=chinchilla_loss(n[None, :], D[:, None]), points=[])
    assert list(narrow.layout.xaxis.ticktext) == ["100M", "200M", "500M", "1B"]


def test_points_at_their_coordinates_with_escaped_names():
    fig = figure(points=[(EVIL, 175e9, 300e9), ("Chinchilla 70B", 70e9, 1.4e12)])
    pts = next(t for t in fig.data if t.type == "scatter" and t.mode == "markers+text")
    assert list(pts.x) == pytest.approx([math.log10(175e9), math.log10(70e9)])
    assert list(pts.y) == pytest.approx([math.log10(300e9), math.log10(1.4e12)])
    assert pts.text[0] == EVIL_ESCAPED
    assert pts.customdata[0][1:] == ["175B", "300B"]
    no_raw_markup(fig)


def test_close_point_labels_go_to_different_sides():
    fig = figure(points=[("a", 1e10, 1e11), ("b", 1.2e10, 1.1e11), ("c", 1e8, 1e13)])
    pts = next(t for t in fig.data if t.type == "scatter" and t.mode == "markers+text")
    assert pts.textposition[0] != pts.textposition[1]


def test_point_outside_the_grid_widens_the_plot():
    fig = figure(points=[("far", 1e13, 1e10)])
    assert fig.layout.xaxis.range[1] > 13
    assert fig.layout.yaxis.range == pytest.approx([9, 14])


def test_compute_lines_satisfy_6nd_and_stay_in_range():
    fig = figure(compute_lines=[("C = 1e21 FLOPs", 1e21), (EVIL, 1e23), ("outside", 1e40)])
    lines = [t for t in fig.data if t.type == "scatter" and t.line.dash == "dash"]
    assert len(lines) == 2  # 1e40 FLOPs lies outside the plot
    for t, c in zip(lines, (1e21, 1e23), strict=True):
        n, d = 10 ** np.asarray(t.x), 10 ** np.asarray(t.y)
        assert np.allclose(6 * n * d, c, rtol=1e-9)
        assert np.all(np.asarray(t.x) >= 7 - 1e-9) and np.all(np.asarray(t.x) <= 12 + 1e-9)
        assert np.all(np.asarray(t.y) >= 9 - 1e-9) and np.all(np.asarray(t.y) <= 14 + 1e-9)
        assert t.showlegend is False
    notes = [a.text for a in fig.layout.annotations]
    assert notes == ["C = 1e21 FLOPs", EVIL_ESCAPED]
    for t, a in zip(lines, fig.layout.annotations, strict=True):  # each label sits on its line
        assert a.y == pytest.approx(t.y[0] + t.x[0] - a.x)
    no_raw_markup(fig)


def test_frontier_line_and_labels():
    labels = ScalingLabels(n_axis="Parameter N", d_axis="Tokens D", loss="Verlust", frontier=EVIL)
    fig = figure(labels=labels)
    front = next(t for t in fig.data if t.type == "scatter" and t.mode == "lines" and t.line.dash is None)
    assert front.name == EVIL_ESCAPED
    assert list(front.x) == pytest.approx(np.linspace(8, 12, 9))
    assert list(front.y) == pytest.approx(np.log10(20) + np.linspace(8, 12, 9))
    assert fig.layout.xaxis.title.text == "Parameter N" and fig.layout.yaxis.title.text == "Tokens D"
    assert any(t.name == "Verlust" and t.showlegend for t in fig.data if t.type == "contour")
    assert not any(t.name == EVIL_ESCAPED for t in figure(frontier=None).data)
    no_raw_markup(fig)


def test_layout_legend_below_and_scale():
    fig = figure()
    assert fig.layout.height == 480 and figure(scale=1.5).layout.height == 720
    assert fig.layout.legend.orientation == "h" and fig.layout.legend.yref == "container"
    assert figure(scale=1.5).layout.font.size == font_size(1.5)


@pytest.mark.parametrize(
    "kw",
    [
        dict(loss=LOSS.T),
        dict(n_values=-N),
        dict(d_values=D[::-1]),
        dict(levels=[]),
        dict(points=[("zero", 0.0, 1e9)]),
        dict(compute_lines=[("none", 0.0)]),
        dict(frontier=(np.ones(3), np.ones(4))),
    ],
)
def test_scaling_contours_rejects_bad_input(kw):
    with pytest.raises(ValueError):
        figure(**kw)
