"""param_treemap, short_count and scaling_contours, with its label placement (viz/treemap.py, scaling.py,
label_placement.py)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import viz
from viz.label_placement import (
    LABEL_STEPS,
    LINE_HEIGHT,
    NUMBER_PAD_PX,
    PLOT_AREAS_PX,
    View,
    anchored_box,
    boxes_overlap,
    text_px,
)
from viz.labels import ScalingLabels, short_count
from viz.palette import HIGHLIGHT, INK, MUTED, font_size
from viz.scaling import ALLOCATION_SYMBOLS, POINT_SIZE_PX, scaling_contours
from viz.treemap import param_treemap

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
    fig = param_treemap(PARTS, {}).figure()
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
    nodes = tree(param_treemap({**PARTS, "extra.a": 0, "extra.b": 0}, {}).figure())
    assert "head" not in nodes and "extra" not in nodes and "extra.a" not in nodes
    assert set(nodes) == {"root", "embeddings", "attention", *(f"attention.{x}" for x in "qkvo"), "ffn", "norms"}


def test_treemap_text_shows_short_count_and_percentage():
    nodes = tree(param_treemap(PARTS, {}).figure())
    text = nodes["embeddings"][3]
    assert "131K" in text and "42.0%" in text  # 131 072 of 311 936
    assert "0.2%" in nodes["norms"][3]
    assert "100.0%" in nodes["root"][3]
    t = param_treemap(PARTS, {}).figure().data[0]
    exact = {i: c[1] for i, c in zip(t.ids, t.customdata, strict=True)}
    assert exact["embeddings"] == "131,072" and exact["root"] == f"{TOTAL:,}"
    assert "%{customdata[1]}" in t.hovertemplate
    # Plotly's header of a parent tile shows only its label: the numbers are in it
    assert nodes["attention"][1] == "attention · 81.9K · 26.3%"
    assert nodes["root"][1] == "root · 312K · 100.0%"


def test_treemap_percentages_add_up():
    nodes = tree(param_treemap(PARTS, {}).figure())
    pcts = {i: float(tx.split("%")[0].split()[-1].split(">")[-1]) for i, (_, _, _, tx) in nodes.items()}
    top = [pcts[i] for i, (p, *_) in nodes.items() if p == "root"]
    assert sum(top) == pytest.approx(100, abs=0.3)
    assert pcts["attention"] == pytest.approx(100 * 81920 / TOTAL, abs=0.05)


def test_treemap_labels_from_names_with_fallbacks_and_escaped():
    names = {"root": "Gesamt", "attention": EVIL, "attention.q": "Abfrage", "k": "Schlüssel"}
    fig = param_treemap(PARTS, names).figure()
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
    no_raw_markup(param_treemap({EVIL: 5}, {}).figure())  # an id without a name is escaped too
    no_raw_markup(param_treemap(PARTS, {}, title=EVIL).figure())


def test_treemap_colours_follow_the_top_level_components():
    t = param_treemap(PARTS, {}).figure().data[0]
    color = dict(zip(t.ids, t.marker.colors, strict=True))
    top = [color[i] for i in ("embeddings", "attention", "ffn", "norms")]
    assert len(set(top)) == 4
    kids = [color[f"attention.{x}"] for x in "qkvo"]
    assert len(set(kids)) == 4 and color["attention"] not in kids
    # tied head (0 parameters) keeps its slot: the colours do not shift when it is left out
    with_head = param_treemap({**PARTS, "head": 10}, {}).figure().data[0]
    assert dict(zip(with_head.ids, with_head.marker.colors, strict=True))["norms"] == color["norms"]
    assert set(t.textfont.color) <= {"white", "#222222"}


def test_treemap_size_scales():
    small, big = param_treemap(PARTS, {}).figure(), param_treemap(PARTS, {}, scale=1.5).figure()
    assert small.layout.height == 380 and big.layout.height == 570
    assert small.data[0].textfont.size == font_size(1.0) and big.data[0].textfont.size == font_size(1.5)
    assert small.layout.margin.l <= 10 and small.layout.margin.t <= 10  # no title: no room for one
    assert param_treemap(PARTS, {}, title="Parameter").figure().layout.margin.t >= 30


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
        param_treemap(parts, {}).figure()


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
    fig = figure().figure()
    contours = [t for t in fig.data if t.type == "contour"]
    assert len(contours) == 1
    c = contours[0]
    assert c.autocontour is False and c.contours.showlabels
    assert contour_levels(fig) == pytest.approx([2.0, 2.2, 2.4, 2.6])
    assert np.allclose(c.x, np.log10(N)) and np.allclose(c.y, np.log10(D))
    assert np.asarray(c.z).shape == (D.size, N.size)


def test_contour_levels_uneven_one_trace_each_sorted():
    fig = figure(levels=[2.5, 1.95, 2.1]).figure()
    assert contour_levels(fig) == pytest.approx([1.95, 2.1, 2.5])
    assert sum(bool(t.showlegend) for t in fig.data if t.type == "contour") == 1  # one legend entry


def test_heatmap_hover_shows_counts_and_loss():
    heat = next(t for t in figure().figure().data if t.type == "heatmap")
    assert "%{z:.3f}" in heat.hovertemplate
    assert heat.customdata[0][0] == ["10M", "1B"]
    assert heat.customdata[-1][-1] == ["1T", "100T"]
    assert "parameters N" in heat.hovertemplate and "training tokens D" in heat.hovertemplate


def test_ticks_read_as_counts():
    fig = figure().figure()
    assert list(fig.layout.xaxis.tickvals) == [7, 8, 9, 10, 11, 12]
    assert list(fig.layout.xaxis.ticktext) == ["10M", "100M", "1B", "10B", "100B", "1T"]
    assert fig.layout.yaxis.ticktext[0] == "1B" and fig.layout.yaxis.ticktext[-1] == "100T"
    n = np.logspace(8, 9, 5)
    narrow = figure(n_values=n, loss=chinchilla_loss(n[None, :], D[:, None]), points=[]).figure()
    assert list(narrow.layout.xaxis.ticktext) == ["100M", "200M", "500M", "1B"]


def model_traces(fig) -> list:
    """The published models: one marker trace each, in INK."""
    return [t for t in fig.data if t.type == "scatter" and t.mode == "markers" and t.marker.color == INK]


def numbers(fig) -> list:
    """The models' numbers: annotations on a leader line."""
    return [a for a in fig.layout.annotations if a.showarrow]


def line_labels(fig) -> list:
    """The iso-compute labels: annotations without an arrow."""
    return [a for a in fig.layout.annotations if not a.showarrow]


def dashed(fig) -> list:
    return [t for t in fig.data if t.type == "scatter" and t.line.dash == "dash"]


def test_points_are_numbered_dots_with_escaped_legend_names():
    fig = figure(points=[(EVIL, 175e9, 300e9), ("Chinchilla 70B", 70e9, 1.4e12)]).figure()
    pts = model_traces(fig)
    assert [t.name for t in pts] == [f"<b>1</b> {EVIL_ESCAPED}", "<b>2</b> Chinchilla 70B"]
    assert all(t.showlegend is not False for t in pts)
    assert [t.x[0] for t in pts] == pytest.approx([math.log10(175e9), math.log10(70e9)])
    assert [t.y[0] for t in pts] == pytest.approx([math.log10(300e9), math.log10(1.4e12)])
    nums = numbers(fig)
    assert [a.text for a in nums] == ["<b>1</b>", "<b>2</b>"]
    for a, t in zip(nums, pts, strict=True):  # each number points at its own dot, from a few px away
        assert (a.x, a.y) == pytest.approx((t.x[0], t.y[0]))
        assert 10 <= math.hypot(a.ax, a.ay) <= 80
        assert a.hovertext == t.hovertext[0]  # hovering the number tells the same as the dot
    assert pts[0].hovertext[0].startswith(f"<b>{EVIL_ESCAPED}</b>")
    assert "175B" in pts[0].hovertext[0] and "300B" in pts[0].hovertext[0]
    no_raw_markup(fig)


# The page's figure: seven published models, three of them within 0.16 decades of each other.
KNOWN = [
    ("GPT-3 175B", 175e9, 300e9),
    ("Gopher 280B", 280e9, 300e9),
    ("Chinchilla 70B", 70e9, 1.4e12),
    ("LLaMA 65B", 65.2e9, 1.4e12),
    ("Llama 2 70B", 70e9, 2.0e12),
    ("Llama 3 8B", 8e9, 15e12),
    ("Llama 3 70B", 70e9, 15e12),
]
PAGE_N = np.geomspace(1e7, 1e13, 61)
PAGE_D = np.geomspace(1e8, 1e15, 61)


def chinchilla_optimal(c):
    """(N, D) minimising chinchilla_loss under 6·N·D = C (Hoffmann et al. 2022, eq. 4)."""
    alpha, beta, a, b = 0.34, 0.28, 406.4, 410.7
    g = (alpha * a / (beta * b)) ** (1 / (alpha + beta))
    base = np.asarray(c, dtype=float) / 6
    return g * base ** (beta / (alpha + beta)), base ** (alpha / (alpha + beta)) / g


def page_figure(log10_budget: float = 23.77, **kw):
    c = 10**log10_budget
    n_opt, d_opt = (float(v) for v in chinchilla_optimal(c))
    n_20 = math.sqrt(c / 120)
    args = dict(
        n_values=PAGE_N,
        d_values=PAGE_D,
        loss=chinchilla_loss(PAGE_N[None, :], PAGE_D[:, None]),
        levels=np.round(np.arange(1.8, 3.01, 0.1), 2),
        points=KNOWN,
        frontier=chinchilla_optimal(np.geomspace(1e18, 1e28, 41)),
        compute_lines=[(f"C = {v:.0e}", v) for v in (1e20, 1e22, 1e24, 1e26)],
        budget=(f"C = {c:.2e}", c),
        allocations=[("exact minimum", n_opt, d_opt), ("20 tokens per parameter", n_20, 20 * n_20)],
        point_loss=chinchilla_loss,
    )
    args.update(kw)
    return scaling_contours(**args)


def views(fig, scale: float = 1.0) -> list[View]:
    xr, yr = tuple(fig.layout.xaxis.range), tuple(fig.layout.yaxis.range)
    return [View(w, h * scale, xr, yr) for w, h in PLOT_AREAS_PX]


def number_boxes(fig, view: View, scale: float = 1.0) -> list[tuple[float, float, float, float]]:
    size = round(font_size(scale) * 0.85)
    out = []
    for a in numbers(fig):
        x, y = view.px(a.x, a.y)
        cx, cy = x + a.ax, y + a.ay
        hw = text_px(a.text, size) / 2 + NUMBER_PAD_PX * scale
        hh = LINE_HEIGHT * size / 2 + NUMBER_PAD_PX * scale
        out.append((cx - hw, cy - hh, cx + hw, cy + hh))
    return out


def label_boxes(fig, view: View, scale: float = 1.0) -> list[tuple[float, float, float, float]]:
    size = round(font_size(scale) * 0.85)
    out = []
    for a in line_labels(fig):
        spot = dict(x=a.x, y=a.y, xanchor=a.xanchor, yanchor=a.yanchor, xshift=a.xshift, yshift=a.yshift)
        out.append(anchored_box(view, spot, text_px(a.text, size) + 4 * scale, LINE_HEIGHT * size + 4 * scale, scale))
    return out


@pytest.mark.parametrize("log10_budget", [18.0, 20.0, 21.5, 23.77, 25.0, 27.0])
def test_labels_do_not_collide_from_a_phone_to_a_wide_screen(log10_budget):
    fig = page_figure(log10_budget).figure()
    dots = model_traces(fig)
    for view in views(fig):  # plot areas at figure widths 420, 700 and 1400 px
        nums, labs = number_boxes(fig, view), label_boxes(fig, view)
        for k, box in enumerate(nums):
            assert view.inside(box), (view.width, k + 1)
            assert not any(boxes_overlap(box, other) for other in nums[k + 1 :]), (view.width, k + 1)
            assert not any(boxes_overlap(box, lab) for lab in labs), (view.width, k + 1)
            for j, t in enumerate(dots):  # no number hides a dot
                x, y = view.px(t.x[0], t.y[0])
                r = POINT_SIZE_PX / 2
                assert not boxes_overlap(box, (x - r, y - r, x + r, y + r)), (view.width, k + 1, j + 1)
        for k, box in enumerate(labs):
            assert view.inside(box), (view.width, line_labels(fig)[k].text)
            assert not any(boxes_overlap(box, other) for other in labs[k + 1 :]), (view.width, line_labels(fig)[k].text)


def test_close_models_get_numbers_in_different_places():
    fig = page_figure().figure()
    chinchilla, llama = numbers(fig)[2], numbers(fig)[3]  # 70B and 65.2B parameters, both 1.4T tokens
    assert (chinchilla.ax, chinchilla.ay) != (llama.ax, llama.ay)


def test_compute_lines_satisfy_6nd_and_stay_in_range():
    fig = figure(compute_lines=[("C = 1e21 FLOPs", 1e21), (EVIL, 1e23), ("outside", 1e40)]).figure()
    lines = dashed(fig)
    assert len(lines) == 2  # 1e40 FLOPs lies outside the plot
    for t, c in zip(lines, (1e21, 1e23), strict=True):
        n, d = 10 ** np.asarray(t.x), 10 ** np.asarray(t.y)
        assert np.allclose(6 * n * d, c, rtol=1e-9)
        assert np.all(np.asarray(t.x) >= 7 - 1e-9) and np.all(np.asarray(t.x) <= 12 + 1e-9)
        assert np.all(np.asarray(t.y) >= 9 - 1e-9) and np.all(np.asarray(t.y) <= 14 + 1e-9)
        assert t.showlegend is False and t.line.color == MUTED
    assert [a.text for a in line_labels(fig)] == ["C = 1e21 FLOPs", EVIL_ESCAPED]
    no_raw_markup(fig)


@pytest.mark.parametrize("log10_budget", [18.0, 23.77, 27.0])
def test_compute_labels_sit_near_an_end_of_their_line_beside_it(log10_budget):
    fig = page_figure(log10_budget).figure()
    for t, a in zip(dashed(fig), line_labels(fig), strict=True):  # the budget's last, both
        x0, x1 = t.x[0], t.x[-1]
        assert a.y == pytest.approx(t.y[0] + t.x[0] - a.x)  # anchored on its line ...
        from_end = min(a.x - x0, x1 - a.x) / (x1 - x0)
        assert from_end <= LABEL_STEPS[-1] + 1e-9  # ... at an end, not over the data in the middle
        # ... and by the corner, in the free quadrant: above-right or below-left of a falling line
        assert (a.xanchor, a.yanchor) in (("left", "bottom"), ("right", "top"))


def test_budget_is_its_own_highlighted_line_over_the_grey_ones():
    fig = page_figure(budget=(EVIL, 5.88e23)).figure()
    lines = dashed(fig)
    budget = lines[-1]  # drawn after the grey lines
    assert budget.name == EVIL_ESCAPED and budget.line.color == HIGHLIGHT and budget.showlegend
    assert all(t.line.color == MUTED and t.showlegend is False for t in lines[:-1])
    assert budget.line.width > lines[0].line.width
    n, d = 10 ** np.asarray(budget.x), 10 ** np.asarray(budget.y)
    assert np.allclose(6 * n * d, 5.88e23, rtol=1e-9)
    label = next(a for a in line_labels(fig) if a.text == EVIL_ESCAPED)
    assert label.font.color == HIGHLIGHT
    no_raw_markup(fig)
    assert not any(t.line.color == HIGHLIGHT for t in dashed(figure().figure()))  # no budget, no red line
    outside = figure(budget=("far", 1e40)).figure()
    assert not any(t.name == "far" for t in outside.data) and not any(a.text == "far" for a in line_labels(outside))


def test_allocations_are_large_highlighted_markers_at_their_coordinates():
    allocations = [(EVIL, 3.2e10, 3.0e12), ("20 tokens per parameter", 6.9e10, 1.4e12)]
    fig = figure(allocations=allocations).figure()
    marks = [t for t in fig.data if t.type == "scatter" and t.mode == "markers" and t.marker.color == HIGHLIGHT]
    assert [t.name for t in marks] == [EVIL_ESCAPED, "20 tokens per parameter"]
    assert [t.marker.symbol for t in marks] == list(ALLOCATION_SYMBOLS[:2])  # a star and an open diamond
    for t, (_, n, d) in zip(marks, allocations, strict=True):
        assert (t.x[0], t.y[0]) == pytest.approx((math.log10(n), math.log10(d)))
        assert t.marker.size > POINT_SIZE_PX and t.showlegend is not False
    # drawn before the models: a model's dot on an allocation stays visible
    assert fig.data.index(marks[-1]) < fig.data.index(model_traces(fig)[0])
    no_raw_markup(fig)
    far = figure(allocations=[("far", 1e13, 1e15)]).figure()
    assert far.layout.xaxis.range[1] > 13 and far.layout.yaxis.range[1] > 15


def test_hover_shows_counts_compute_and_loss_when_point_loss_is_given():
    allocations = [("exact minimum", 3.2e10, 3.0e12)]
    fig = figure(allocations=allocations, point_loss=chinchilla_loss).figure()
    gpt3 = model_traces(fig)[0].hovertext[0]
    for part in ("<b>GPT-3 175B</b>", "parameters N: 175B", "training tokens D: 300B", "C = 6·N·D: 3.15e+23"):
        assert part in gpt3
    assert f"loss: {chinchilla_loss(175e9, 300e9):.3f}" in gpt3
    alloc = next(t for t in fig.data if t.name == "exact minimum").hovertext[0]
    assert f"loss: {chinchilla_loss(3.2e10, 3.0e12):.3f}" in alloc and "D / N: 93.8" in alloc
    front = next(t for t in fig.data if t.name == "compute-optimal")
    assert "parameters N: 100M" in front.hovertext[0] and "training tokens D: 2B" in front.hovertext[0]
    assert "D / N: 20.0" in front.hovertext[0]
    assert f"loss: {chinchilla_loss(1e8, 2e9):.3f}" in front.hovertext[0]
    assert all(t.hovertemplate == "%{hovertext}<extra></extra>" for t in (model_traces(fig)[0], front))
    plain = figure().figure()  # without point_loss the hover gives no loss a grid could only approximate
    assert not any("loss:" in h for h in model_traces(plain)[0].hovertext)
    labels = ScalingLabels(n_axis=EVIL, loss="Verlust")
    assert "Verlust: " in model_traces(figure(labels=labels, point_loss=chinchilla_loss).figure())[0].hovertext[0]
    no_raw_markup(figure(labels=labels, point_loss=chinchilla_loss).figure())


def test_legend_lists_loss_frontier_budget_allocations_then_models():
    fig = page_figure().figure()
    entries = [t for t in fig.data if t.showlegend is not False and t.type != "heatmap"]
    shown = [t.name for t in sorted(entries, key=lambda t: t.legendrank)]  # Plotly: by rank, then trace order
    assert shown[:5] == ["loss", "compute-optimal", "C = 5.89e+23", "exact minimum", "20 tokens per parameter"]
    assert shown[5:] == [f"<b>{k + 1}</b> {name}" for k, (name, _, _) in enumerate(KNOWN)]


def test_point_outside_the_grid_widens_the_plot():
    fig = figure(points=[("far", 1e13, 1e10)]).figure()
    assert fig.layout.xaxis.range[1] > 13
    assert fig.layout.yaxis.range == pytest.approx([9, 14])


def test_frontier_line_and_labels():
    labels = ScalingLabels(n_axis="Parameter N", d_axis="Tokens D", loss="Verlust", frontier=EVIL)
    fig = figure(labels=labels).figure()
    front = next(t for t in fig.data if t.type == "scatter" and t.mode == "lines" and t.line.dash is None)
    assert front.name == EVIL_ESCAPED
    assert list(front.x) == pytest.approx(np.linspace(8, 12, 9))
    assert list(front.y) == pytest.approx(np.log10(20) + np.linspace(8, 12, 9))
    assert fig.layout.xaxis.title.text == "Parameter N" and fig.layout.yaxis.title.text == "Tokens D"
    assert any(t.name == "Verlust" and t.showlegend for t in fig.data if t.type == "contour")
    assert not any(t.name == EVIL_ESCAPED for t in figure(frontier=None).figure().data)
    no_raw_markup(fig)


def test_layout_legend_below_and_scale():
    fig = figure().figure()
    assert fig.layout.height == 540 and figure(scale=1.5).figure().layout.height == 810
    assert fig.layout.legend.orientation == "h" and fig.layout.legend.yref == "container"
    assert figure(scale=1.5).figure().layout.font.size == font_size(1.5)


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
        dict(budget=("none", -1.0)),
        dict(allocations=[("zero", 1e9, 0.0)]),
    ],
)
def test_scaling_contours_rejects_bad_input(kw):
    with pytest.raises(ValueError):
        figure(**kw).figure()
