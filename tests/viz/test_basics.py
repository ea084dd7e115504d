"""Labels, escaping, argument checks, palette, and the no-streamlit/no-torch rule."""

from __future__ import annotations

import dataclasses
import html
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import viz
from viz.check import check_attention
from viz.labels import Labels, axis_labels, escape
from viz.palette import ATTENTION_COLORSCALE, HEAD_COLORS, MASK_COLORS, base_layout, font_size

ROOT = Path(__file__).parents[2]


def test_escape_leaves_no_markup():
    out = escape("<script>alert(1)</script>")
    assert "<" not in out and ">" not in out
    assert out == "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert html.unescape(out) == "<script>alert(1)</script>"


def test_escape_ampersand_first_so_entities_show_literally():
    assert escape("&lt;") == "&amp;lt;"
    assert escape("a & b") == "a &amp; b"
    assert escape("猫␣") == "猫␣"


def test_axis_labels_unique_ordered_escaped():
    labels = axis_labels(["the", "<b>", "the", "&"])
    assert labels == ["0 the", "1 &lt;b&gt;", "2 the", "3 &amp;"]
    assert len(set(labels)) == len(labels)


def test_labels_are_frozen_with_english_defaults():
    lab = Labels()
    assert (lab.query, lab.key, lab.weight, lab.allowed, lab.blocked) == (
        "query",
        "key",
        "weight",
        "may attend",
        "masked",
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        lab.query = "q"  # type: ignore[misc]


def test_check_attention_names_both_numbers():
    with pytest.raises(ValueError, match="attention has 5 query rows but 6 query tokens"):
        check_attention(np.zeros((5, 7)), ["a"] * 6, ["a"] * 7)
    with pytest.raises(ValueError, match="7 key columns but 3 key tokens"):
        check_attention(np.zeros((5, 7)), ["a"] * 5, ["a"] * 3)


def test_check_attention_ndim_and_empty():
    with pytest.raises(ValueError, match="must have 2 dimensions, got 3"):
        check_attention(np.zeros((2, 3, 3)), ["a"] * 3, ["a"] * 3)
    with pytest.raises(ValueError, match="empty"):
        check_attention(np.zeros((0, 0)), [], [])
    out = check_attention(np.zeros((2, 4, 3, 3)), ndim=4)
    assert out.shape == (2, 4, 3, 3)


@pytest.mark.parametrize(
    "call",
    [
        lambda: viz.heatmap(np.zeros((3, 3)), ["a"] * 4, ["a"] * 3).figure(),
        lambda: viz.mask_heatmap(np.ones((3, 3), bool), ["a"] * 3, ["a"] * 2).figure(),
        lambda: viz.head_view(np.zeros((2, 3, 3)), ["a"] * 2, ["a"] * 3).figure(),
        lambda: viz.head_view(np.zeros((3, 3)), ["a"] * 3, ["a"] * 3).figure(),
        lambda: viz.heads_grid(np.zeros((2, 3, 3))).figure(),
        lambda: viz.change_bars(np.zeros(3), ["a"] * 4, changed_position=0).figure(),
        lambda: viz.token_strip([]).figure(),
    ],
)
def test_every_figure_rejects_bad_shapes(call):
    with pytest.raises(ValueError):
        call()


def test_attention_colorscale_white_to_dark_blue():
    assert ATTENTION_COLORSCALE[0] == [0.0, "#ffffff"]
    assert ATTENTION_COLORSCALE[-1][0] == 1.0
    positions = [p for p, _ in ATTENTION_COLORSCALE]
    assert positions == sorted(positions)

    def lightness(hex_color: str) -> float:
        r, g, b = (int(hex_color[i : i + 2], 16) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light = [lightness(c) for _, c in ATTENTION_COLORSCALE]
    assert light == sorted(light, reverse=True)  # strictly darker towards 1
    last = ATTENTION_COLORSCALE[-1][1]
    assert int(last[5:7], 16) > int(last[1:3], 16)  # blue channel dominates: dark blue


def test_palette_colours():
    assert len(HEAD_COLORS) >= 12 and len(set(HEAD_COLORS)) == len(HEAD_COLORS)
    assert viz.head_color(len(HEAD_COLORS)) == HEAD_COLORS[0]
    assert MASK_COLORS["blocked"] == "#e8e8e8"
    assert MASK_COLORS["allowed"] in [c for _, c in ATTENTION_COLORSCALE]
    assert viz.CHANGED != viz.UNCHANGED


def test_font_size_and_base_layout_scale():
    assert font_size(1.0) == 13
    assert font_size(1.5) == 20
    small, big = base_layout(1.0), base_layout(1.5)
    assert small["font"]["size"] == 13 and big["font"]["size"] == 20
    assert small["paper_bgcolor"] == small["plot_bgcolor"] == "white"
    assert big["margin"]["t"] > small["margin"]["t"]
    with pytest.raises(ValueError):
        base_layout(0)


FIGURES = {
    "heatmap": lambda s: viz.heatmap(np.eye(3), list("abc"), list("abc"), scale=s).figure(),
    "heads_grid": lambda s: viz.heads_grid(np.ones((2, 2, 3, 3)) / 3, scale=s).figure(),
    "head_view": lambda s: viz.head_view(np.ones((2, 3, 3)) / 3, list("abc"), list("abc"), scale=s).figure(),
    "mask_heatmap": lambda s: viz.mask_heatmap(np.tri(3, dtype=bool), list("abc"), list("abc"), scale=s).figure(),
    "change_bars": lambda s: viz.change_bars(
        np.array([0.0, 1.0, 0.5]), list("abc"), changed_position=1, scale=s
    ).figure(),
    "token_strip": lambda s: viz.token_strip(list("abc"), scale=s).figure(),
}


@pytest.mark.parametrize("name", FIGURES)
def test_every_figure_applies_base_layout(name):
    for scale in (1.0, 1.5):
        fig = FIGURES[name](scale)
        assert fig.layout.font.size == font_size(scale)
        assert fig.layout.paper_bgcolor == "white"
    assert FIGURES[name](1.5).layout.height > FIGURES[name](1.0).layout.height


def test_viz_imports_neither_streamlit_nor_torch():
    code = "import viz, sys; assert 'streamlit' not in sys.modules and 'torch' not in sys.modules, sorted(sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]


def test_viz_attention_reexports_every_figure():
    from viz import attention

    for name in ("heatmap", "heads_grid", "head_view", "mask_heatmap", "change_bars", "token_strip"):
        assert getattr(attention, name) is getattr(viz, name)
